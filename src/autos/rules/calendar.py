"""Business-day calendars, one per municipality.

A calendar is read from ``rules/<municipio_dir>/calendario.yaml``. National and state holidays come
from the ``holidays`` package (Brazil, subdivision = UF); municipal holidays, days without office
hours (pontos facultativos, closures by decree) and which of the package's *optional* days the
municipality observes are data in the calendar file, each with the act that declares it, so a clerk
adds a closure by editing that file only.

Rules encoded here (documented again in every calendar file):

* Saturdays and Sundays are never business days.
* A day with only part of the office hours (``expediente: parcial`` — e.g. Ash Wednesday until 14h,
  Christmas Eve from 12h) is a business day or not according to the file's
  ``meio_expediente.conta_como_dia_util``. All shipped calendars say *não*: Lei federal
  nº 9.784/1999, art. 66, § 1º, extends a deadline whose end falls on a day whose office hours "for
  encerrado antes da hora normal", and treating every reduced day as a day without office hours never
  makes a deadline end earlier than the law allows.
* Asking about a date in a year the file does not list under ``anos`` is a :class:`RulesError` naming
  the missing year: a silently incomplete calendar would produce wrong deadlines.
"""


import importlib.util
import re
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from autos.base.schema import FIRST_YEAR, LAST_YEAR, Count, build_model
from autos.base.yamlio import PathKey, YamlDoc, load_yaml
from autos.errors import AutosError, RulesError, RulesFileError
from autos.rules.official import municipio_inputs, patched
from autos.rules.snapshot import kept

__all__ = [
    "PACKAGE_OPTIONAL_DAYS",
    "WEEKDAYS",
    "DayOff",
    "MunicipalCalendar",
    "format_date",
    "load_calendar",
    "load_rules_file",
    "parse_date",
]

#: Portuguese weekday names, Monday first (``date.weekday()`` order)
WEEKDAYS = ("segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado", "domingo")

#: names the ``holidays`` package gives (``language='pt_BR'``) to Brazil's optional days
PackageOptionalDay = Literal[
    "Carnaval",
    "Quarta-feira de Cinzas",
    "Corpus Christi",
    "Dia do Servidor Público",
    "Véspera de Natal",
    "Véspera de Ano-Novo",
]
PACKAGE_OPTIONAL_DAYS: tuple[str, ...] = get_args(PackageOptionalDay)

EXEMPLO_MARK = "(exemplo — conferir)"

_ISO_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_BR_RE = re.compile(r"^(\d{2})/(\d{2})/(\d{4})$")
_DAY_MONTH_RE = re.compile(r"^(\d{2})/(\d{2})$")


# --------------------------------------------------------------------------------------------------
# small helpers shared with deadlines.py


def format_date(d: date) -> str:
    """``date(2026, 12, 25)`` → ``25/12/2026``; a datetime also gets its time (``25/12/2026 14:30``)."""
    if isinstance(d, datetime):
        return d.strftime("%d/%m/%Y %H:%M")
    return d.strftime("%d/%m/%Y")


def parse_date(text: str) -> date | None:
    """Parse ``AAAA-MM-DD`` or ``DD/MM/AAAA``; ``None`` if the text is neither or not a real date."""
    m = _ISO_RE.match(text.strip())
    if m:
        y, mo, d = (int(g) for g in m.groups())
    else:
        m = _BR_RE.match(text.strip())
        if not m:
            return None
        d, mo, y = (int(g) for g in m.groups())
    try:
        return date(y, mo, d)
    except ValueError:
        return None


# --------------------------------------------------------------------------------------------------
# the file format


#: a calendar year (the ``holidays`` package and :class:`datetime.date` cover these)
Year = Annotated[Count, Field(ge=FIRST_YEAR, le=LAST_YEAR)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class _HalfDay(_Model):
    conta_como_dia_util: bool
    justificativa: str


class _PackageDay(_Model):
    """One of the ``holidays`` package's optional days that the municipality observes."""

    nome: PackageOptionalDay
    ato: str
    expediente: Literal["nenhum", "parcial"] = "nenhum"
    observacao: str | None = None
    anos: list[Year] | None = None
    exemplo: bool = False


class _MunicipalHoliday(_Model):
    nome: str
    ato: str
    anual: str | None = None  # "DD/MM", every covered year
    data: str | None = None
    datas: list[str] | None = None
    movel: str | None = None  # a movable day named as in the holidays package, e.g. "Corpus Christi"
    anos: list[Year] | None = None
    exemplo: bool = False

    @model_validator(mode="after")
    def _one_way(self) -> "_MunicipalHoliday":
        given = [k for k in ("anual", "data", "datas", "movel") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(
                f"o feriado '{self.nome}' deve ter exatamente um de: anual (DD/MM), data, datas ou movel "
                f"(encontrado: {', '.join(given) or 'nenhum'})."
            )
        if self.anos is not None and (self.data is not None or self.datas is not None):
            raise ValueError(f"o feriado '{self.nome}' usa 'anos' só com 'anual' ou 'movel'.")
        return self


class _Closure(_Model):
    nome: str
    ato: str
    data: str | None = None
    datas: list[str] | None = None
    de: str | None = None
    ate: str | None = None
    tipo: Literal["ponto_facultativo", "sem_expediente"] = "ponto_facultativo"
    expediente: Literal["nenhum", "parcial"] = "nenhum"
    observacao: str | None = None
    exemplo: bool = False

    @model_validator(mode="after")
    def _one_way(self) -> "_Closure":
        ways = [
            self.data is not None,
            self.datas is not None,
            self.de is not None or self.ate is not None,
        ]
        if sum(ways) != 1:
            raise ValueError(f"'{self.nome}' deve ter exatamente um de: data, datas ou de/ate.")
        if (self.de is None) != (self.ate is None):
            raise ValueError(f"'{self.nome}': informe 'de' e 'ate' juntos.")
        return self


class _Open(_Model):
    data: str
    motivo: str
    ato: str
    exemplo: bool = False


class _CalendarFile(_Model):
    municipio: str
    uf: str
    ibge: str
    anos: list[Year]
    meio_expediente: _HalfDay
    pontos_facultativos_nacionais: list[_PackageDay] = []
    feriados_municipais: list[_MunicipalHoliday] = []
    sem_expediente: list[_Closure] = []
    com_expediente: list[_Open] = []
    observacoes: str | None = None


# --------------------------------------------------------------------------------------------------
# the calendar


DayOffKind = Literal["nacional", "estadual", "municipal", "facultativo", "sem_expediente"]


@dataclass(frozen=True)
class DayOff:
    """Why a day is (or, for a half day counted as business day, is partly) without office hours."""

    date: date
    kind: DayOffKind
    name: str
    text: str  # Portuguese, e.g. "Natal, feriado nacional"
    partial: bool = False
    exemplo: bool = False


@dataclass
class MunicipalCalendar:
    """Business days of one municipality for the years listed in its calendar file."""

    municipio: str
    uf: str
    ibge: str
    municipio_dir: str
    file: Path
    anos: frozenset[int]
    half_day_is_business_day: bool
    half_day_justification: str
    _days_off: dict[date, list[DayOff]] = field(default_factory=dict, repr=False)
    _anos_line: int | None = field(default=None, repr=False)

    # ---- queries -----------------------------------------------------------------------------

    def check_year(self, d: date) -> None:
        """Raise :class:`RulesError` when ``d``'s year is not covered by the calendar file."""
        if d.year not in self.anos:
            covered = ", ".join(str(y) for y in sorted(self.anos))
            raise RulesError(
                f"o calendário de {self.municipio} ({self.uf}) não cobre o ano de {d.year} "
                f"(data consultada: {format_date(d)}; anos cobertos: {covered}).",
                file=self.file,
                path="anos",
                line=self._anos_line,
                hint=(
                    f"acrescente {d.year} à lista 'anos' do arquivo e cadastre os feriados municipais e "
                    f"pontos facultativos de {d.year} (decreto anual de pontos facultativos)."
                ),
            )

    def days_off(self, d: date) -> list[DayOff]:
        """Every holiday / closure entry for ``d`` (weekends excluded), most important first."""
        d = _as_date(d)
        self.check_year(d)
        return list(self._days_off.get(d, []))

    def is_business_day(self, d: date) -> bool:
        """True when the municipal offices have (full) office hours on ``d``."""
        d = _as_date(d)
        self.check_year(d)
        if d.weekday() >= 5:
            return False
        return all(off.partial and self.half_day_is_business_day for off in self._days_off.get(d, []))

    def reason(self, d: date) -> str | None:
        """Why ``d`` is not a business day (Portuguese), or ``None`` if it is one."""
        d = _as_date(d)
        if self.is_business_day(d):
            return None
        texts = [off.text for off in self._days_off.get(d, [])]
        weekday = WEEKDAYS[d.weekday()] if d.weekday() >= 5 else None
        if not texts:
            assert weekday is not None
            return weekday
        joined = "; ".join(texts)
        return f"{joined} ({weekday})" if weekday else joined

    def next_business_day(self, d: date) -> date:
        """First business day strictly after ``d``."""
        d = _as_date(d) + timedelta(days=1)
        while not self.is_business_day(d):
            d += timedelta(days=1)
        return d

    def non_business_days(self, start: date, end: date) -> list[tuple[date, str]]:
        """``(date, reason)`` for every day in ``[start, end]`` that is not a business day."""
        out: list[tuple[date, str]] = []
        d = _as_date(start)
        while d <= end:
            why = self.reason(d)
            if why is not None:
                out.append((d, why))
            d += timedelta(days=1)
        return out

    def describe(self) -> str:
        return f"{self.municipio} ({self.uf}), IBGE {self.ibge}"


def _as_date(d: date) -> date:
    return d.date() if isinstance(d, datetime) else d


# --------------------------------------------------------------------------------------------------
# loading

_ORDER: dict[str, int] = {"nacional": 0, "estadual": 1, "municipal": 2, "facultativo": 3, "sem_expediente": 4}


def _act(text: str, exemplo: bool) -> str:
    """The act text in parentheses, followed by ``(exemplo — conferir)`` for unconfirmed entries."""
    core = " ".join(text.replace(EXEMPLO_MARK, "").split())
    return f"({core}) {EXEMPLO_MARK}" if exemplo else f"({core})"


def load_calendar(rules_dir: Path, municipio_dir: str) -> MunicipalCalendar:
    """Read ``rules_dir/<municipio_dir>/calendario.yaml`` (strict: unknown keys, bad dates, dates
    outside ``anos`` and contradictions are :class:`RulesError` with file, path and line)."""
    file = Path(rules_dir) / municipio_dir / "calendario.yaml"
    return load_rules_file(file, lambda: _load_calendar(file, municipio_dir))


def _load_calendar(file: Path, municipio_dir: str) -> MunicipalCalendar:
    doc = patched(load_yaml(file, RulesError), "calendario")
    model = build_model(_CalendarFile, doc, RulesError)
    return _Builder(doc, model, municipio_dir).build()


T = TypeVar("T")

_FAILED: dict[tuple[str, int, int], RulesFileError] = {}


def load_rules_file(file: Path, load: Callable[[], T]) -> T:
    """``load()`` a calendar or deadline-rules file; any :class:`RulesError` becomes a
    :class:`RulesFileError` (the run stops: it is not a finding of a case), remembered while the file is
    unchanged so that a hostile file (an alias bomb) is parsed once, not once per case."""
    try:
        st = file.stat()
        key: tuple[str, int, int] | None = (str(file.resolve()), st.st_mtime_ns, st.st_size)
    except OSError:
        key = None
    if key is not None and key in _FAILED:
        raise _FAILED[key]
    try:
        return kept(file.name, municipio_inputs(file.parent), load, salt=str(file))
    except RulesFileError:
        raise
    except RulesError as exc:
        err = RulesFileError(exc.message, file=exc.file, path=exc.path, line=exc.line, hint=exc.hint)
        if key is not None:
            _FAILED[key] = err
        raise err from None


_BRAZIL: list[Callable[..., Any]] = []
_BRAZIL_LOCK = threading.Lock()


def package_brazil() -> Callable[..., Any]:
    """The ``holidays`` package's Brazil calendar (the class ``holidays.country_holidays("BR", ...)`` builds), its
    module loaded alone when the package's country list is not loaded yet. ``country_holidays`` imports
    ``holidays.countries``, whose ``__init__`` imports the module of every country the package knows (about 250):
    ~0.05 s of CPU in every command that counts a deadline, for one country (bench/bench_startup.py). The module
    ``holidays/countries/brazil.py`` imports only the package's common parts; should a release of the package move
    or change it, the official path is used (tests/test_calendar.py checks that both give the same days)."""
    with _BRAZIL_LOCK:
        if not _BRAZIL:
            _BRAZIL.append(_load_brazil())
        return _BRAZIL[0]


def _load_brazil() -> Callable[..., Any]:
    import holidays

    if "holidays.countries" not in sys.modules:
        alone = brazil_module_alone()
        if alone is not None:
            return alone

    def official(**kwargs: Any) -> Any:
        return holidays.country_holidays("BR", **kwargs)

    return official


def brazil_module_alone() -> type | None:
    """The class ``Brazil`` of ``holidays/countries/brazil.py``, executed as a module of its own (not entered in
    ``sys.modules``); ``None`` if the package has no such file or it does not give that class."""
    import holidays

    path = Path(holidays.__file__).with_name("countries") / "brazil.py"
    spec = importlib.util.spec_from_file_location("holidays.countries.brazil", path)
    if spec is None or spec.loader is None or not path.is_file():
        return None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception:  # another layout of the package: its own way
        return None
    brazil = getattr(module, "Brazil", None)
    return brazil if isinstance(brazil, type) and issubclass(brazil, holidays.HolidayBase) else None


class _Builder:
    def __init__(self, doc: YamlDoc, model: _CalendarFile, municipio_dir: str) -> None:
        self.doc = doc
        self.m = model
        self.municipio_dir = municipio_dir
        self.days: dict[date, list[DayOff]] = {}
        self.years: frozenset[int] = frozenset()

    def err(self, path: PathKey, message: str, hint: str | None = None) -> AutosError:
        return self.doc.error(RulesError, path, message, hint)

    def date_at(self, text: str, path: PathKey) -> date:
        d = parse_date(text)
        if d is None:
            raise self.err(path, f"data inválida '{text}'.", "escreva a data como DD/MM/AAAA (ex.: 24/12/2026).")
        if d.year not in self.years:
            raise self.err(
                path,
                f"a data {format_date(d)} está fora dos anos cobertos pelo calendário "
                f"({', '.join(str(y) for y in sorted(self.years))}).",
                f"confira o ano da data ou acrescente {d.year} à lista 'anos'.",
            )
        return d

    def years_of(self, anos: list[int] | None, path: PathKey) -> list[int]:
        if anos is None:
            return sorted(self.years)
        for i, y in enumerate(anos):
            if y not in self.years:
                raise self.err((*path, "anos", i), f"o ano {y} não está na lista 'anos' do calendário.")
        return sorted(set(anos))

    def add(self, off: DayOff) -> None:
        self.days.setdefault(off.date, []).append(off)

    def build(self) -> MunicipalCalendar:
        m = self.m
        self._check_header()
        self.years = frozenset(m.anos)
        national, state, optional = self._package_days()

        for d, names in national.items():
            for name in names:
                self.add(DayOff(d, "nacional", name, f"{name}, feriado nacional"))
        for d, names in state.items():
            for name in names:
                self.add(DayOff(d, "estadual", name, f"{name}, feriado estadual ({m.uf})"))

        for i, ph in enumerate(m.feriados_municipais):
            path: PathKey = ("feriados_municipais", i)
            text = f"{ph.nome.strip()}, feriado municipal {_act(ph.ato, ph.exemplo)}"
            for d in self._holiday_dates(ph, path, national, optional):
                self.add(DayOff(d, "municipal", ph.nome, text, exemplo=ph.exemplo))

        package_days: dict[date, DayOff] = {}
        seen_names: dict[tuple[str, int], PathKey] = {}
        for i, pd in enumerate(m.pontos_facultativos_nacionais):
            path = ("pontos_facultativos_nacionais", i)
            partial = pd.expediente == "parcial"
            text = self._closure_text(pd.nome, "ponto_facultativo", partial, pd.observacao, pd.ato, pd.exemplo)
            for y in self.years_of(pd.anos, path):
                if (pd.nome, y) in seen_names:
                    raise self.err(
                        (*path, "nome"),
                        f"'{pd.nome}' de {y} aparece duas vezes (a outra na linha "
                        f"{self.doc.line_of(seen_names[(pd.nome, y)])}).",
                        "deixe um item só por ano; use 'anos' para separar os anos.",
                    )
                seen_names[(pd.nome, y)] = path
                dates = [d for d, names in optional.items() if d.year == y and pd.nome in names]
                if not dates:
                    raise self.err(
                        (*path, "nome"),
                        f"o pacote holidays não traz '{pd.nome}' em {y}.",
                        "confira o nome (exatamente como no pacote) ou cadastre a data em 'sem_expediente'.",
                    )
                for d in dates:
                    off = DayOff(d, "facultativo", pd.nome, text, partial=partial, exemplo=pd.exemplo)
                    package_days[d] = off
                    self.add(off)

        closure_lines: dict[date, PathKey] = {}
        for i, cl in enumerate(m.sem_expediente):
            path = ("sem_expediente", i)
            partial = cl.expediente == "parcial"
            text = self._closure_text(cl.nome, cl.tipo, partial, cl.observacao, cl.ato, cl.exemplo)
            for d, dpath in self._closure_dates(cl, path):
                if d in closure_lines:
                    prev = self.doc.line_of(closure_lines[d])
                    raise self.err(
                        dpath,
                        f"{format_date(d)} já está em 'sem_expediente' (linha {prev}).",
                        "deixe a data num item só.",
                    )
                closure_lines[d] = dpath
                kind: DayOffKind = "facultativo" if cl.tipo == "ponto_facultativo" else "sem_expediente"
                self.add(DayOff(d, kind, cl.nome, text, partial=partial, exemplo=cl.exemplo))

        for i, op in enumerate(m.com_expediente):
            path = ("com_expediente", i)
            d = self.date_at(op.data, (*path, "data"))
            if d.weekday() >= 5:
                raise self.err(
                    (*path, "data"),
                    f"{format_date(d)} é {WEEKDAYS[d.weekday()]}: não pode ter "
                    "expediente normal para fins de contagem de prazos.",
                )
            if d in closure_lines:
                raise self.err(
                    (*path, "data"),
                    f"{format_date(d)} está ao mesmo tempo em 'sem_expediente' (linha "
                    f"{self.doc.line_of(closure_lines[d])}) e em 'com_expediente'.",
                    "deixe a data só numa das listas.",
                )
            if d not in package_days:
                others = [o.text for o in self.days.get(d, [])]
                what = f" ({'; '.join(others)})" if others else ""
                raise self.err(
                    (*path, "data"),
                    f"{format_date(d)} não é ponto facultativo do pacote observado pelo município{what}: "
                    "'com_expediente' só cancela um ponto facultativo listado em 'pontos_facultativos_nacionais'.",
                    "remova o item, ou retire o ano correspondente em 'pontos_facultativos_nacionais'.",
                )
            self.days[d] = [o for o in self.days[d] if o is not package_days[d]]
            if not self.days[d]:
                del self.days[d]

        for offs in self.days.values():
            offs.sort(key=lambda o: _ORDER[o.kind])

        return MunicipalCalendar(
            municipio=m.municipio.strip(),
            uf=m.uf,
            ibge=m.ibge,
            municipio_dir=self.municipio_dir,
            file=self.doc.file,
            anos=self.years,
            half_day_is_business_day=m.meio_expediente.conta_como_dia_util,
            half_day_justification=m.meio_expediente.justificativa.strip(),
            _days_off=self.days,
            _anos_line=self.doc.line_of(("anos",)),
        )

    # ---- pieces ------------------------------------------------------------------------------

    def _check_header(self) -> None:
        m = self.m
        if not re.fullmatch(r"[A-Z]{2}", m.uf):
            raise self.err(("uf",), f"UF inválida '{m.uf}'.", "use a sigla do estado em maiúsculas (ex.: MG).")
        suffix = self.municipio_dir.rsplit("-", 1)[-1].upper()
        if suffix != m.uf:
            raise self.err(
                ("uf",),
                f"a UF '{m.uf}' não confere com a pasta '{self.municipio_dir}' (que termina em '-{suffix.lower()}').",
                "confira se o arquivo está na pasta do município certo.",
            )
        if not re.fullmatch(r"\d{7}", m.ibge):
            raise self.err(("ibge",), f"código IBGE inválido '{m.ibge}'.", "use os 7 dígitos do código IBGE.")
        if not m.anos:
            raise self.err(("anos",), "a lista 'anos' está vazia.", "liste os anos cobertos (ex.: [2025, 2026]).")
        seen: set[int] = set()
        for i, y in enumerate(m.anos):
            if y in seen:
                raise self.err(("anos", i), f"o ano {y} aparece duas vezes em 'anos'.")
            if not 1990 <= y <= 2100:
                raise self.err(("anos", i), f"ano fora do intervalo aceito: {y}.")
            seen.add(y)

    def _package_days(
        self,
    ) -> tuple[dict[date, list[str]], dict[date, list[str]], dict[date, list[str]]]:
        years = sorted(self.m.anos)
        brazil = package_brazil()
        try:
            nat = brazil(years=years, categories=("public",), language="pt_BR")
            sub = brazil(subdiv=self.m.uf, years=years, categories=("public",), language="pt_BR")
            opt = brazil(subdiv=self.m.uf, years=years, categories=("optional",), language="pt_BR")
        except NotImplementedError:
            raise self.err(("uf",), f"o pacote holidays não conhece a UF '{self.m.uf}'.",
                           "use a sigla de uma UF do Brasil, em maiúsculas (MG, SP, MT…).") from None
        national = {d: list(nat.get_list(d)) for d in nat}
        state: dict[date, list[str]] = {}
        for d in sub:
            extra = [n for n in sub.get_list(d) if n not in national.get(d, [])]
            if extra:
                state[d] = extra
        optional = {d: list(opt.get_list(d)) for d in opt}
        return national, state, optional

    def _holiday_dates(
        self,
        ph: _MunicipalHoliday,
        path: PathKey,
        national: Mapping[date, list[str]],
        optional: Mapping[date, list[str]],
    ) -> Iterable[date]:
        if ph.data is not None:
            return [self.date_at(ph.data, (*path, "data"))]
        if ph.datas is not None:
            return [self.date_at(t, (*path, "datas", j)) for j, t in enumerate(ph.datas)]
        years = self.years_of(ph.anos, path)
        if ph.anual is not None:
            mm = _DAY_MONTH_RE.match(ph.anual.strip())
            out: list[date] = []
            for y in years:
                try:
                    if not mm:
                        raise ValueError
                    out.append(date(y, int(mm.group(2)), int(mm.group(1))))
                except ValueError:
                    raise self.err(
                        (*path, "anual"), f"dia/mês inválido '{ph.anual}'.", "use DD/MM (ex.: 29/04)."
                    ) from None
            return out
        assert ph.movel is not None
        out = []
        for y in years:
            found = [
                d for table in (national, optional) for d, names in table.items() if d.year == y and ph.movel in names
            ]
            if not found:
                raise self.err(
                    (*path, "movel"),
                    f"o pacote holidays não traz '{ph.movel}' em {y}.",
                    f"use o nome exatamente como no pacote (ex.: {', '.join(PACKAGE_OPTIONAL_DAYS)}) "
                    "ou cadastre as datas em 'datas'.",
                )
            out.extend(found)
        return out

    def _closure_dates(self, cl: _Closure, path: PathKey) -> list[tuple[date, PathKey]]:
        if cl.data is not None:
            return [(self.date_at(cl.data, (*path, "data")), (*path, "data"))]
        if cl.datas is not None:
            return [(self.date_at(t, (*path, "datas", j)), (*path, "datas", j)) for j, t in enumerate(cl.datas)]
        assert cl.de is not None and cl.ate is not None
        start = self.date_at(cl.de, (*path, "de"))
        end = self.date_at(cl.ate, (*path, "ate"))
        if end < start:
            raise self.err((*path, "ate"), f"'ate' ({format_date(end)}) é anterior a 'de' ({format_date(start)}).")
        if (end - start).days > 60:
            raise self.err((*path, "ate"), "período sem expediente maior que 60 dias: confira as datas.")
        out: list[tuple[date, PathKey]] = []
        d = start
        while d <= end:
            out.append((d, (*path, "de")))
            d += timedelta(days=1)
        return out

    def _closure_text(
        self, nome: str, tipo: str, partial: bool, observacao: str | None, ato: str, exemplo: bool
    ) -> str:
        label = "ponto facultativo" if tipo == "ponto_facultativo" else "sem expediente"
        text = f"{nome.strip()}, {label}"
        if partial:
            obs = f": {observacao.strip()}" if observacao else ""
            counted = (
                "contado como dia útil"
                if self.m.meio_expediente.conta_como_dia_util
                else "tratado como dia sem expediente"
            )
            text += f" — meio expediente{obs}, {counted}"
        return f"{text} {_act(ato, exemplo)}"
