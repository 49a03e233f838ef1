"""The :class:`~autos.app.generation.pipeline.Autos` facade and ``autos gerar``: the stages of a case or processo,
its documents rendered, written (:mod:`.pipeline`) and archived (:mod:`.archive`), one number per act
(:mod:`.act_numbers`)."""
