"""Findings: a case or a processo checked against its law."""
