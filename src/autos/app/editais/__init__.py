"""``autos publicar-editais`` (the batch: :mod:`.publish`, with its options and result :mod:`.run`, its output folder
:mod:`.folder`, its pool :mod:`.pool`, the consolidated edital :mod:`.consolidated`, the summary :mod:`.summary`, fault
injection :mod:`.faults`; its workers: :mod:`.jobs`; the manifest of a date: :mod:`.manifest`) and the corrections of
a published edital (:mod:`.corrections`)."""
