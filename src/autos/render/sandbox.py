"""The Jinja sandbox both renderers use: strict, autoescaping, confined to its folder and bounded.

A template is a file a Municipality may write (``--modelos``), so it is treated as untrusted:

- Jinja's sandbox refuses unsafe attributes (``__class__``, ``__mro__``…) and ranges over 100,000 items;
- :class:`FolderLoader` reads templates only from inside their folder, with symlinks resolved first
  (``realpath``), so neither ``{% include %}`` nor a template that is a symlink reaches another file;
- :class:`BoundedEnvironment` bounds what one render may build and do: one value (string, list…) of at
  most :data:`MAX_VALUE` items, an integer of at most :data:`MAX_INT_BITS` bits, at most :data:`MAX_STEPS`
  loop iterations + calls + filters, and :data:`MAX_OUTPUT` characters written. ``'a' * 10**9``,
  ``10**10**10``, ``'x'|center(10**9)`` or nested loops of a billion turns stop with :class:`LimitError`
  instead of exhausting memory or hanging (sizes are checked before the operations that multiply them).

:func:`template_error` turns whatever a template raised into a :class:`~autos.errors.RenderError` naming
the template file and, when known, the line.
"""

from __future__ import annotations

import contextvars
import copy
import functools
import math
import os
import re
import threading
from collections.abc import Callable, Iterator, Sized
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.exceptions import SecurityError
from jinja2.loaders import split_template_path
from jinja2.runtime import Macro
from jinja2.sandbox import SandboxedEnvironment

from autos.errors import RenderError

#: items (characters, list elements…) of one value a template builds
MAX_VALUE = 2_000_000
#: bits of an integer a template computes (about 20,000 decimal digits)
MAX_INT_BITS = 65_536
#: steps of one render: a loop iteration or a filter is 1 step, a function call 2, a macro call 20 (a macro
#: call costs about 20 times a loop iteration). Reached in about a second; the shipped templates take
#: about 10 steps per notified case in a consolidated edital and under 1,000 for any other document.
MAX_STEPS = 2_000_000
#: steps charged for a call of a function / of a template macro
_CALL_STEPS = 2
_MACRO_STEPS = 20
#: characters one render writes
MAX_OUTPUT = 20_000_000
#: bytes of one HTML template file
MAX_TEMPLATE_BYTES = 2_000_000


class LimitError(SecurityError):
    """A template went past one of the bounds of :class:`BoundedEnvironment` (message in Portuguese)."""


class TemplateOutsideError(SecurityError):
    """A template (or a file it includes) resolves outside its templates folder."""


class IncludeRefusedError(SecurityError):
    """A DOCX template tried ``{% include %}``, ``{% import %}`` or ``{% extends %}``."""


class _Budget:
    __slots__ = ("steps",)

    def __init__(self) -> None:
        self.steps = MAX_STEPS


_BUDGET: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar("autos_template_budget", default=None)


def _step(cost: int = 1) -> None:
    budget = _BUDGET.get()
    if budget is not None:
        budget.steps -= cost
        if budget.steps < 0:
            raise LimitError(f"o modelo passou de {MAX_STEPS:,} repetições e chamadas num só documento "
                             "(laço ou macro sem fim?).".replace(",", "."))


def _too_big(what: str, size: float) -> LimitError:
    return LimitError(f"o modelo tentou criar {what} de {size:,.0f} itens; o limite é {MAX_VALUE:,}.".replace(",", "."))


def _checked(value: Any) -> Any:
    """``value`` if it is within the bounds (a result the template just built)."""
    if isinstance(value, (str, bytes, list, tuple, dict, set, frozenset)):
        if len(value) > MAX_VALUE:
            raise _too_big("um valor", len(value))
    elif isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_INT_BITS:
        raise LimitError(f"o modelo calculou um número de mais de {MAX_INT_BITS:,} bits.".replace(",", "."))
    return value


def _length(value: Any) -> int:
    return len(value) if isinstance(value, Sized) else 0


def _int_over(value: Any, limit: int = MAX_VALUE) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > limit


_PRINTF_SPEC = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")
_FORMAT_WIDTH = re.compile(r"\{[^{}]*:[^{}]*?(\d{7,})[^{}]*\}|\{[^{}]*:[^{}]*\{")


def _check_printf(fmt: str, args: Any) -> None:
    """``fmt % args``: no width or precision over the bound (``'%1000000000s'``, ``'%*s' % (10**9, 'a')``)."""
    star = False
    for width, precision in _PRINTF_SPEC.findall(fmt):
        for n in (width, precision):
            if n == "*":
                star = True
            elif n and int(n) > MAX_VALUE:
                raise _too_big("um texto formatado", int(n))
    if star:
        values = args if isinstance(args, tuple) else (args,)
        if any(_int_over(v) for v in values):
            raise _too_big("um texto formatado", max(v for v in values if _int_over(v)))


def _check_format(fmt: str) -> None:
    """``fmt.format(...)``: no width of 7+ digits and no width taken from an argument (``{:{w}}``)."""
    if _FORMAT_WIDTH.search(fmt):
        raise LimitError("o modelo usou uma largura de formatação grande demais ou vinda de um valor.")


def _check_growth(old: Any, new: Any, text: Any) -> None:
    """``text.replace(old, new)`` would stay within the bound."""
    if isinstance(text, str) and isinstance(old, str) and isinstance(new, str):
        count = text.count(old) if old else len(text) + 1
        if len(text) + count * max(len(new) - len(old), 0) > MAX_VALUE:
            raise _too_big("um texto", len(text) + count * (len(new) - len(old)))


def _check_join(sep: Any, items: Any) -> None:
    if isinstance(sep, str) and isinstance(items, Sized) and len(sep) * len(items) > MAX_VALUE:
        raise _too_big("um texto", len(sep) * len(items))


#: str methods whose first argument is the width of the result
_WIDTH_METHODS = frozenset({"center", "ljust", "rjust", "zfill", "expandtabs"})


def _check_method(obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Pre-checks of the str methods that can multiply the size of a string in one call."""
    target = getattr(obj, "__wrapped__", obj)  # the sandbox wraps str.format / format_map
    owner = getattr(target, "__self__", None)
    if not isinstance(owner, str):
        return
    name = getattr(target, "__name__", "")
    if name in _WIDTH_METHODS:
        width = args[0] if args else kwargs.get("width", kwargs.get("tabsize", 0))
        if isinstance(width, int) and name == "expandtabs":
            width *= max(owner.count("\t"), 1)
        if _int_over(width):
            raise _too_big("um texto", width)
    elif name in ("format", "format_map"):
        _check_format(owner)
    elif name == "replace" and len(args) >= 2:
        _check_growth(args[0], args[1], owner)
    elif name == "join" and args:
        _check_join(owner, args[0])


def _filter_prechecks(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Pre-checks of the built-in filters that can multiply the size of their input in one call."""
    value = args[0] if args else None
    rest = args[1:]
    if name in ("center", "indent", "wordwrap", "batch", "slice", "tojson"):
        for n in (*rest, *kwargs.values()):
            if name != "wordwrap" and _int_over(n, 10_000):
                raise _too_big(f"um resultado do filtro '{name}'", n)
            if isinstance(n, str) and name in ("indent", "wordwrap") and len(n) * max(_length(value), 1) > MAX_VALUE:
                raise _too_big(f"um resultado do filtro '{name}'", len(n) * _length(value))
    elif name == "format" and isinstance(value, str):
        _check_printf(value, rest if len(rest) != 1 else rest[0])
    elif name == "replace" and len(rest) >= 2:
        _check_growth(rest[0], rest[1], str(value))
    elif name == "join":
        sep = rest[0] if rest else kwargs.get("d", "")
        _check_join(sep, value)


def _bounded_filter(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
    pass_arg = getattr(func, "jinja_pass_arg", None)

    @functools.wraps(func)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        _step()
        _filter_prechecks(name, args[1:] if pass_arg is not None else args, kwargs)
        return _checked(func(*args, **kwargs))

    return bounded


class _BoundedCodeGenerator(CodeGenerator):
    """Counts each loop iteration and checks the size of each ``~`` concatenation."""

    def visit_For(self, node: nodes.For, frame: Frame) -> None:
        node = copy.copy(node)
        tick = nodes.ExprStmt(nodes.EnvironmentAttribute("autos_step"))  # not writable in a template
        tick.set_lineno(node.lineno)
        node.body = [tick, *node.body]
        super().visit_For(node, frame)

    def visit_ExprStmt(self, node: nodes.ExprStmt, frame: Frame) -> None:
        if isinstance(node.node, nodes.EnvironmentAttribute) and node.node.name == "autos_step":
            self.writeline("environment.autos_step()", node)  # a direct call: no sandbox round trip per turn
        else:
            super().visit_ExprStmt(node, frame)

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.autos_checked(")
        super().visit_Concat(node, frame)
        self.write(")")


class BoundedTemplate(jinja2.Template):
    """A template whose :meth:`render` runs with a fresh step budget and a bounded output."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        token = _BUDGET.set(_Budget())
        try:
            ctx = self.new_context(dict(*args, **kwargs))
            out: list[str] = []
            size = 0
            try:
                for chunk in self.root_render_func(ctx):
                    size += len(chunk)
                    if size > MAX_OUTPUT:
                        raise LimitError(f"o modelo escreveu mais de {MAX_OUTPUT:,} caracteres.".replace(",", "."))
                    out.append(chunk)
            except Exception:
                self.environment.handle_exception()
            return self.environment.concat(out)
        finally:
            _BUDGET.reset(token)


class BoundedEnvironment(SandboxedEnvironment):
    """Sandboxed, strict (undefined values are errors), autoescaping and bounded (see the module doc)."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})
    code_generator_class = _BoundedCodeGenerator
    template_class = BoundedTemplate

    autos_step = staticmethod(_step)
    autos_checked = staticmethod(_checked)

    def __init__(self, **options: Any) -> None:
        options.setdefault("undefined", jinja2.StrictUndefined)
        options.setdefault("autoescape", True)
        super().__init__(**options)
        self.filters = {name: _bounded_filter(name, func) for name, func in self.filters.items()}

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "**":
            if isinstance(left, int) and isinstance(right, int) and right > 0 and abs(left) > 1 \
                    and right * math.log2(abs(left)) > MAX_INT_BITS:
                raise LimitError(f"o modelo tentou calcular uma potência de mais de {MAX_INT_BITS:,} bits."
                                 .replace(",", "."))
        elif operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, bytes, list, tuple)) and isinstance(n, int) and len(seq) * n > MAX_VALUE:
                    raise _too_big("um valor", len(seq) * n)
        elif operator == "%" and isinstance(left, str):
            _check_printf(left, right)
        return _checked(super().call_binop(context, operator, left, right))

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        _step(_MACRO_STEPS if isinstance(__obj, Macro) else _CALL_STEPS)
        _check_method(__obj, args, kwargs)
        return _checked(super().call(__context, __obj, *args, **kwargs))


class FolderLoader(jinja2.BaseLoader):
    """Templates of one folder, read only when their real path (symlinks resolved) is inside it."""

    def __init__(self, folder: Path) -> None:
        self.root = os.path.realpath(folder)

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        pieces = split_template_path(template)  # refuses ".." and absolute names
        path = os.path.join(self.root, *pieces)
        real = os.path.realpath(path)
        if os.path.commonpath([real, self.root]) != self.root:
            raise TemplateOutsideError(f"o modelo '{template}' aponta para fora da pasta de modelos ({real}).")
        try:
            size = os.path.getsize(real)
            if size > MAX_TEMPLATE_BYTES:
                raise LimitError(f"o modelo '{template}' tem {size:,} bytes; o limite é "
                                 f"{MAX_TEMPLATE_BYTES:,}.".replace(",", "."))
            with open(real, "rb") as fh:
                source = fh.read().decode("utf-8")
            mtime = os.path.getmtime(real)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            raise jinja2.TemplateNotFound(template) from None
        except UnicodeDecodeError:
            raise LimitError(f"o modelo '{template}' não está em UTF-8.") from None

        def uptodate() -> bool:
            try:
                return os.path.realpath(path) == real and os.path.getmtime(real) == mtime
            except OSError:
                return False

        return source, path, uptodate


class NoIncludesLoader(jinja2.BaseLoader):
    """The loader of DOCX templates: a Word template is one file and includes nothing."""

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        raise IncludeRefusedError(f"um modelo DOCX não pode incluir outro arquivo ('{template}'): "
                                  "{% include %}, {% import %} e {% extends %} não são aceitos.")


def _template_frames(exc: BaseException) -> Iterator[tuple[str, int]]:
    """(file, line) of each template frame in ``exc``'s traceback, outermost first (Jinja rewrites the
    traceback so that template code shows with its file name and line)."""
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name in ("top-level template code", "template") or code.co_name.startswith("block "):
            yield code.co_filename, tb.tb_lineno
        tb = tb.tb_next


_KINDS = {"dict": "mapa", "list": "lista", "str": "texto", "int": "número inteiro", "NoneType": "valor vazio",
          "tuple": "lista", "Decimal": "número", "date": "data", "datetime": "data e hora"}
# Jinja's wording → Portuguese (the detail of a template error; the template author reads it)
_JINJA_PT: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"^'(.+)' is undefined$"), lambda m: f"'{m[1]}' não existe entre os dados do documento"),
    (re.compile(r"^'(\w+) object' has no attribute '(.+)'$"),
     lambda m: f"'{m[2]}' não existe neste {_KINDS.get(m[1], 'objeto')}"),
    (re.compile(r"^'(.+)' has no attribute '(.+)'$"), lambda m: f"'{m[2]}' não existe em '{m[1]}'"),
    (re.compile(r"^access to attribute '(.+)' of '(\w+)' object is unsafe\.?$"),
     lambda m: f"o acesso ao atributo '{m[1]}' não é permitido"),
    (re.compile(r"^Range too big.*MAX_RANGE \((\d+)\)"), lambda m: f"intervalo (range) com mais de {m[1]} itens"),
    (re.compile(r"^Encountered unknown tag '(.+?)'"), lambda m: f"marca desconhecida {{% {m[1]} %}}"),
    (re.compile(r"^Unexpected end of template.*innermost block that needs to be closed is '(\w+)'"),
     lambda m: f"o modelo termina sem fechar o bloco '{m[1]}' ({{% end{m[1]} %}})"),
    (re.compile(r"^Unexpected end of template"), lambda m: "o modelo termina no meio de uma marca"),
    (re.compile(r"^unexpected '(.+)'$"), lambda m: f"'{m[1]}' inesperado".replace(
        "'end of print statement'", "fim da marca }}").replace("'end of statement block'", "fim da marca %}")),
    (re.compile(r"^expected token '(.+)', got '(.+)'$"), lambda m: f"esperava '{m[1]}' e encontrou '{m[2]}'"),
    (re.compile(r"^No filter named '(.+?)'"), lambda m: f"não existe o filtro '{m[1]}'"),
    (re.compile(r"^No test named '(.+?)'"), lambda m: f"não existe o teste '{m[1]}'"),
    (re.compile(r"^division by zero$"), lambda m: "divisão por zero"),
)


def jinja_detail_pt(text: str) -> str:
    """Jinja's (and Python's) English detail of a template error, said in Portuguese; an unknown wording is
    kept, quoted, as the technical detail."""
    text = text.strip()
    for pattern, say in _JINJA_PT:
        m = pattern.search(text)
        if m is not None:
            return say(m)
    return f'detalhe técnico: "{text}"'


def template_error(exc: Exception, file: Path, *, docx: bool = False) -> RenderError:
    """The :class:`RenderError` for ``exc`` raised while rendering the template ``file``.

    The file reported is the innermost template file in the traceback (an included template), else ``file``.
    For a DOCX template (``docx``) the file is always the ``.docx`` and the line is said as a line of the XML
    part it is in (``word/document.xml``, a header…)."""
    where: Path | str = file
    name: str | None = None
    line: int | None = None
    if isinstance(exc, jinja2.TemplateSyntaxError):
        name, line = exc.filename, exc.lineno
    else:
        frames = list(_template_frames(exc))
        if frames:
            name, line = frames[-1]
    part: str | None = None
    if docx:
        part = name if name and not name.startswith("<") else "word/document.xml"
    elif name and not name.startswith("<"):
        where = name
    hint: str | None = None
    if isinstance(exc, jinja2.TemplateNotFound):
        message, hint = (f"o modelo inclui '{exc.name}', que não existe na pasta de modelos.",
                         "confira o nome em {% include %}, {% import %} ou {% extends %}.")
    elif isinstance(exc, jinja2.UndefinedError):
        message, hint = (f"o modelo usa um valor indefinido: {jinja_detail_pt(exc.message or str(exc))}.",
                         "corrija o nome da variável no modelo.")
    elif isinstance(exc, jinja2.TemplateSyntaxError):
        message, hint = (f"erro de sintaxe no modelo: {jinja_detail_pt(exc.message or str(exc))}.",
                         "confira as marcas {{ }} e {% %}.")
    elif isinstance(exc, (LimitError, TemplateOutsideError, IncludeRefusedError)):
        message = str(exc)
    elif isinstance(exc, SecurityError):
        message = f"o modelo tentou uma operação proibida: {jinja_detail_pt(str(exc))}."
    elif isinstance(exc, RecursionError):
        message = "o modelo chama a si mesmo sem fim (recursão)."
    elif isinstance(exc, MemoryError):
        message = "o modelo esgotou a memória."
    elif isinstance(exc, OverflowError):
        message = f"o modelo tentou criar um valor grande demais ({jinja_detail_pt(str(exc))})."
    else:
        message = f"o modelo falhou ao ser preenchido ({jinja_detail_pt(str(exc))})."
    if part is not None and line is not None:
        message = message.rstrip(".") + f" (linha {line} do XML '{part}' do documento Word)."
        line = None
    return RenderError(message, file=where, line=line, hint=hint)


class SharedCode(jinja2.BytecodeCache):
    """Compiled templates kept in memory for the whole process, shared by the environments of one kind (every
    :func:`strict_html_env` is configured alike, so the code one compiles is the code another would).

    Jinja names a template's entry after its name and file, and checks the SHA-1 of the source on load: a
    changed template is compiled again. Compiling (parse, code generation, ``compile``) is most of the first
    render of a template; a program that builds a renderer more than once (a server, a test suite, ``Autos``
    objects of the same templates folder) pays it once per template."""

    def __init__(self, kept: int = 256) -> None:
        self._code: dict[str, bytes] = {}
        self._kept = kept
        self._lock = threading.Lock()

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = bucket.bytecode_to_string()
        with self._lock:
            while len(self._code) >= self._kept:
                self._code.pop(next(iter(self._code)))
            self._code[bucket.key] = code


_HTML_CODE = SharedCode()


def strict_html_env(folder: Path) -> BoundedEnvironment:
    """The bounded sandbox over the HTML templates of ``folder``, confined to it.
    Templates are read once per environment (no reload check per render) and compiled once per process
    while their source is unchanged (:class:`SharedCode`)."""
    return BoundedEnvironment(loader=FolderLoader(folder), trim_blocks=True, lstrip_blocks=True, auto_reload=False,
                              bytecode_cache=_HTML_CODE)
