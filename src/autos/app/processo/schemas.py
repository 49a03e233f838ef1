"""JSON Schemas of the case file (`autos schema`) and of the processo file (`autos schema --processo`), for a YAML
language server.

The structure comes from the pydantic model (:class:`autos.processo.model.Processo`); every property gets
a Portuguese ``description`` (the model's, else :data:`autos.processo.fields.FIELD_DOCS`). The rules folder
adds what depends on the law: ``lei`` is an enum of the laws found, and for each law an ``if {lei: const}``
/ ``then`` restricts ``atos[].tipo`` to the law's act kinds, ``infracoes[].regra`` to its infraction ids
and ``atos[].penalidades[].tipo`` to its penalty ids, each value described.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from autos.processo.case import Case
from autos.processo.fields import FIELD_DOCS
from autos.processo.model import Processo
from autos.rules.procedure import load_procedure, procedure_file
from autos.rules.statute import RuleSet

__all__ = ["case_json_schema", "processo_json_schema"]


def _describe(schema: dict[str, Any]) -> None:
    """Fill the ``description`` of every property of every model from :data:`FIELD_DOCS`."""
    defs: dict[str, Any] = schema.get("$defs", {})
    for name, model in [("Processo", schema), *defs.items()]:
        for key, prop in model.get("properties", {}).items():
            if "description" not in prop:
                doc = FIELD_DOCS.get(f"{name}.{key}")
                if doc is None and "$ref" in prop:
                    target = defs.get(prop["$ref"].rsplit("/", 1)[-1], {})
                    doc = target.get("description")
                prop["description"] = doc or key.replace("_", " ")
            prop.pop("title", None)


def _enum(values: dict[str, str]) -> dict[str, Any]:
    """A string among ``values`` (id → description), each described for the editor's completion."""
    return {"type": "string", "enum": sorted(values),
            "oneOf": [{"const": k, "description": values[k]} for k in sorted(values)]}


def processo_json_schema(rules: RuleSet) -> dict[str, Any]:
    """JSON Schema (draft 2020-12) of the processo file for the laws of ``rules``."""
    schema = Processo.model_json_schema()
    _describe(schema)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Processo administrativo do autos (um arquivo por processo, com a linha do tempo dos atos)"
    schema["description"] = ("Arquivo de processo: lei, número, autuado, local, fatos, infrações e a lista "
                             "'atos' na ordem em que foram praticados (veja autos novo e autos regras mostrar LEI).")
    laws: dict[str, str] = {}
    branches: list[dict[str, Any]] = []
    for lei in sorted(rules.statutes):
        if not procedure_file(rules.root, lei).is_file():
            continue  # a law without processo rules cannot have a processo file
        statute = rules.statutes[lei]
        proc = load_procedure(Path(rules.root), lei)
        laws[lei] = statute.lei.label
        kinds = {k: f"{a.nome} ({proc.cite(a.citacao)})" for k, a in proc.atos.items()}
        infractions = {k: f"{' '.join(i.descricao.split())} ({statute.cite(i.citacao)})"
                       for k, i in statute.infracoes.items()}
        penalties = {k: f"{p.nome} ({statute.cite(p.citacao)})" for k, p in statute.penalidades.items()}
        branches.append({
            "if": {"properties": {"lei": {"const": lei}}, "required": ["lei"]},
            "then": {"properties": {
                "atos": {"items": {"properties": {
                    "tipo": _enum(kinds),
                    "penalidades": {"anyOf": [{"type": "array", "items": {"properties": {"tipo": _enum(penalties)}}},
                                              {"type": "null"}]},
                }}},
                "infracoes": {"items": {"properties": {"regra": _enum(infractions)}}},
            }},
        })
    schema["properties"]["lei"] = {**_enum(laws), "description": schema["properties"]["lei"]["description"]}
    schema["allOf"] = branches
    return schema


def case_json_schema() -> dict[str, Any]:
    """JSON Schema (draft 2020-12) of the case file, for editors (YAML language server)."""
    schema = Case.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Caso do autos (auto de infração, notificação, edital)"
    return schema
