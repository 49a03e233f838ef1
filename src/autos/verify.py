"""Completeness check of a whole folder of cases (``autos verificar``), for legal teams.

:func:`verify` validates every case below the given folders and returns a :class:`Verification`: the
reports of each case plus counts by law, by document kind and by finding code, and the interpretive
choices of each law met (shown once in the report, not per case). It renders as text
(:func:`verification_text`), as JSON (:meth:`Verification.to_dict`) and as one self-contained HTML
file (:func:`verification_html`, template ``html/relatorio_verificacao.html``: Jinja sandbox, autoescape,
no scripts, no external resources).

Exit code (:meth:`Verification.exit_code`): the same as ``autos validar`` — 0 every case complete, 1 some
case has an *erro* finding, 2 some case could not be read (it cannot be checked at all, so the folder is
not known to be complete) or no case was found.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

import jinja2

from .errors import AutosError, RenderError
from .output import write_atomic
from .pipeline import Autos, expand_case_paths
from .processo.app import is_processo_file
from .rules import Statute
from .validate import Report, exit_code
from .yamlio import load_yaml

HTML_TEMPLATE = "relatorio_verificacao.html"


@dataclass
class CaseCheck:
    """One case of the folder: its report, and the law and kind it declares (when it could be read)."""

    report: Report
    lei: str | None
    documento: str | None
    numero: str | None

    @property
    def status(self) -> str:
        """``ilegivel``, ``com_erro`` or ``sem_erro``."""
        if self.report.error is not None:
            return "ilegivel"
        return "com_erro" if self.report.errors else "sem_erro"

    def to_dict(self) -> dict[str, Any]:
        out = self.report.to_dict()
        out.update({"lei": self.lei, "documento": self.documento, "numero": self.numero, "situacao": self.status})
        return out


@dataclass
class Tally:
    """Counts for a group of cases (a law, a document kind, or all)."""

    casos: int = 0
    sem_erro: int = 0
    com_erro: int = 0
    ilegiveis: int = 0
    achados_erro: int = 0
    achados_aviso: int = 0

    def add(self, c: CaseCheck) -> None:
        self.casos += 1
        if c.status == "ilegivel":
            self.ilegiveis += 1
        elif c.status == "com_erro":
            self.com_erro += 1
        else:
            self.sem_erro += 1
        for f in c.report.findings:
            if f.severidade == "erro":
                self.achados_erro += 1
            else:
                self.achados_aviso += 1

    def to_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


@dataclass
class CodeTally:
    """How often one finding code occurs, in how many cases, and the provisions it cites."""

    codigo: str
    severidade: str
    achados: int = 0
    casos: int = 0
    citacoes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Verification:
    """The result of checking every case below some folders."""

    pastas: list[Path]
    casos: list[CaseCheck]
    leis: dict[str, Statute]  # every law met, by id (for labels and interpretive choices)
    data_referencia: date
    gerado_em: datetime

    # --- summaries ---------------------------------------------------------------------------------
    @property
    def totais(self) -> dict[str, int]:
        t = Tally()
        for c in self.casos:
            t.add(c)
        return t.to_dict()

    def por_lei(self) -> list[tuple[str | None, Tally]]:
        """Counts by law id (``None``: cases that could not be read far enough to tell their law)."""
        groups: dict[str | None, Tally] = {}
        for c in self.casos:
            groups.setdefault(c.lei, Tally()).add(c)
        return sorted(groups.items(), key=lambda kv: (kv[0] is None, kv[0] or ""))

    def por_documento(self) -> list[tuple[str | None, Tally]]:
        groups: dict[str | None, Tally] = {}
        for c in self.casos:
            groups.setdefault(c.documento, Tally()).add(c)
        return sorted(groups.items(), key=lambda kv: (kv[0] is None, kv[0] or ""))

    def por_codigo(self) -> list[CodeTally]:
        """Finding codes, errors first, then by how many cases they affect."""
        codes: dict[str, CodeTally] = {}
        for c in self.casos:
            seen: set[str] = set()
            for f in c.report.findings:
                t = codes.get(f.codigo)
                if t is None:
                    t = codes[f.codigo] = CodeTally(f.codigo, f.severidade)
                t.achados += 1
                if f.codigo not in seen:
                    seen.add(f.codigo)
                    t.casos += 1
                if f.citacao and f.citacao not in t.citacoes:
                    t.citacoes.append(f.citacao)
        return sorted(codes.values(), key=lambda t: (t.severidade != "erro", -t.casos, t.codigo))

    def rotulo_lei(self, lei: str | None) -> str:
        """``Lei nº 3.844/2022 (Timóteo/MG)``; the raw id for a law missing from the rules."""
        if lei is None:
            return "lei não identificada (caso ilegível)"
        st = self.leis.get(lei)
        if st is None:
            return f"{lei} (não encontrada nas regras)"
        return f"{st.lei.label} ({st.lei.municipio}/{st.lei.uf})"

    def titulo_documento(self, documento: str | None) -> str:
        if documento is None:
            return "tipo não identificado (caso ilegível)"
        for st in self.leis.values():
            kind = st.documentos.get(documento)
            if kind is not None:
                return kind.titulo
        return documento

    def interpretacoes(self) -> list[tuple[str, Statute]]:
        """Laws met that record interpretive choices, sorted by id."""
        return [(sid, st) for sid, st in sorted(self.leis.items()) if st.interpretacoes]

    def exit_code(self) -> int:
        """As ``autos validar``: 0 clean, 1 some erro, 2 some case unreadable — or no case found."""
        if not self.casos:
            return 2
        return exit_code([c.report for c in self.casos])

    def to_dict(self) -> dict[str, Any]:
        return {
            "pastas": [str(p) for p in self.pastas],
            "data_de_referencia": self.data_referencia.isoformat(),
            "gerado_em": self.gerado_em.isoformat(timespec="seconds"),
            "completo": self.exit_code() == 0,
            "codigo_de_saida": self.exit_code(),
            "totais": self.totais,
            "por_lei": [{"lei": k, "rotulo": self.rotulo_lei(k), **t.to_dict()} for k, t in self.por_lei()],
            "por_documento": [{"documento": k, "titulo": self.titulo_documento(k), **t.to_dict()}
                              for k, t in self.por_documento()],
            "por_codigo": [t.to_dict() for t in self.por_codigo()],
            "escolhas_interpretativas": {
                sid: [{"id": i.id, "citacao": st.cite(i.citacao), "problema": _flat(i.problema),
                       "escolha": _flat(i.escolha)} for i in st.interpretacoes]
                for sid, st in self.interpretacoes()
            },
            "casos": [c.to_dict() for c in self.casos],
        }


def _flat(text: str) -> str:
    return " ".join(text.split())


def check_case(autos: Autos, file: Path) -> CaseCheck:
    """Load and validate one case; a case that cannot be read is kept, with its error."""
    try:
        loaded = autos.load(file)
    except AutosError as exc:
        if is_processo_file(file):  # a processo file: its timeline and each act's document, as autos validar
            report = autos.validate(file)
            lei = report.statute.id if report.statute else _declared(file)[0]
            return CaseCheck(report, lei, "processo", getattr(report, "processo", None))
        lei, documento = _declared(file)
        return CaseCheck(Report(file=file, statute=None, findings=[], error=exc), lei, documento, None)
    case = loaded.case
    try:
        report = autos.check(loaded)
    except AutosError as exc:  # unknown law or document kind
        report = Report(file=loaded.file, statute=None, findings=[], error=exc)
    return CaseCheck(report, case.lei, case.documento, case.numero)


def _declared(file: Path) -> tuple[str | None, str | None]:
    """Law and kind an unreadable case declares, when its YAML parses (to count it under its law)."""
    try:
        data = load_yaml(file).data
    except AutosError:
        return None, None
    if not isinstance(data, dict) or not isinstance(data.get("lei"), str):
        return None, None
    documento = data.get("documento", "auto_de_infracao")
    return data["lei"], documento if isinstance(documento, str) else None


def verify(autos: Autos, paths: list[Path], *, now: datetime | None = None) -> Verification:
    """Check every case file given or found below the given folders (``*.yaml``/``*.yml``, sorted)."""
    casos = [check_case(autos, p) for p in expand_case_paths(paths)]
    leis = {c.lei: autos.rules.statutes[c.lei] for c in casos if c.lei in autos.rules.statutes}
    return Verification(pastas=list(paths), casos=casos, leis=leis, data_referencia=autos.today,
                        gerado_em=now or datetime.now())


# --- text ------------------------------------------------------------------------------------------
def _tally_text(t: Tally) -> str:
    parts = [f"{t.casos} caso(s)", f"{t.sem_erro} sem erro", f"{t.com_erro} com erro"]
    if t.ilegiveis:
        parts.append(f"{t.ilegiveis} ilegível(is)")
    return ", ".join(parts) + f"; {t.achados_erro} achado(s) de erro, {t.achados_aviso} aviso(s)"


def verification_text(v: Verification) -> str:
    """The report for people: summary by law, kind and code; then each case; then the choices."""
    t = v.totais
    out = [f"Verificação de completude — {', '.join(str(p) for p in v.pastas)} "
           f"(data de referência {v.data_referencia.strftime('%d/%m/%Y')})"]
    if not v.casos:
        out.append("Nenhum caso (*.yaml, *.yml) encontrado: nada foi verificado.")
        return "\n".join(out)
    out.append(f"{t['casos']} caso(s): {t['sem_erro']} sem erro, {t['com_erro']} com erro, "
               f"{t['ilegiveis']} ilegível(is).")
    out.append("\nPor lei:")
    out.extend(f"  {v.rotulo_lei(k)}: {_tally_text(g)}" for k, g in v.por_lei())
    out.append("\nPor tipo de documento:")
    out.extend(f"  {v.titulo_documento(k)}{f' ({k})' if k else ''}: {_tally_text(g)}"
               for k, g in v.por_documento())
    codes = v.por_codigo()
    if codes:
        out.append("\nPor código de achado:")
        width = max(len(c.codigo) for c in codes)
        for code in codes:
            cites = f" — {'; '.join(code.citacoes)}" if code.citacoes else ""
            out.append(f"  {code.severidade:<5} {code.codigo:<{width}}  {code.achados} achado(s) em {code.casos} "
                       f"caso(s){cites}")
    out.append("\nCasos:")
    for c in v.casos:
        r = c.report
        if r.error is not None:
            out.append(f"✗ {r.file}: ILEGÍVEL — não foi possível ler o caso.\n    {r.error}")
            continue
        numero = f" nº {c.numero}" if c.numero else ""
        mark = "✓" if r.ok else "✗"
        out.append(f"{mark} {r.file} — {v.titulo_documento(c.documento)}{numero}, {v.rotulo_lei(c.lei)}: "
                   f"{len(r.errors)} erro(s), {len(r.warnings)} aviso(s)")
        out.extend("    " + f.render().replace("\n", "\n    ") for f in r.findings)
    for _sid, st in v.interpretacoes():
        out.append(f"\nEscolhas interpretativas das regras da {st.lei.label} ({st.lei.municipio}/{st.lei.uf}):")
        out.extend(f"  - {st.cite(i.citacao)}: {_flat(i.escolha)}" for i in st.interpretacoes)
    verdict = {0: "COMPLETO: nenhum caso com erro.",
               1: "INCOMPLETO: há casos com erro.",
               2: "INCOMPLETO: há casos ilegíveis (não puderam ser verificados)."}[v.exit_code()]
    out.append(f"\n{verdict} {t['casos']} caso(s) verificado(s); {t['com_erro']} com erro; "
               f"{t['ilegiveis']} ilegível(is).")
    return "\n".join(out)


# --- HTML ------------------------------------------------------------------------------------------
def _html_context(v: Verification) -> dict[str, Any]:
    casos = []
    for c in v.casos:
        r = c.report
        casos.append({
            "arquivo": str(r.file),
            "situacao": c.status,
            "documento": v.titulo_documento(c.documento) if c.documento else "",
            "numero": c.numero or "",
            "lei": v.rotulo_lei(c.lei) if c.lei else "",
            "erros": len(r.errors),
            "avisos": len(r.warnings),
            "erro_de_leitura": str(r.error) if r.error is not None else "",
            "achados": [f.to_dict() for f in r.findings],
        })
    return {
        "pastas": [str(p) for p in v.pastas],
        "data_referencia": v.data_referencia.strftime("%d/%m/%Y"),
        "gerado_em": v.gerado_em.strftime("%d/%m/%Y %H:%M"),
        "codigo_de_saida": v.exit_code(),
        "totais": v.totais,
        "por_lei": [{"rotulo": v.rotulo_lei(k), **t.to_dict()} for k, t in v.por_lei()],
        "por_documento": [{"rotulo": v.titulo_documento(k), "id": k or "", **t.to_dict()}
                          for k, t in v.por_documento()],
        "por_codigo": [t.to_dict() for t in v.por_codigo()],
        "interpretacoes": [
            {"lei": v.rotulo_lei(sid),
             "escolhas": [{"id": i.id, "citacao": st.cite(i.citacao), "problema": _flat(i.problema),
                           "escolha": _flat(i.escolha)} for i in st.interpretacoes]}
            for sid, st in v.interpretacoes()
        ],
        "casos": casos,
    }


def verification_html(v: Verification, templates_dir: Path) -> str:
    """One self-contained HTML page (inline CSS, no scripts, nothing fetched); every value escaped."""
    from .render_pdf import strict_html_env
    from .sandbox import template_error

    folder = templates_dir / "html"
    env = strict_html_env(folder)
    try:
        return env.get_template(HTML_TEMPLATE).render(_html_context(v))
    except jinja2.TemplateNotFound as exc:
        if exc.name != HTML_TEMPLATE:
            raise template_error(exc, folder / HTML_TEMPLATE) from None
        raise RenderError(f"modelo '{HTML_TEMPLATE}' não encontrado.", file=folder / HTML_TEMPLATE,
                          hint="indique a pasta de modelos com --modelos (ou --templates).") from None
    except Exception as exc:  # a template is untrusted (--modelos): whatever it raises is its error, exit 2
        raise template_error(exc, folder / HTML_TEMPLATE) from None


def write_verification_html(v: Verification, target: Path, templates_dir: Path) -> None:
    """Render the HTML report and write it atomically (all or nothing)."""
    write_atomic(target, verification_html(v, templates_dir).encode("utf-8"))

