"""The :class:`~autos.app.generation.pipeline.Autos` facade and ``autos gerar``: the stages of a case or processo
(:mod:`.pipeline`), what they hand back (:mod:`.results`), the files read and written (:mod:`.files`), the archival
PDF (:mod:`.archive`) and one number per act across processos (:mod:`.act_numbers`)."""
