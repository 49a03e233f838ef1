"""Stage 0: reading YAML with lines, citations, pt-BR wording, pydantic helpers (anchors.md §3)."""
