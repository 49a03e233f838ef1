"""Accounts, sessions and the audit log of the web application, over the register (no web framework here).

- an account has a login, a name, a role (:data:`PAPEIS`), the agent's matrícula (a *fiscal* sees the processos
  whose auto names it) and a department (a *chefia* sees the processos of its department's laws);
- passwords are stored only as argon2id hashes (`argon2-cffi <https://argon2-cffi.readthedocs.io>`_, the RFC
  9106 low-memory profile, written out: :data:`_hasher`), rehashed on sign-in when the parameters change; at most
  one hash is computed per core at a time (:data:`_HASHING`);
- a session is a random value (:func:`secrets.token_urlsafe`, 256 bits) kept by the browser in a cookie; the
  register keeps only its SHA-256, its CSRF token and its expiry (server-side: an expired or signed-out session
  opens nothing, whatever the cookie says);
- the audit log records who created, changed, issued, reviewed or signed in, and when.

``autos usuarios criar|listar|desativar`` and the web's sign-in and admin page call these functions.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

from autos.errors import InputError, NotFoundError
from autos.store.register import AuditEntry, Register, UserRow

__all__ = [
    "MIN_PASSWORD", "PAPEIS", "PAPEL_NOMES", "Session", "User", "audit", "authenticate", "close_session",
    "create_user", "deactivate_user", "list_users", "open_session", "session_of",
]

#: the roles, in the order the admin page lists them
PAPEIS = ("fiscal", "chefia", "procurador", "admin")
PAPEL_NOMES = {"fiscal": "fiscal", "chefia": "chefia", "procurador": "procurador", "admin": "administrador"}
#: characters of the shortest password accepted
MIN_PASSWORD = 10
_LOGIN = re.compile(r"[a-z0-9][a-z0-9._-]{1,39}")
_MAX_NAME = 200

#: argon2id with the parameters of RFC 9106's second recommended option (argon2-cffi's default, the
#: ``RFC_9106_LOW_MEMORY`` profile), written here so that a new release of the library does not change them under the
#: register: 64 MiB, 3 passes, 4 lanes. Above the OWASP Password Storage Cheat Sheet's minimum for argon2id (19 MiB,
#: 2 iterations, 1 degree of parallelism; or 46 MiB and 1 iteration). A hash keeps its parameters in its PHC string,
#: so hashes made with other parameters keep verifying (and are rehashed with these at the next sign-in).
_hasher = PasswordHasher(time_cost=3, memory_cost=64 * 1024, parallelism=4, hash_len=32, salt_len=16, type=Type.ID)
#: each argon2 hash or verification holds its ``memory_cost`` (64 MiB) while it runs; the web application verifies
#: in its thread pool (40 threads), so 20 clerks signing in at once held 20 × 64 MiB (bench/bench_web_load.py
#: --so-entradas: the server's peak RSS 1,356 MiB, 204 MiB with this bound on 2 cores). One per core at a time: the
#: others wait their turn, which costs them little more than sharing the cores would (each verification keeps a
#: core busy for its whole length)
_HASHING = threading.BoundedSemaphore(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                                      else os.cpu_count() or 1)


def _hash(senha: str) -> str:
    with _HASHING:
        return _hasher.hash(senha)


def _verify(stored: str, senha: str) -> None:
    """:meth:`PasswordHasher.verify` (raises when the password is not this hash's), one per core at a time."""
    with _HASHING:
        _hasher.verify(stored, senha)


#: a hash of a random password, verified when the login does not exist, so that a sign-in with an unknown
#: login takes as long as one with a wrong password (no way to learn which logins exist by timing)
_DUMMY_HASH = _hash(secrets.token_urlsafe(16))


@dataclass(frozen=True)
class User:
    """The signed-in user, as the permission rules read it."""

    login: str
    nome: str
    papel: str
    matricula: str | None
    departamento: str | None
    ativo: bool = True

    @property
    def papel_nome(self) -> str:
        return PAPEL_NOMES.get(self.papel, self.papel)

    @classmethod
    def from_row(cls, row: UserRow) -> User:
        return cls(row.login, row.nome, row.papel, row.matricula, row.departamento, row.ativo)


@dataclass(frozen=True)
class Session:
    """An open session: its user and the CSRF token every form of the session must carry."""

    user: User
    csrf: str


def _utc_now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def _clean(value: str | None, field: str, *, required: bool) -> str | None:
    text = (value or "").strip()
    if not text:
        if required:
            raise InputError(f"o campo '{field}' é obrigatório.", path=field, hint=f"informe {field}.")
        return None
    if len(text) > _MAX_NAME or any(ord(c) < 32 for c in text):
        raise InputError(f"o campo '{field}' tem mais de {_MAX_NAME} caracteres ou caracteres de controle.",
                         path=field, hint="escreva o valor numa só linha, sem caracteres de controle.")
    return text


def create_user(register: Register, login: str, senha: str, *, nome: str, papel: str, matricula: str | None = None,
                departamento: str | None = None, departamentos: tuple[str, ...] | None = None,
                por: str | None = None) -> User:
    """Create an account. A *fiscal* needs the matrícula; a *chefia* needs a department (one of ``departamentos``
    when the configuration lists them). ``por``: who created it (audit log; None from the command line)."""
    login = login.strip()
    if not _LOGIN.fullmatch(login):
        raise InputError(f"login inválido: '{login}'.", path="login",
                         hint="use de 2 a 40 letras minúsculas sem acento, algarismos, ponto, hífen ou sublinhado, "
                         "começando por letra ou algarismo (p. ex. maria.souza).")
    if papel not in PAPEIS:
        raise InputError(f"papel desconhecido: '{papel}'.", path="papel", hint=f"use um de: {', '.join(PAPEIS)}.")
    if len(senha) < MIN_PASSWORD:
        raise InputError(f"a senha tem {len(senha)} caracteres; o mínimo é {MIN_PASSWORD}.", path="senha",
                         hint=f"escolha uma senha de pelo menos {MIN_PASSWORD} caracteres (uma frase serve).")
    nome_ok = _clean(nome, "nome", required=True)
    assert nome_ok is not None
    matricula_ok = _clean(matricula, "matricula", required=papel == "fiscal")
    departamento_ok = _clean(departamento, "departamento", required=papel == "chefia")
    if departamento_ok is not None and departamentos is not None and departamento_ok not in departamentos:
        known = ", ".join(departamentos) or "nenhum departamento configurado"
        raise InputError(f"departamento desconhecido: '{departamento_ok}'.", path="departamento",
                         hint=f"use um dos departamentos da configuração ({known}).")
    row = register.add_user(login, nome_ok, papel, matricula_ok, departamento_ok, _hash(senha))
    register.audit(por, "usuario-criado", f"usuario:{login}",
                   f"papel {papel}" + (f", matrícula {matricula_ok}" if matricula_ok else "")
                   + (f", departamento {departamento_ok}" if departamento_ok else ""))
    return User.from_row(row)


def list_users(register: Register) -> list[User]:
    return [User.from_row(r) for r in register.users_all()]


def deactivate_user(register: Register, login: str, *, por: str | None = None) -> User:
    """Deactivate an account (kept, with its audit trail; its sessions end at once)."""
    row = register.user(login)
    if row is None:
        raise NotFoundError(f"não há usuário com o login '{login}'.", hint="autos usuarios listar mostra os logins.")
    register.deactivate_user(login)
    register.audit(por, "usuario-desativado", f"usuario:{login}")
    found = register.user(login)
    assert found is not None
    return User.from_row(found)


def authenticate(register: Register, login: str, senha: str) -> User | None:
    """The active account whose password this is, or None (same time whether the login exists or not). The
    attempt is audited."""
    login = login.strip()
    row = register.user(login) if _LOGIN.fullmatch(login) else None
    stored = register.password_hash(login) if row is not None else None
    try:
        _verify(stored or _DUMMY_HASH, senha)
        ok = stored is not None
    except (VerificationError, InvalidHashError):
        ok = False
    if not ok or row is None or not row.ativo:
        register.audit(login if row is not None else None, "entrada-recusada", f"usuario:{login[:60]}")
        return None
    if stored is not None and _hasher.check_needs_rehash(stored):
        register.set_password_hash(login, _hash(senha))
    register.audit(login, "entrou", f"usuario:{login}")
    return User.from_row(row)


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def open_session(register: Register, user: User, hours: float) -> tuple[str, Session]:
    """A new session of ``hours``; returns the cookie's value (never stored) and the session."""
    token = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(32)
    now = _utc_now()
    register.add_session(_hash_token(token), user.login, csrf, now.isoformat(),
                         (now + timedelta(hours=hours)).isoformat())
    return token, Session(user, csrf)


def session_of(register: Register, token: str | None) -> Session | None:
    """The session of a cookie's value: None when absent, unknown, expired, signed out or of an inactive account."""
    if not token or len(token) > 200:
        return None
    row = register.session(_hash_token(token))
    if row is None or row.expira_em <= _utc_now().isoformat():
        return None
    user = register.user(row.login)
    if user is None or not user.ativo:
        return None
    return Session(User.from_row(user), row.csrf)


def close_session(register: Register, token: str | None, login: str | None) -> None:
    """Sign out: the session is deleted from the register (the cookie opens nothing afterwards)."""
    if token:
        register.delete_session(_hash_token(token))
    if login:
        register.audit(login, "saiu", f"usuario:{login}")


def audit(register: Register, login: str | None, acao: str, objeto: str | None = None,
          detalhe: str | None = None) -> AuditEntry:
    """Append to the audit log: ``acao`` is a verb in Portuguese (criou, alterou, emitiu, revisou…), ``objeto``
    what it was done to (for a processo: ``processo:<file relative to the processos folder>``)."""
    return register.audit(login, acao, objeto, detalhe)
