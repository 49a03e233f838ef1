"""The error hierarchy of ``autos``: every error a user can meet, in one module.

Every error a user can meet is an :class:`AutosError`. Its message is in Portuguese and names,
where known, the file, the YAML path and the line, what is wrong and how to fix it. The command line maps
``exit_code`` to its exit status, the web application the class to its HTTP status::

    AutosError                      exit 2
    ├── InputError                  a case, processo or form the loaders refuse
    │   └── PixConfigError          the Municipality's PIX receiver (key, name, city) cannot go into a BR Code
    ├── RulesError                  the rules folder
    │   └── RulesFileError          one rules file, with its line
    ├── ComputeError                a fine or deadline that cannot be computed from the facts given
    ├── RenderError                 a template or letterhead
    ├── OutputError                 a file that cannot be written (nothing partial is left)
    ├── SignatureError              a PDF that cannot be signed
    ├── RefusedError                exit 1: a final document refused (findings of severity erro)
    │   ├── ReplaceRefusedError     a different document would replace an existing one
    │   ├── EditConflictError       the processo file changed after the form loaded it
    │   ├── DuplicateActNumberError an act number another processo of the law already uses
    │   └── ExampleRefused          an edital that would use an example value (a MINUTA is never published)
    ├── NotFoundError               web 404
    ├── AccessDeniedError           exit 1, web 403
    │   └── CsrfError               a POST without this application's token
    ├── LoginRequired               the web page needs a signed-in user (a redirect)
    ├── RegisterError               the register (SQLite or PostgreSQL)
    ├── LedgerError                 the editais ledger
    ├── RecordError                 the edital act cannot be written into its processo file
    ├── CorrectionError             a correction of a published edital that cannot be made as asked
    └── ClusterError                the Dask cluster cannot be used

Three live beside what they need: :class:`autos.app.forms.processo_form.FormInvalid` (an :class:`InputError`
carrying the form's report); the template bounds of :mod:`autos.render.sandbox`, which subclass Jinja's
``SecurityError`` for the sandbox's own machinery and reach the user as a :class:`RenderError`; and
``OwnDatabaseError`` of :mod:`autos.store.sqlite_errors`, an ``sqlite3.DatabaseError`` raised inside the SQLite
layer and reported as a :class:`RegisterError` or :class:`LedgerError`.
"""

from __future__ import annotations

import errno
import logging
from pathlib import Path

#: where a library's own (English) wording of a failure is kept: never in the message, in the log for support
_LOG = logging.getLogger("autos")


class AutosError(Exception):
    """Base of every error raised by ``autos``."""

    #: exit code the CLI uses for this kind of error
    exit_code = 2

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | object | None = None,  # or anything printed as a location (a database URL, masked)
        path: str | None = None,
        line: int | None = None,
        hint: str | None = None,
    ) -> None:
        self.message = message
        self.file = str(file) if file is not None else None
        self.path = path
        self.line = line
        self.hint = hint
        super().__init__(self.render())

    def location(self, *, without_file: bool = False) -> str:
        parts: list[str] = []
        if self.file and not without_file:
            parts.append(self.file)
        if self.line is not None:
            parts.append(f"linha {self.line}")
        if self.path:
            parts.append(f"campo '{self.path}'")
        return ", ".join(parts)

    def render(self, *, of_file: str | None = None) -> str:
        """The message with where and how to fix it; ``of_file``: the file the reader already sees it is about (a
        list of refused files names each one first), left out of the location when it is the error's own."""
        where = self.location(without_file=of_file is not None and self.file == of_file)
        text = f"{where}: {self.message}" if where else self.message
        if self.hint:
            text += f" Como corrigir: {self.hint}"
        return text

    def to_dict(self) -> dict[str, object]:
        return {
            "tipo": type(self).__name__,
            "arquivo": self.file,
            "caminho": self.path,
            "linha": self.line,
            "mensagem": self.message,
            "como_corrigir": self.hint,
        }


class InputError(AutosError):
    """A case file (or other user input) cannot be read: bad YAML, wrong type, unknown key."""


class RulesError(AutosError):
    """The rules folder (statutes, calendars) is missing or malformed."""


class RulesFileError(RulesError):
    """A calendar or deadline-rules file cannot be read or is malformed. No case can be checked against
    it, so it is never turned into a finding of a case: it stops the case with exit code 2."""


class ComputeError(AutosError):
    """A fine or a deadline cannot be computed from the case and the rules."""


class RenderError(AutosError):
    """A template is missing or broken, or a document cannot be produced."""


class OutputError(AutosError):
    """An output file cannot be written (unwritable folder, full disk)."""


class SignatureError(AutosError):
    """A PDF cannot be signed (``autos assinar``, ``--assinar``): the certificate or token (wrong password or PIN,
    missing token, expired, revoked, no signing key usage) or the PDF itself (encrypted, damaged, already signed).
    The original file is never changed."""


class RefusedError(AutosError):
    """A final document was asked for a case that has findings of severity *erro*."""

    exit_code = 1


class NotFoundError(AutosError):
    """What was asked for does not exist (a processo file, an account): the web application answers 404."""


class AccessDeniedError(AutosError):
    """The user's role does not allow the action on this processo (or account): the web application answers 403."""

    exit_code = 1


class ReplaceRefusedError(RefusedError):
    """``autos gerar`` would replace an existing document with a different one (allowed only with
    ``--substituir``)."""


class EditConflictError(RefusedError):
    """A processo file changed on disk after a form loaded it: the save is refused and nothing is written.
    ``diff`` is the unified diff (in the file's own text) from the version the form loaded to the one on disk
    now; empty when the loaded version is not known."""

    def __init__(self, message: str, *, diff: str = "", file: str | Path | None = None,
                 hint: str | None = None) -> None:
        self.diff = diff
        super().__init__(message, file=file, hint=hint)

    def to_dict(self) -> dict[str, object]:
        return {**super().to_dict(), "diferencas": self.diff}


class PixConfigError(InputError):
    """A PIX setting that cannot go into a BR Code; ``key`` names the setting (``chave``, ``nome``, ``cidade``)."""

    def __init__(self, key: str, message: str, hint: str) -> None:
        self.key = key
        super().__init__(message, hint=hint)


class DuplicateActNumberError(RefusedError):
    """A processo uses an act number that another processo of the same law already uses in the same series."""


class ExampleRefused(RefusedError):
    """The edital would use an example value of the rules: it would be a MINUTA, and a MINUTA is never published."""


class CsrfError(AccessDeniedError):
    """A POST without the token of this application's page (or with another's)."""


class LoginRequired(AutosError):
    """The page needs a signed-in user: the application redirects to the sign-in page."""


class RegisterError(AutosError):
    """The register cannot be opened (corrupt, locked, from a newer version) or refused a write."""


class LedgerError(AutosError):
    """The ledger cannot be opened, is busy, or would be left inconsistent."""


class RecordError(AutosError):
    """The edital could not be written into the processo file (the edital itself stays published)."""


class CorrectionError(AutosError):
    """A correction that cannot be made as asked (unknown edital, cancelled, only reserved…): nothing written."""


class ClusterError(AutosError):
    """The Dask cluster cannot be used (not installed, unreachable, a worker of another version, the scheduler
    lost mid-run): exit 2, nothing of the edital in progress is left."""


_OS_ERRORS = {
    errno.ENOENT: "arquivo ou pasta não encontrado",
    errno.EACCES: "sem permissão",
    errno.EPERM: "operação não permitida",
    errno.EROFS: "o disco está montado somente para leitura",
    errno.ENOSPC: "disco cheio: não há espaço para gravar",
    errno.EDQUOT: "cota de disco esgotada",
    errno.ELOOP: "ligação simbólica em ciclo",
    errno.ENAMETOOLONG: "nome longo demais",
    errno.ENOTDIR: "um dos componentes do caminho não é uma pasta",
    errno.EISDIR: "é uma pasta, não um arquivo",
    errno.EIO: "erro de entrada e saída do disco",
    errno.ENXIO: "dispositivo inexistente",
    errno.EMFILE: "arquivos abertos demais",
    errno.ENFILE: "arquivos abertos demais",
    errno.EAGAIN: "recurso temporariamente indisponível",
    errno.EXDEV: "a pasta temporária e o destino estão em discos diferentes",
}


def os_error_pt(exc: OSError) -> str:
    """The reason of an OS error in Portuguese (the system's ``strerror`` is in English)."""
    return _OS_ERRORS.get(exc.errno or 0, f"erro do sistema nº {exc.errno}" if exc.errno else "erro do sistema")


def case_failure(exc: BaseException, stage: str) -> str:
    """Why one case could not be used, in Portuguese, for an error that is not an :class:`AutosError` (a case
    that crashes a library, or a defect): the case is refused (or listed as unreadable) with this reason and the
    run goes on with the others."""
    import decimal

    if isinstance(exc, RecursionError):
        why = ("o arquivo tem listas ou mapas aninhados em centenas de níveis, profundidade que um caso não tem; "
               "confira a indentação e os colchetes")
    elif isinstance(exc, (OverflowError, decimal.DecimalException)) or (
            isinstance(exc, ValueError) and "integer string conversion" in str(exc)):
        why = ("um número do caso é grande demais (ou inválido) para ser calculado; confira valores e quantidades "
               "(p. ex. valor_base, quantidade)")
    elif isinstance(exc, MemoryError):
        why = "o caso é grande demais para a memória disponível"
    else:
        why = "erro interno ao tratar este caso; os demais casos seguiram — guarde o arquivo e chame o suporte"
    keep_original(exc, f"não foi possível {stage}")
    return f"não foi possível {stage}: {why}"


def keep_original(exc: BaseException, what: str) -> None:
    """Keep the library's own wording of ``exc`` (English: SQLite, psycopg, pyHanko, lxml…) in the log, at DEBUG, for
    support; the user reads the Portuguese message alone."""
    _LOG.debug("%s: %s: %s", what, type(exc).__name__, exc)
