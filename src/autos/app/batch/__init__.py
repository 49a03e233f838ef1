"""What the batch commands (``gerar``, ``publicar-editais``, ``verificar``) share: worker processes that die with
their run (:mod:`.workers`) and the Dask executor (:mod:`.cluster`)."""
