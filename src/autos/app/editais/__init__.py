"""``autos publicar-editais`` (the batch: :mod:`.publish`; its workers: :mod:`.jobs`; the manifest of a date:
:mod:`.manifest`) and the corrections of a published edital (:mod:`.corrections`)."""
