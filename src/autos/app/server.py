"""``autos servir``: the web application's configuration (a TOML file) and the function that runs it.

The configuration is read here, below the web layer, so that the command line (which must not import the web
package: ``.importlinter``) can read the host and port of a config file; uvicorn imports the application by
name (``autos.web.app:app_from_environment``). One uvicorn process serves every connection (asyncio); the
CPU-heavy work, the PDF previews, goes to the application's render pool of ``processos_de_trabalho`` processes.

The file (every key optional; relative paths are relative to the file's folder)::

    [servidor]
    host = "127.0.0.1"
    porta = 8000
    cookie_seguro = true          # the session cookie only over HTTPS (behind a TLS proxy)
    sessao_horas = 10             # a session ends this many hours after sign-in
    chave = "chave-web"           # secret key file (created with 0600 if missing); default: beside the register
    proxies = ["127.0.0.1"]       # proxies whose X-Forwarded-For/-Proto are trusted
    processos_de_trabalho = 2     # processes rendering previews; default: one per core this process may run on
    limite_envio_mib = 10         # largest request body (uploads)

    [dados]
    processos = "/srv/autos/processos"
    registro = "/srv/autos/processos/registro.sqlite3"   # default: registro.sqlite3 in the processos folder
    banco = "postgresql://autos@db.interno/autos"         # or: the register on PostgreSQL (also AUTOS_BANCO)
    regras = "/srv/autos/regras"                          # default: the rules shipped with autos
    modelos = "/srv/autos/modelos"                        # default: the templates shipped with autos
    documentos = "/srv/autos/documentos-emitidos"         # issued PDF/DOCX; default: beside the register
    hoje = "2026-11-30"                                   # fixed reference date (demonstrations, tests)

    [departamentos]
    "Vigilância Sanitária" = ["timoteo-mg/lei-3844-2022"]
    "Posturas" = ["ferraz-de-vasconcelos-sp/lei-3240-2015"]
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

from autos.base.resources import default_samples_dir
from autos.errors import AutosError, InputError, keep_original, os_error_pt
from autos.store.database import BANCO_ENV, DatabaseUrl, Location
from autos.store.register import DEFAULT_REGISTER_NAME

__all__ = ["CONFIG_ENV", "WebConfig", "default_config", "default_workers", "load_config", "serve"]

#: environment variable through which ``autos servir`` hands the config file to the application (every worker)
CONFIG_ENV = "AUTOS_WEB_CONFIG"
#: environment variables with the command line's overrides of the config file (which is never rewritten)
_OVERRIDE_ENV = {"host": "AUTOS_WEB_HOST", "porta": "AUTOS_WEB_PORTA", "regras": "AUTOS_WEB_REGRAS",
                 "modelos": "AUTOS_WEB_MODELOS", "hoje": "AUTOS_WEB_HOJE"}

_KEYS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "servidor": {"host": str, "porta": int, "cookie_seguro": bool, "sessao_horas": (int, float), "chave": str,
                 "proxies": list, "processos_de_trabalho": int, "limite_envio_mib": int},
    "dados": {"processos": str, "registro": str, "banco": str, "regras": str, "modelos": str, "documentos": str,
              "hoje": (str, date)},
    "departamentos": {},
}


def default_workers() -> int:
    """The default size of the render pool (the processes that render previews): one per core this process may
    run on (``taskset`` and container CPU sets included). A process renders one PDF at a time (WeasyPrint is not
    thread-safe), so fewer processes than cores leave cores idle while clerks wait for previews."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class WebConfig:
    """Where the processos and the register are, how the server listens, and the departments' laws."""

    processos: Path
    registro: Path
    host: str = "127.0.0.1"
    porta: int = 8000
    chave: Path | None = None  # None: ``<register>.chave-web`` beside the register
    cookie_seguro: bool = False
    sessao_horas: float = 10.0
    proxies: tuple[str, ...] = ("127.0.0.1",)
    processos_de_trabalho: int = field(default_factory=default_workers)
    limite_envio: int = 10 * 1024 * 1024
    regras: Path | None = None
    modelos: Path | None = None
    hoje: date | None = None
    departamentos: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    arquivo: Path | None = None  # the config file read, if any
    documentos: Path | None = None  # None: ``documentos-emitidos`` beside the register
    banco: DatabaseUrl | None = None  # the register on PostgreSQL (then ``registro`` only places the defaults above)

    @property
    def registro_local(self) -> Location:
        """Where the register is: the PostgreSQL database if one is configured, else the SQLite file."""
        return self.banco if self.banco is not None else self.registro

    @property
    def documentos_pasta(self) -> Path:
        """Where the documents issued from the web are written."""
        return self.documentos or self.registro.parent / "documentos-emitidos"

    @property
    def chave_arquivo(self) -> Path:
        return self.chave or self.registro.with_name(self.registro.name + ".chave-web")

    def leis_do_departamento(self, departamento: str | None) -> tuple[str, ...]:
        return tuple(self.departamentos.get(departamento or "", ()))


def default_config() -> WebConfig:
    """The embedded defaults: the sample processos and their register, on 127.0.0.1:8000."""
    processos = default_samples_dir() / "processos"
    return WebConfig(processos=processos, registro=processos / DEFAULT_REGISTER_NAME)


def _fail(file: Path, key: str, message: str, hint: str) -> InputError:
    return InputError(message, file=file, path=key, hint=hint)


def load_config(file: Path | None = None, *, host: str | None = None, porta: int | None = None,
                regras: Path | None = None, modelos: Path | None = None, hoje: date | None = None) -> WebConfig:
    """The configuration of ``file`` (None: the defaults), with the command line's options over it (``--host``,
    ``--porta``, and the general ``--regras``, ``--modelos``, ``--hoje``). An unknown key, a value of the wrong
    type or a processos folder that does not exist is an :class:`InputError` naming the file and the key."""
    config = default_config()
    if file is not None:
        config = _read(Path(file))
    overrides = {k: v for k, v in (("host", host), ("porta", porta), ("regras", regras), ("modelos", modelos),
                                   ("hoje", hoje)) if v is not None}
    if overrides:
        config = replace(config, **overrides)  # type: ignore[arg-type]
    if not config.processos.is_dir():
        where = f"[dados] processos de {config.arquivo}" if config.arquivo else "a pasta padrão dos processos"
        raise InputError(f"a pasta dos processos não existe: {config.processos} ({where}).",
                         file=config.arquivo, path="dados.processos",
                         hint="indique a pasta dos processos em [dados] processos do arquivo de configuração "
                         "(autos servir --config ARQUIVO).")
    return config


def _read(file: Path) -> WebConfig:
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"não foi possível ler o arquivo de configuração ({os_error_pt(exc)}).", file=file,
                         hint="confira o caminho dado em --config.") from None
    except UnicodeDecodeError:
        raise InputError("o arquivo de configuração não está em UTF-8.", file=file,
                         hint="salve-o em UTF-8.") from None
    except tomllib.TOMLDecodeError as exc:  # its wording is English: only where it is, in Portuguese
        keep_original(exc, f"TOML {file}")
        at = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        where = f" (coluna {at[2]})" if at else ""
        raise InputError(f"o arquivo de configuração não é TOML válido{where}.", file=file,
                         line=int(at[1]) if at else None,
                         hint="confira aspas, colchetes e o sinal de igual na linha indicada.") from None
    base = file.resolve().parent
    for section, value in data.items():
        if section not in _KEYS:
            raise _fail(file, section, f"seção desconhecida: [{section}].",
                        f"as seções são: {', '.join(f'[{s}]' for s in _KEYS)}.")
        if not isinstance(value, dict):
            raise _fail(file, section, f"'{section}' deve ser uma seção ([{section}]).", f"escreva [{section}].")
        if section == "departamentos":
            continue
        for key, v in value.items():
            kinds = _KEYS[section].get(key)
            if kinds is None:
                raise _fail(file, f"{section}.{key}", f"chave desconhecida em [{section}]: '{key}'.",
                            f"as chaves de [{section}] são: {', '.join(_KEYS[section])}.")
            if not isinstance(v, kinds) or (isinstance(v, bool) and kinds in (int, (int, float))):
                raise _fail(file, f"{section}.{key}", f"valor de tipo errado em [{section}] {key}: {v!r}.",
                            "confira o exemplo de arquivo de configuração em docs/runbook-web.md.")
    servidor: dict[str, Any] = data.get("servidor", {})
    dados: dict[str, Any] = data.get("dados", {})

    def path(key: str) -> Path | None:
        v = dados.get(key)
        return (base / v) if isinstance(v, str) else None

    defaults = default_config()
    processos = path("processos") or defaults.processos
    registro = path("registro") or processos / DEFAULT_REGISTER_NAME
    hoje: date | None = None
    raw_hoje = dados.get("hoje")
    if isinstance(raw_hoje, date):
        hoje = raw_hoje
    elif isinstance(raw_hoje, str):
        try:
            hoje = date.fromisoformat(raw_hoje)
        except ValueError:
            raise _fail(file, "dados.hoje", f"data inválida: '{raw_hoje}'.", "escreva AAAA-MM-DD.") from None
    porta = servidor.get("porta", 8000)
    if not 1 <= porta <= 65535:
        raise _fail(file, "servidor.porta", f"porta fora de 1–65535: {porta}.", "use p. ex. 8000.")
    horas = float(servidor.get("sessao_horas", 10))
    if not 0 < horas <= 24 * 30:
        raise _fail(file, "servidor.sessao_horas", f"duração de sessão fora de (0, 720] horas: {horas:g}.",
                    "use p. ex. 10 (um dia de trabalho).")
    proxies = servidor.get("proxies", ["127.0.0.1"])
    if not all(isinstance(p, str) for p in proxies):
        raise _fail(file, "servidor.proxies", "proxies deve ser uma lista de endereços entre aspas.",
                    'escreva p. ex. proxies = ["127.0.0.1"].')
    departamentos: dict[str, tuple[str, ...]] = {}
    for name, laws in data.get("departamentos", {}).items():
        if not isinstance(laws, list) or not all(isinstance(x, str) for x in laws):
            raise _fail(file, f"departamentos.{name}", f"o departamento '{name}' deve ter uma lista de leis.",
                        f'escreva p. ex. "{name}" = ["timoteo-mg/lei-3844-2022"].')
        departamentos[str(name)] = tuple(laws)
    workers = servidor.get("processos_de_trabalho", default_workers())
    limite = servidor.get("limite_envio_mib", 10)
    if workers < 1 or limite < 1:
        key = "processos_de_trabalho" if workers < 1 else "limite_envio_mib"
        raise _fail(file, f"servidor.{key}", f"{key} deve ser pelo menos 1.", "use um número inteiro positivo.")
    chave = servidor.get("chave")
    banco_text = dados.get("banco") or os.environ.get(BANCO_ENV) or None
    try:
        banco = DatabaseUrl(banco_text) if banco_text else None
    except AutosError as exc:
        raise _fail(file, "dados.banco", exc.message, exc.hint or "") from None
    return WebConfig(
        processos=processos, registro=registro, host=servidor.get("host", "127.0.0.1"), porta=porta,
        chave=(base / chave) if chave else None, cookie_seguro=servidor.get("cookie_seguro", False),
        sessao_horas=horas, proxies=tuple(proxies), processos_de_trabalho=workers, limite_envio=limite * 1024 * 1024,
        regras=path("regras"), modelos=path("modelos"), hoje=hoje, departamentos=departamentos, arquivo=file.resolve(),
        documentos=path("documentos"), banco=banco,
    )


def config_from_environment() -> WebConfig:
    """The configuration ``autos servir`` handed to the application (each uvicorn worker reads it again)."""
    env = {k: os.environ.get(v) or None for k, v in _OVERRIDE_ENV.items()}
    file = os.environ.get(CONFIG_ENV)
    return load_config(Path(file) if file else None, host=env["host"],
                       porta=int(env["porta"]) if env["porta"] else None,
                       regras=Path(env["regras"]) if env["regras"] else None,
                       modelos=Path(env["modelos"]) if env["modelos"] else None,
                       hoje=date.fromisoformat(env["hoje"]) if env["hoje"] else None)


def serve(config_file: Path | None, *, host: str | None = None, porta: int | None = None,
          regras: Path | None = None, modelos: Path | None = None, hoje: date | None = None) -> None:
    """Run the web application with uvicorn until interrupted (``autos servir``). The config is read first, so a
    bad file stops here with its message; the proxy headers (X-Forwarded-For, X-Forwarded-Proto) are trusted
    only from the configured proxies."""
    import uvicorn

    config = load_config(config_file, host=host, porta=porta, regras=regras, modelos=modelos, hoje=hoje)
    if config_file is not None:
        os.environ[CONFIG_ENV] = str(Path(config_file).resolve())
    else:
        os.environ.pop(CONFIG_ENV, None)
    given: dict[str, object] = {"host": host, "porta": porta, "regras": regras and Path(regras).resolve(),
                                "modelos": modelos and Path(modelos).resolve(), "hoje": hoje}
    for key, name in _OVERRIDE_ENV.items():
        value = given[key]
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value.isoformat() if isinstance(value, date) else str(value)
    # One process: uvicorn's workers would each keep the keep-alive connections they accepted (20 clerks were
    # seen split 19:1 on two workers, one core idle); the previews go to the application's render pool instead.
    uvicorn.run("autos.web.app:app_from_environment", factory=True, host=config.host, port=config.porta,
                proxy_headers=True,
                forwarded_allow_ips=list(config.proxies), server_header=False, log_level="info")
