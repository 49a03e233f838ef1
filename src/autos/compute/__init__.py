"""Fines and timelines computed from the rules and the facts: no files, no clock."""
