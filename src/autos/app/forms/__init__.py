"""Filling in processos without writing YAML: the form of a new processo and its validation, save and edit
(:mod:`.processo_form`), the form of a new act on an existing processo (:mod:`.act_form`) and a spreadsheet of
notices imported row by row as forms (``autos importar``: :mod:`.importing`)."""
