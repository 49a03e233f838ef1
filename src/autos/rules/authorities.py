"""The register of authorities of a municipality as data: ``rules/<municipio-uf>/autoridades.yaml``.

Who may practise which act of a processo, and on what basis. The file lists

* ``orgaos``: the organs the laws name (each with the article that names it: Timóteo art. 1º, the SIM of the
  Secretaria Municipal de Desenvolvimento Econômico, Turismo e Agricultura; Cuiabá art. 2º, the Centro de Controle
  de Zoonoses of the Fundação de Saúde de Cuiabá; Ferraz art. 79, the Prefeito and his Secretário Municipal de
  Segurança), and the organ each is part of (``vinculado_a``);
* ``cargos``: the posts of those organs and, for each, which act kinds it may practise (``competencias``) by law
  (``por: lei``, the article), by an act of the Municipality that attributes it (``por: ato``: a decree or a
  portaria, with number, date and publication) or by delegation (``por: delegacao``: the delegating post and
  the published act of delegation, Lei federal nº 9.784/1999, art. 14);
* ``titulares``: who holds each post, from when until when (``desde``/``ate``), with name and matrícula, and,
  where the law gives competence only to servants *designated* for it (Timóteo art. 20), the act of designation.

Every holder and every act may be marked ``exemplo: true`` (the shipped holders are fictitious): a document
signed with one of them says so (:attr:`Signer.exemplo`, :meth:`Authorities.examples`).

Loading is strict (unknown and duplicate keys, a post of an organ that is not listed, a holder of a post that is
not listed, a delegation without its published act): :class:`~autos.errors.RulesError` naming the file, the key
and the line. Which act kinds exist is the procedure's (``<lei>.processo.yaml``): :meth:`Authorities.check_kinds`
checks the register against it once both are read.
"""


import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from autos.base.citation import Citation
from autos.base.schema import build_model
from autos.base.yamlio import PathKey, YamlDoc, load_yaml
from autos.errors import AutosError, RulesError, RulesFileError
from autos.rules.calendar import format_date, load_rules_file
from autos.rules.official import patched, published_in
from autos.rules.statute import RuleSet, Signatory, Statute

__all__ = [
    "AUTHORITIES_FILE",
    "Authorities",
    "Competence",
    "Holder",
    "NormativeAct",
    "Organ",
    "Post",
    "Signer",
    "authorities_file",
    "load_authorities",
    "normalize_name",
    "with_register_signers",
]

AUTHORITIES_FILE = "autoridades.yaml"
#: act kinds the register may name besides those of a processo: who signs the consolidated edital of a law
#: (``autos publicar-editais``; it replaces ``edital_assinatura`` of the law's rules)
EXTRA_KINDS = frozenset({"edital_consolidado"})
_HONORIFICS = re.compile(r"^(dr|dra|sr|sra|prof|profa)\.?\s+", re.IGNORECASE)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True, defer_build=True)


class NormativeAct(_Strict):
    """A municipal act (decree, portaria) with its number, date and publication."""

    especie: str = Field(min_length=1, description="Decreto, Portaria, Resolução…")
    numero: str = Field(min_length=1)
    data: date
    publicacao: str | None = Field(default=None, description="onde e quando foi publicado (veículo, edição, data)")
    exemplo: bool = False

    def text(self) -> str:
        """``Portaria SEMDETA nº 15/2022, de 30/03/2022, publicada no Diário Oficial … de 31/03/2022``."""
        out = f"{self.especie} nº {self.numero}, de {format_date(self.data)}"
        if self.publicacao:
            out += f", {published_in(self.especie, self.publicacao)}"
        return out


class Organ(_Strict):
    nome: str = Field(min_length=1)
    sigla: str | None = None
    vinculado_a: str | None = Field(default=None, description="o órgão a que este pertence (id de 'orgaos')")
    lei: str = Field(pattern=r"^[a-z0-9-]+/[a-z0-9-]+$", description="a lei que nomeia o órgão")
    citacao: Citation


class Competence(_Strict):
    """Act kinds of a law a post may practise, and the basis."""

    lei: str = Field(pattern=r"^[a-z0-9-]+/[a-z0-9-]+$")
    atos: list[str] = Field(min_length=1)
    por: Literal["lei", "ato", "delegacao"]
    citacao: Citation | None = Field(default=None, description="o artigo da lei que dá a competência (ou que "
                                     "admite a delegação)")
    ato: NormativeAct | None = None
    delegante: str | None = Field(default=None, description="delegação: o cargo que delega (id de 'cargos')")
    designacao: bool = Field(default=False, description="a lei dá a competência a servidores designados: o "
                             "titular precisa do ato de designação")
    interpretacao: str | None = Field(default=None, description="id da escolha registrada nas regras do processo "
                                      "da lei, onde a lei é ambígua")
    desde: date | None = None
    ate: date | None = None

    @model_validator(mode="after")
    def _basis(self) -> "Competence":
        if self.por == "lei" and self.citacao is None:
            raise ValueError("competência por lei precisa de 'citacao' (o artigo da lei que a dá)")
        if self.por in ("ato", "delegacao") and self.ato is None:
            raise ValueError(f"competência por {self.por} precisa de 'ato' (espécie, número, data e publicação)")
        if self.por == "delegacao":
            if self.delegante is None:
                raise ValueError("delegação precisa de 'delegante' (o cargo que delega)")
            if self.ato is not None and not self.ato.publicacao:
                raise ValueError("o ato de delegação deve ser publicado no meio oficial (Lei federal nº "
                                 "9.784/1999, art. 14): informe ato.publicacao")
        return self

    def covers(self, d: date) -> bool:
        start = self.desde if self.desde is not None else (self.ato.data if self.ato is not None else None)
        return (start is None or start <= d) and (self.ate is None or d <= self.ate)


class Post(_Strict):
    nome: str = Field(min_length=1)
    orgao: str
    outros_nomes: list[str] = Field(default_factory=list, description="outras formas de escrever o cargo nos "
                                    "processos (a autoridade da decisão é achada por elas)")
    competencias: list[Competence] = Field(default_factory=list)


class Holder(_Strict):
    cargo: str
    nome: str = Field(min_length=1)
    tratamento: str | None = Field(default=None, description="Dr., Dra.… (impresso antes do nome)")
    nome_do_cargo: str | None = Field(default=None, description="o cargo como este titular o assina, quando difere do "
                                      "nome do cargo (p. ex. Coordenadora, Secretária)")
    matricula: str | None = None
    desde: date
    ate: date | None = None
    designacao: NormativeAct | None = None
    exemplo: bool = False

    def serves(self, d: date) -> bool:
        return self.desde <= d and (self.ate is None or d <= self.ate)

    @property
    def display(self) -> str:
        return f"{self.tratamento} {self.nome}" if self.tratamento else self.nome

    def post_name(self, post: Post) -> str:
        return self.nome_do_cargo or post.nome


class _AuthoritiesFile(_Strict):
    municipio: str
    orgaos: dict[str, Organ]
    cargos: dict[str, Post]
    titulares: list[Holder] = Field(default_factory=list)


def normalize_name(text: str) -> str:
    """A name or post as compared: no honorific (Dr., Dra.), no accents, case and spacing folded."""
    t = _HONORIFICS.sub("", " ".join(text.split()))
    t = "".join(c for c in unicodedata.normalize("NFKD", t) if not unicodedata.combining(c))
    return t.casefold().strip(" .")


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


@dataclass(frozen=True)
class Signer:
    """Who signs an act, as the register knows them on the act's date: the person, the post, the organ, and the
    competence for the act (``competencia``: its basis as a document prints it). ``exemplo``: the holder, the
    designation or the competence act is an example of the shipped rules, not the Municipality's (``fontes``:
    file and line of each example value)."""

    nome: str
    cargo: str
    cargo_id: str
    orgao: str
    matricula: str | None
    competencia: str
    delegacao: str | None  # "por delegação do Prefeito Municipal": the decision says so (Lei 9.784, art. 14, § 3º)
    interpretacao: str | None
    exemplo: bool
    fontes: tuple[str, ...]
    holder_index: int


@dataclass(frozen=True)
class Authorities:
    """The register of one municipality (see the module's docstring)."""

    municipio: str
    file: Path
    doc: YamlDoc
    orgaos: dict[str, Organ]
    cargos: dict[str, Post]
    titulares: tuple[Holder, ...]

    # --- lookups ------------------------------------------------------------------------------------
    def holders_on(self, d: date) -> list[tuple[int, Holder]]:
        return [(i, h) for i, h in enumerate(self.titulares) if h.serves(d)]

    def by_matricula(self, matricula: str) -> list[tuple[int, Holder]]:
        key = _digits(matricula)
        return [(i, h) for i, h in enumerate(self.titulares) if h.matricula and _digits(h.matricula) == key and key]

    def by_name(self, name: str) -> list[tuple[int, Holder]]:
        key = normalize_name(name)
        return [(i, h) for i, h in enumerate(self.titulares) if normalize_name(h.nome) == key]

    def posts_named(self, name: str) -> list[str]:
        """Post ids whose name (or another name) is ``name``."""
        key = normalize_name(name)
        return [pid for pid, p in self.cargos.items()
                if key in {normalize_name(p.nome), *(normalize_name(n) for n in p.outros_nomes)}]

    def competences(self, cargo: str, lei: str, kind: str, d: date) -> list[Competence]:
        post = self.cargos.get(cargo)
        if post is None:
            return []
        return [c for c in post.competencias if c.lei == lei and kind in c.atos and c.covers(d)]

    def competent_posts(self, lei: str, kind: str, d: date) -> list[str]:
        """The posts that may practise ``kind`` on ``d`` (ids, in the file's order)."""
        return [pid for pid in self.cargos if self.competences(pid, lei, kind, d)]

    def organ_chain(self, organ: str) -> str:
        """``Serviço de Inspeção Municipal — SIM, da Secretaria Municipal de …``."""
        names: list[str] = []
        seen: set[str] = set()
        cur: str | None = organ
        while cur is not None and cur not in seen and cur in self.orgaos:
            seen.add(cur)
            names.append(self.orgaos[cur].nome)
            cur = self.orgaos[cur].vinculado_a
        return ", da ".join(names)

    def post_label(self, cargo: str) -> str:
        """``Agente Fiscal de Posturas (Fiscalização Municipal, da Prefeitura …)``; the organ is left out when the
        post's name already says it (``Presidente da Fundação de Saúde de Cuiabá``)."""
        post = self.cargos[cargo]
        organ = self.orgaos[post.orgao].nome
        return post.nome if organ in post.nome else f"{post.nome} ({self.organ_chain(post.orgao)})"

    def signer(self, i: int, lei: str, kind: str, d: date, cite: dict[str, str]) -> Signer | None:
        """Holder ``i`` as the signer of ``kind`` on ``d``; ``None`` when their post has no competence for it then.
        ``cite``: the text of each law's citation label (``{lei id: 'Lei nº 3.844/2022'}``)."""
        h = self.titulares[i]
        comps = self.competences(h.cargo, lei, kind, d)
        if not comps:
            return None
        c = comps[0]
        post = self.cargos[h.cargo]
        label = cite.get(c.lei, c.lei)
        parts: list[str] = []
        fontes: list[str] = []
        base: PathKey = ("cargos", h.cargo, "competencias", post.competencias.index(c))
        if c.por == "lei":
            assert c.citacao is not None
            parts.append(c.citacao.full(label))
        elif c.ato is not None:
            if c.citacao is not None:
                parts.append(c.citacao.full(label))
            parts.append(c.ato.text())
        delegation = None
        if c.por == "delegacao" and c.ato is not None and c.delegante in self.cargos:
            delegation = f"por delegação do {self.cargos[c.delegante].nome}"
        if c.designacao and h.designacao is not None:
            parts.append(f"designação: {h.designacao.text()}")
        if h.exemplo:
            fontes.append(f"{self.file}:{self.doc.line_of(('titulares', i))}")
        if h.designacao is not None and h.designacao.exemplo:
            fontes.append(f"{self.file}:{self.doc.line_of(('titulares', i, 'designacao'))}")
        if c.ato is not None and c.ato.exemplo:
            fontes.append(f"{self.file}:{self.doc.line_of((*base, 'ato'))}")
        return Signer(nome=h.display, cargo=h.post_name(post), cargo_id=h.cargo, orgao=self.organ_chain(post.orgao),
                      matricula=h.matricula, competencia="; ".join(parts), delegacao=delegation,
                      interpretacao=c.interpretacao, exemplo=bool(fontes), fontes=tuple(fontes), holder_index=i)

    def needs_designation(self, i: int, lei: str, kind: str, d: date) -> Competence | None:
        """The competence of holder ``i`` for ``kind`` that requires a designation the holder lacks."""
        h = self.titulares[i]
        for c in self.competences(h.cargo, lei, kind, d):
            if c.designacao and h.designacao is None:
                return c
        return None

    def examples(self) -> list[tuple[int | None, str]]:
        """``(line, what)`` of every value marked ``exemplo: true`` (holders, designations, competence acts)."""
        out: list[tuple[int | None, str]] = []
        for pid, post in self.cargos.items():
            for k, c in enumerate(post.competencias):
                if c.ato is not None and c.ato.exemplo:
                    out.append((self.doc.line_of(("cargos", pid, "competencias", k, "ato")),
                                f"ato da competência de {post.nome}: {c.ato.text()}"))
        for i, h in enumerate(self.titulares):
            if h.exemplo:
                out.append((self.doc.line_of(("titulares", i)), f"titular de {self.cargos[h.cargo].nome}: {h.nome}"))
            if h.designacao is not None and h.designacao.exemplo:
                out.append((self.doc.line_of(("titulares", i, "designacao")),
                            f"designação de {h.nome}: {h.designacao.text()}"))
        return out

    def error(self, path: PathKey, message: str, hint: str | None = None) -> AutosError:
        """A problem of the register found after it was read (against the law's processo rules): the run stops, as
        for a problem found while reading it."""
        return self.doc.error(RulesFileError, path, message, hint)

    def check_kinds(self, lei: str, kinds: set[str], interpretations: set[str]) -> None:
        """Every act kind the register names for ``lei`` is one of the law's processo rules (or
        :data:`EXTRA_KINDS`), and every ``interpretacao`` one of its recorded choices; RulesError otherwise."""
        for pid, post in self.cargos.items():
            for k, c in enumerate(post.competencias):
                if c.lei != lei:
                    continue
                path: PathKey = ("cargos", pid, "competencias", k)
                for j, kind in enumerate(c.atos):
                    if kind not in kinds and kind not in EXTRA_KINDS:
                        raise self.error((*path, "atos", j), f"o ato '{kind}' não está nas regras do processo da lei "
                                         f"'{lei}'.", f"use um de: {', '.join(sorted(kinds | EXTRA_KINDS))}.")
                if c.interpretacao is not None and c.interpretacao not in interpretations:
                    raise self.error((*path, "interpretacao"), f"a escolha '{c.interpretacao}' não está nas "
                                     f"'interpretacoes' das regras do processo da lei '{lei}'.",
                                     "registre a escolha (id, citacao, problema, escolha) nas regras do processo.")


def authorities_file(rules_dir: Path, municipio_dir: str) -> Path:
    return Path(rules_dir) / municipio_dir / AUTHORITIES_FILE


def load_authorities(rules_dir: Path, municipio_dir: str) -> Authorities | None:
    """Read ``rules_dir/<municipio_dir>/autoridades.yaml`` strictly; ``None`` when the municipality has none."""
    file = authorities_file(rules_dir, municipio_dir)
    if not file.is_file():
        return None
    return load_rules_file(file, lambda: _load(file, municipio_dir))


def _load(file: Path, municipio_dir: str) -> Authorities:
    doc = patched(load_yaml(file, RulesError), "autoridades")
    m = build_model(_AuthoritiesFile, doc, RulesError)

    def err(path: PathKey, message: str, hint: str | None = None) -> AutosError:
        return doc.error(RulesError, path, message, hint)

    if m.municipio != municipio_dir:
        raise err(("municipio",), f"o arquivo declara o município '{m.municipio}', mas está na pasta "
                  f"'{municipio_dir}'.", f"escreva municipio: {municipio_dir}.")
    for oid, o in m.orgaos.items():
        if o.vinculado_a is not None and o.vinculado_a not in m.orgaos:
            raise err(("orgaos", oid, "vinculado_a"), f"órgão '{o.vinculado_a}' não está em 'orgaos'.")
        if not o.lei.startswith(municipio_dir + "/"):
            raise err(("orgaos", oid, "lei"), f"a lei '{o.lei}' não é do município '{municipio_dir}'.")
    for pid, p in m.cargos.items():
        if p.orgao not in m.orgaos:
            raise err(("cargos", pid, "orgao"), f"órgão '{p.orgao}' não está em 'orgaos'.",
                      "todo cargo é de um órgão que a lei nomeia: acrescente o órgão, com o artigo, em 'orgaos'.")
        for k, c in enumerate(p.competencias):
            if c.delegante is not None and c.delegante not in m.cargos:
                raise err(("cargos", pid, "competencias", k, "delegante"), f"cargo '{c.delegante}' não está em "
                          "'cargos'.")
            if not c.lei.startswith(municipio_dir + "/"):
                raise err(("cargos", pid, "competencias", k, "lei"), f"a lei '{c.lei}' não é do município "
                          f"'{municipio_dir}'.")
    for i, h in enumerate(m.titulares):
        if h.cargo not in m.cargos:
            raise err(("titulares", i, "cargo"), f"cargo '{h.cargo}' não está em 'cargos'.")
        if h.ate is not None and h.ate < h.desde:
            raise err(("titulares", i, "ate"), f"'ate' ({format_date(h.ate)}) é anterior a 'desde' "
                      f"({format_date(h.desde)}).")
        if h.matricula:
            for j, other in enumerate(m.titulares[:i]):
                if other.matricula and _digits(other.matricula) == _digits(h.matricula) and \
                        normalize_name(other.nome) != normalize_name(h.nome):
                    raise err(("titulares", i, "matricula"), f"a matrícula {h.matricula} já é de {other.nome} "
                              f"(titulares[{j}]).", "cada matrícula é de uma só pessoa.")
    return Authorities(municipio=municipio_dir, file=file, doc=doc, orgaos=dict(m.orgaos), cargos=dict(m.cargos),
                       titulares=tuple(m.titulares))


def with_register_signers(rules: RuleSet) -> RuleSet:
    """``rules`` with each law's signatory of the consolidated edital (``edital_assinatura``) taken from its
    municipality's register of authorities, where the register names one (a post with the competence
    ``edital_consolidado`` for the law): the holder in office (no ``ate``; of several, the latest ``desde``), the
    post, and the basis of the competence. A law that names its signatory in its own rules and in the register is an
    error: one place only."""
    out: dict[str, Statute] = {}
    for sid, st in rules.statutes.items():
        municipio = sid.split("/", 1)[0]
        auth = load_authorities(rules.root, municipio)
        chosen = _edital_holder(auth, sid) if auth is not None else None
        if chosen is None:
            out[sid] = st
            continue
        assert auth is not None
        if st.edital_assinatura is not None:
            raise RulesError(f"quem assina o edital consolidado da lei '{sid}' está em dois lugares: em "
                             f"'edital_assinatura' de {st.file} e no registro de autoridades {auth.file}.",
                             file=st.file, path="edital_assinatura",
                             hint="retire 'edital_assinatura' das regras da lei: o registro de autoridades é o lugar.")
        _i, h, c = chosen
        basis = c.citacao.full(st.lei.label) if c.citacao is not None else ""
        if c.ato is not None:
            basis = f"{basis}; {c.ato.text()}" if basis else c.ato.text()
        if h.designacao is not None:
            basis += f"; designação: {h.designacao.text()}"
        example = h.exemplo or (c.ato is not None and c.ato.exemplo) or (h.designacao is not None and
                                                                        h.designacao.exemplo)
        out[sid] = st.model_copy(update={"edital_assinatura": Signatory(
            nome=h.display, cargo=h.post_name(auth.cargos[h.cargo]), ato=basis or None, exemplo=example)})
    return RuleSet(rules.root, out)


def _edital_holder(auth: Authorities, lei: str) -> tuple[int, Holder, Competence] | None:
    found = [(i, h, c) for i, h in enumerate(auth.titulares) if h.ate is None
             for c in auth.cargos[h.cargo].competencias if c.lei == lei and "edital_consolidado" in c.atos]
    return max(found, key=lambda t: t[1].desde) if found else None
