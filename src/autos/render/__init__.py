"""Renderers: a context in, the bytes of a PDF, DOCX or HTML out."""
