"""The Municipality's official values: ``rules/<municipio>/valores-oficiais.yaml`` (optional).

The shipped rules carry EXAMPLE values (``exemplo: true``): the fiscal unit's value per year, deadlines the law
leaves to a regulation, calendar days not yet checked against the decree, the holders of the posts and their
designation acts, the regulations a law refers to. A document that uses one is a MINUTA
(:mod:`autos.documents.minuta`). This one file is where the Municipality sets, or confirms, each of them with its
source act (espécie, número, data, publicação); the loaders of the other rules files read it (:func:`patched`)
and take the value as official — the example mark is removed and the act is what the documents cite.

Format (every key is checked: an unknown or repeated key is an error naming the file, the key and the line)::

    municipio: ferraz-de-vasconcelos-sp
    unidade_fiscal:            # per law file (its name without .yaml): the value of each year
      lei-3240-2015:
        - {ano: 2026, valor: "4.5000", ato: {especie: Decreto, numero: "7.200/2025", data: 2025-12-15,
                                             publicacao: "Imprensa Oficial do Município, de 16/12/2025"}}
    prazos:                    # per law file: a deadline of its prazos or processo rules, confirmed or set
      lei-3240-2015:
        aguas_pluviais_arts20a22: {quantidade: 30, ato: {...}}
    calendario:                # a day of calendario.yaml (by its name), confirmed by the act
      - {nome: Carnaval, ato: {...}}
    titulares:                 # a holder of autoridades.yaml (by name), confirmed; ``ato``: the designation
      - {nome: Márcia Regina Tavares, ato: {...}}
    atos_das_autoridades:      # a competence or delegation act of autoridades.yaml (by its number), confirmed
      - {numero: "7.015/2025", ato: {...}}
    regulamentos:              # per law file: a regulation the law cites (by its id), with the real act
      lei-3844-2022:
        decreto-municipal-5123-2022: {ato: {...}}
"""


import copy
import os
import re
from datetime import date
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from autos.base.ptbr import format_date_short as format_date
from autos.base.schema import build_model
from autos.base.yamlio import YamlDoc, load_yaml
from autos.errors import RulesError
from autos.rules.snapshot import kept

__all__ = [
    "FILE_NAME", "FOLDER_ENV", "OfficialAct", "OfficialValues", "load_official", "municipio_inputs", "official_file",
    "patched",
]

FILE_NAME = "valores-oficiais.yaml"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True, defer_build=True)


class OfficialAct(_Strict):
    """The act that sets or confirms a value: ``Decreto nº 7.200/2025, de 15/12/2025, publicado em …``."""

    especie: str = Field(min_length=1, description="espécie do ato: Decreto, Portaria, Lei, Resolução…")
    numero: str = Field(min_length=1, description="número do ato, como publicado (p. ex. 7.200/2025)")
    data: date = Field(description="data do ato (AAAA-MM-DD)")
    publicacao: str = Field(min_length=1, description="onde e quando foi publicado (veículo, edição, data)")

    def text(self) -> str:
        published = published_in(self.especie, self.publicacao)
        return f"{self.especie} nº {self.numero}, de {format_date(self.data)}, {published}"


def published_in(especie: str, publicacao: str) -> str:
    """``publicado no Diário Oficial …`` / ``publicada no …``: the participle agrees with the act's kind (o decreto,
    a portaria), and the preposition with the vehicle when it is a masculine noun; otherwise ``em``."""
    participle = "publicado" if especie.split()[0].casefold() in {"decreto", "ato", "despacho"} else "publicada"
    first = publicacao.split()[0].casefold() if publicacao.split() else ""
    preposition = "no" if first in {"diário", "jornal", "boletim", "órgão", "sítio", "portal"} else "em"
    return f"{participle} {preposition} {publicacao}"


class FiscalUnitValue(_Strict):
    """The official value in reais of the fiscal unit for one year."""

    ano: int = Field(ge=1900, le=2200, description="ano de vigência do valor (de 1º de janeiro a 31 de dezembro)")
    valor: str = Field(min_length=1, description="valor em reais, com ponto decimal, entre aspas (p. ex. \"4.5000\")")
    ato: OfficialAct = Field(description="ato que fixa o valor")


class DeadlineValue(_Strict):
    """A deadline the law leaves to a regulation, confirmed (or its term set) by the act."""

    quantidade: int | None = Field(default=None, ge=1, description="o prazo fixado pelo ato (na unidade da regra); "
                                   "omitido: confirma o das regras")
    ato: OfficialAct = Field(description="ato que fixa o prazo")


class CalendarDay(_Strict):
    """A day of ``calendario.yaml`` (by its ``nome``) confirmed by the official act."""

    nome: str = Field(min_length=1, description="o nome do dia em calendario.yaml (p. ex. Carnaval)")
    ato: OfficialAct = Field(description="ato que declara o dia sem expediente")


class HolderValue(_Strict):
    """A holder of ``autoridades.yaml`` (by ``nome``) confirmed; ``ato``: the act that designates them."""

    nome: str = Field(min_length=1, description="o nome do titular em autoridades.yaml")
    ato: OfficialAct = Field(description="ato de designação (ou nomeação) do titular")


class AuthorityAct(_Strict):
    """A competence or delegation act of ``autoridades.yaml`` (by its ``numero``), confirmed."""

    numero: str = Field(min_length=1, description="o número do ato em autoridades.yaml (p. ex. 7.015/2025)")
    ato: OfficialAct = Field(description="o ato como publicado")


class RegulationValue(_Strict):
    """A regulation a law cites (``regulamentos`` of the law's rules), with its real act."""

    ato: OfficialAct = Field(description="o regulamento como publicado")


class OfficialValues(_Strict):
    """``valores-oficiais.yaml``: every value the Municipality sets or confirms, each with its source act."""

    municipio: str = Field(description="a pasta do município (p. ex. ferraz-de-vasconcelos-sp)")
    unidade_fiscal: dict[str, list[FiscalUnitValue]] = Field(
        default_factory=dict, description="por arquivo de lei (sem .yaml): o valor oficial da unidade fiscal por ano")
    prazos: dict[str, dict[str, DeadlineValue]] = Field(
        default_factory=dict, description="por arquivo de lei: os prazos de exemplo confirmados ou fixados")
    calendario: list[CalendarDay] = Field(default_factory=list,
                                          description="os dias de exemplo de calendario.yaml confirmados")
    titulares: list[HolderValue] = Field(default_factory=list,
                                         description="os titulares de exemplo de autoridades.yaml confirmados")
    atos_das_autoridades: list[AuthorityAct] = Field(
        default_factory=list, description="os atos de competência ou delegação de exemplo de autoridades.yaml")
    regulamentos: dict[str, dict[str, RegulationValue]] = Field(
        default_factory=dict, description="por arquivo de lei: os regulamentos de exemplo, com o ato real")


#: a folder of ``<municipio>/valores-oficiais.yaml`` kept outside the rules folder (an installed package's rules are
#: read-only): used for a municipality whose rules folder has no file of its own
FOLDER_ENV = "AUTOS_VALORES_OFICIAIS"


def official_file(municipio_dir: Path) -> Path:
    """The municipality's official values: in its rules folder, else in the folder ``AUTOS_VALORES_OFICIAIS``."""
    own = municipio_dir / FILE_NAME
    other = os.environ.get(FOLDER_ENV)
    if not own.is_file() and other:
        elsewhere = Path(other) / municipio_dir.name / FILE_NAME
        if elsewhere.is_file():
            return elsewhere
    return own


def municipio_inputs(municipio_dir: Path) -> list[Path]:
    """The files a municipality's rules can depend on: its folder's YAML files, those at the top of the rules
    folder and its official values (which may live elsewhere: ``AUTOS_VALORES_OFICIAIS``)."""
    files = sorted(municipio_dir.glob("*.yaml")) + sorted(municipio_dir.parent.glob("*.yaml"))
    official = official_file(municipio_dir)
    return files if official in files else [*files, official]


#: by (file, mtime, size): the file read once while unchanged
_CACHE: dict[tuple[str, int, int], tuple[OfficialValues, YamlDoc]] = {}


def load_official(municipio_dir: Path) -> tuple[OfficialValues, YamlDoc] | None:
    """The municipality's official values (strict), or None when it has no ``valores-oficiais.yaml``."""
    file = official_file(municipio_dir)
    try:
        st = file.stat()
    except OSError:
        return None
    key = (str(file.resolve()), st.st_mtime_ns, st.st_size)
    if key not in _CACHE:
        _CACHE[key] = kept("valores-oficiais", [file], lambda: _load(file))
    return _CACHE[key]


def _load(file: Path) -> tuple[OfficialValues, YamlDoc]:
    doc = load_yaml(file, RulesError)
    model = build_model(OfficialValues, doc, RulesError)
    if model.municipio != file.parent.name:
        raise doc.error(RulesError, ("municipio",), f"o arquivo declara o município '{model.municipio}', mas "
                        f"está na pasta '{file.parent.name}'.", f"escreva municipio: {file.parent.name}.")
    for lei, values in model.unidade_fiscal.items():
        years = [v.ano for v in values]
        for i, y in enumerate(years):
            if y in years[:i]:
                raise doc.error(RulesError, ("unidade_fiscal", lei, i, "ano"),
                                f"o ano {y} aparece duas vezes no valor da unidade fiscal de {lei}.",
                                "deixe um só valor por ano.")
    return model, doc


def official_key(municipio_dir: Path) -> bytes:
    """The bytes of the official values file (empty without one): part of the key of what is cached from it."""
    try:
        return official_file(municipio_dir).read_bytes()
    except OSError:
        return b""


def _act_fields(act: OfficialAct) -> dict[str, Any]:
    return {"especie": act.especie, "numero": act.numero, "data": act.data.isoformat(), "publicacao": act.publicacao}


def patched(doc: YamlDoc, kind: str) -> YamlDoc:
    """``doc`` (a rules file of ``kind``: ``lei``, ``prazos``, ``processo``, ``calendario``, ``autoridades``) with
    the municipality's official values applied: the value set, the example mark removed, the act cited. The lines
    stay those of the rules file; ``doc`` itself is unchanged."""
    loaded = load_official(doc.file.parent)
    if loaded is None or not isinstance(doc.data, dict):
        return doc
    ov, _ = loaded
    data = copy.deepcopy(doc.data)
    stem = doc.file.name.split(".", 1)[0]
    if kind == "lei":
        _patch_statute(data, ov, stem)
    elif kind == "prazos":
        for pid, value in ov.prazos.get(stem, {}).items():
            rule = (data.get("prazos") or {}).get(pid)
            if isinstance(rule, dict) and "tipo" in rule:
                _patch_deadline(rule, value)
    elif kind == "processo":
        for pid, value in ov.prazos.get(stem, {}).items():
            rule = (data.get("prazos") or {}).get(pid)
            if isinstance(rule, dict) and isinstance(rule.get("novo"), dict):
                _patch_deadline(rule["novo"], value)
    elif kind == "calendario":
        by_name = {d.nome: d for d in ov.calendario}
        for section in data.values():
            for entry in section if isinstance(section, list) else []:
                if isinstance(entry, dict) and entry.get("nome") in by_name:
                    entry["ato"] = by_name[entry["nome"]].ato.text()
                    entry.pop("exemplo", None)
    elif kind == "autoridades":
        _patch_authorities(data, ov)
    return YamlDoc(data, doc.file, doc.lines)


def _patch_deadline(rule: dict[str, Any], value: DeadlineValue) -> None:
    if value.quantidade is not None:
        rule["quantidade"] = str(value.quantidade)
    rule.pop("exemplo", None)
    # the act that fixes the deadline replaces the rules' example: its "(prazo de EXEMPLO, …)" note and the
    # choice that justified the example value go; what remains is the law and the act
    base = _EXAMPLE_NOTE.sub("", str(rule.get("base_legal", "")))
    rule["base_legal"] = f"{base}; prazo fixado no {value.ato.text()}".lstrip("; ")
    for key in ("escolha", "justificativa"):
        if "EXEMPLO" in str(rule.get(key, "")):
            rule.pop(key)


#: the parenthetical that marks an example deadline in its legal basis ("(prazo de EXEMPLO, a fixar no …)")
_EXAMPLE_NOTE = re.compile(r"\s*\([^()]*EXEMPLO[^()]*\)")


def _patch_statute(data: dict[str, Any], ov: OfficialValues, stem: str) -> None:
    values = ov.unidade_fiscal.get(stem, [])
    uf = data.get("unidade_fiscal")
    if values and isinstance(uf, dict) and isinstance(uf.get("valores"), list):
        official = {v.ano: v for v in values}
        kept = [e for e in uf["valores"] if not (isinstance(e, dict) and str(e.get("desde", ""))[:4].isdigit()
                                                 and int(str(e["desde"])[:4]) in official)]
        for v in values:
            kept.append({"desde": f"{v.ano:04d}-01-01", "ate": f"{v.ano:04d}-12-31", "valor": v.valor,
                         "fonte": v.ato.text()})
        uf["valores"] = sorted(kept, key=lambda e: str(e.get("desde", "")))
    regs = data.get("regulamentos")
    for rid, value in ov.regulamentos.get(stem, {}).items():
        reg = regs.get(rid) if isinstance(regs, dict) else None
        if isinstance(reg, dict):
            reg["numero"] = value.ato.numero.split("/", 1)[0]
            reg["data"] = value.ato.data.isoformat()
            reg["publicacao"] = value.ato.publicacao
            reg["fonte"] = value.ato.text()
            reg.pop("exemplo", None)


def _patch_authorities(data: dict[str, Any], ov: OfficialValues) -> None:
    holders = {h.nome: h for h in ov.titulares}
    for h in data.get("titulares") or []:
        if isinstance(h, dict) and h.get("nome") in holders:
            h.pop("exemplo", None)
            h["designacao"] = _act_fields(holders[h["nome"]].ato)
    acts = {a.numero: a for a in ov.atos_das_autoridades}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ato = node.get("ato")
            if isinstance(ato, dict) and ato.get("numero") in acts:
                node["ato"] = _act_fields(acts[ato["numero"]].ato)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(data.get("cargos"))
