"""The processo files of a folder: their timelines and pendências (``prazos``, ``pendencias``: :mod:`.service`,
:mod:`.pending_spool`), the deadline rules and calendars read once (:mod:`.deadlines`), a new file (``novo``:
:mod:`.new_processo`) and the JSON Schemas of the files (``schema``: :mod:`.schemas`)."""
