"""Who may do what (``can``), and the guard every handler calls (``require``).

Roles (:data:`autos.app.register.accounts.PAPEIS`):

=============  ==========================================================================================
``fiscal``     ``ver``, ``editar``, ``emitir`` the processos whose auto's ``agente.matricula`` is his matrícula;
               ``criar`` a processo of a law of his department (any law when his department lists none)
``chefia``     ``ver``, ``editar``, ``emitir``, ``criar`` every processo of the laws of its department
``procurador`` ``ver`` every processo and ``revisar`` it (record "de acordo" or a parecer)
``admin``      ``administrar`` the accounts (and read the audit log); no processo
=============  ==========================================================================================

``require(request, "ver", ref)`` returns the user, or raises :class:`~autos.web.auth.LoginRequired` (→ redirect to
the sign-in page) or :class:`~autos.errors.AccessDeniedError` (→ the 403 page). ``ref`` is a
:class:`~autos.app.register.review.ProcessoRef` (``processo_access`` builds it from the file named in the URL)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request

from autos.app.register.accounts import User
from autos.app.register.review import ProcessoRef, processo_ref
from autos.errors import AccessDeniedError
from autos.web.auth import require_user
from autos.web.state import web_state

__all__ = ["ACTIONS", "ProcessoAccess", "can", "processo_access", "require"]

#: every action a permission is asked for
ACTIONS = ("ver", "editar", "emitir", "revisar", "criar", "administrar")
_PROCESSO_ACTIONS = frozenset({"ver", "editar", "emitir", "revisar"})


def can(user: User, action: str, processo: ProcessoRef | None = None, *, leis: Collection[str] = ()) -> bool:
    """Whether ``user`` may do ``action`` on ``processo`` (``leis``: the laws of the user's department, from the
    configuration). An action on a processo without the processo is refused; an unknown action is refused."""
    if not user.ativo or action not in ACTIONS:
        return False
    if action == "administrar":
        return user.papel == "admin"
    if action == "criar":
        if processo is None:
            return user.papel in ("fiscal", "chefia")  # may open the form; the law is checked when chosen
        if user.papel == "chefia":
            return processo.lei in leis
        if user.papel == "fiscal":
            return not leis or processo.lei in leis
        return False
    if processo is None:
        return False
    if user.papel == "procurador":
        return action in ("ver", "revisar")
    if action == "revisar":
        return False
    if user.papel == "chefia":
        return processo.lei in leis
    if user.papel == "fiscal":
        return bool(user.matricula) and processo.agente_matricula == user.matricula
    return False


def allowed(request: Request, user: User, action: str, processo: ProcessoRef | None = None) -> bool:
    """:func:`can` with the laws of the user's department from the configuration."""
    return can(user, action, processo, leis=web_state(request).config.leis_do_departamento(user.departamento))


def require(request: Request, action: str, processo: ProcessoRef | None = None) -> User:
    """The signed-in user allowed to do ``action`` (on ``processo``); otherwise the sign-in redirect or the 403."""
    user = require_user(request)
    if not allowed(request, user, action, processo):
        what = f" no processo {processo.numero or processo.arquivo}" if processo is not None else ""
        raise AccessDeniedError(f"o seu papel ({user.papel_nome}) não permite {_VERBS.get(action, action)}{what}.",
                                hint="se precisa deste acesso, peça à chefia ou ao administrador.")
    return user


_VERBS = {"ver": "ver este processo", "editar": "alterar este processo", "emitir": "emitir documentos",
          "revisar": "registrar revisão jurídica", "criar": "criar processos", "administrar": "administrar contas"}


@dataclass(frozen=True)
class ProcessoAccess:
    """A processo named in a URL, found and allowed: its reference (file, law, number) and the user."""

    ref: ProcessoRef
    user: User

    @property
    def file(self) -> Path:
        return self.ref.file


def processo_access(request: Request, arquivo: str, action: str) -> ProcessoAccess:
    """The processo of the URL's ``arquivo`` (relative to the processos folder), after the permission check:
    not signed in → sign-in redirect; no such file (or outside the folder) → 404; not allowed → 403. The 404
    comes only after sign-in, so nobody learns which files exist without an account."""
    require_user(request)
    state = web_state(request)
    ref = processo_ref(state.autos, state.config.processos, arquivo)
    user = require(request, action, ref)
    return ProcessoAccess(ref, user)
