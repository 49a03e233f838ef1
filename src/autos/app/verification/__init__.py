"""Checking what was produced: ``verificar`` (a folder of cases: :mod:`.verify`; across processos: :mod:`.cross`),
``conferir`` (a file against the ledger or the register: :mod:`.conferir`; its signatures:
:mod:`.conferir_assinaturas`) and ``regras cobertura`` (:mod:`.coverage`)."""
