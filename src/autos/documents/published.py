"""What an archived edital embeds instead of its case file (``autos gerar --arquivo``).

The archival PDF/A of a document embeds the file it was generated from, so that the document can be re-read
with its facts. An edital is different: it is published, and its purpose — notifying someone whose domicile is
unknown — needs only what it publishes (LGPD, Lei federal nº 13.709/2018, art. 6º, III, necessity). Its archive
embeds those data (the same the edital prints: the name, the CPF/CNPJ masked, the auto, the provisions, the
amount, the publications, the date the notice takes effect and the deadlines) and the name and SHA-256 of the
case or processo file, which ties the edital to the full file kept in the processo without disclosing it (the
full CPF, the qualification, the address, the facts, the witnesses stay out).
"""

from __future__ import annotations

import hashlib
from typing import Any

import yaml

__all__ = ["published_data"]


def published_data(ctx: dict[str, Any], source_name: str, source: bytes) -> bytes:
    """The YAML an archived edital embeds, from the edital's own context (:func:`autos.documents.edital.
    edital_sections`: it holds only what may be published)."""
    ed = ctx["edital"]
    doc = ctx["documento"]
    data: dict[str, Any] = {
        "documento": doc["titulo"],
        "numero": doc["numero"],
        "processo": doc["processo"],
        "lei": ctx["lei"]["rotulo"],
        "municipio": f"{ctx['lei']['municipio']}/{ctx['lei']['uf']}",
        "notificado": {"nome": ed["notificado"]["nome"], "documento": ed["notificado"]["documento"]},
        "auto": {"numero": ctx["auto_ref"]["numero"], "data": ctx["auto_ref"]["data"]},
        "infracoes": [{"dispositivo": i["citacao"], "descricao": i["descricao"],
                       **({"complemento": i["complemento"]} if i["complemento"] else {})} for i in ed["infracoes"]],
        "multa": {"unidades": ed["multa"]["unidades"], "reais": ed["multa"]["reais"]} if ed["multa"] else None,
        "publicacoes": [{"veiculo": p["veiculo"], "data": p["data"]} for p in ed["publicacoes"]],
        "notificacao_feita_em": ed["data_notificacao"],
        "prazos": [{"descricao": d["descricao"], "prazo": d["prazo"], "ate": d["data"] or None,
                    "base_legal": d["base_legal"]} for d in ctx["prazos"]],
        "arquivo_do_processo": {"nome": source_name, "sha256": hashlib.sha256(source).hexdigest()},
        "por_que_so_estes_dados": "o edital publica só o necessário à notificação (Lei federal nº 13.709/2018 — "
                                  "LGPD, art. 6º, III); o arquivo completo fica no processo, identificado pelo "
                                  "SHA-256 acima.",
    }
    text: str = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=120)
    return text.encode("utf-8")
