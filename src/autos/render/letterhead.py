"""Each Municipality's letterhead, from its templates folder: brasão, header lines, department and signers.

The letterhead of a Municipality is ``html/timbre/<id>/timbre.yaml`` in the templates folder, where ``<id>`` is
the first part of the law's id (``timoteo-mg`` for ``timoteo-mg/lei-3844-2022``)::

    brasao: brasao.png        # an image in the same folder (PNG, JPEG or SVG); without it, the neutral brasão
    linhas:                   # the header lines, the first one in bold (and repeated at the top of pages 2…)
      - PREFEITURA MUNICIPAL DE TIMÓTEO
      - Estado de Minas Gerais
    orgao: Secretaria Municipal de Desenvolvimento Econômico — Serviço de Inspeção Municipal (SIM)
    assinantes:               # who signs, by role (the consolidated edital: ``edital``)
      edital: {nome: Fulana de Tal, cargo: Secretária Municipal de Desenvolvimento Econômico}
    url_verificacao: https://www.timoteo.mg.gov.br/verificar?codigo={codigo}   # the QR of every document
    pix:                      # the demonstrativo de débito's PIX "copia e cola" (autos.documents.pix)
      chave: 18.299.446/0001-24
      nome: MUNICIPIO DE TIMOTEO
      cidade: Timóteo

Every key is optional: a Municipality without the file (or without a key) gets the neutral default — the
neutral brasão ``html/timbre/padrao.png``, the lines "PREFEITURA MUNICIPAL DE …" and the state, and the
department the law's rules name. The file is read with the limits of every YAML input; an unknown key, a value
of the wrong type or an image outside the templates folder is a :class:`~autos.errors.RenderError` (exit 2)
naming the file, the key and the line. The images are read by the PDF renderer through its local-only fetcher,
so a letterhead cannot make it read anything outside the ``html/`` folder.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from autos.base.yamlio import YamlDoc, load_yaml
from autos.errors import RenderError

#: the folder of the letterheads, inside the templates' html/ folder; the neutral brasão in it
FOLDER = "timbre"
DEFAULT_BRASAO = f"{FOLDER}/padrao.png"
_KEYS = {"brasao", "linhas", "orgao", "assinantes", "url_verificacao", "pix"}
_SIGNER_KEYS = {"nome", "cargo"}
_PIX_KEYS = {"chave", "nome", "cidade"}
_URL = re.compile(r"^https?://[^\s{}]+$")


def _text(doc: YamlDoc, key: tuple[str | int, ...], value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise doc.error(RenderError, key, "o valor deve ser um texto não vazio.",
                        "escreva o texto entre aspas, numa linha.")
    return " ".join(value.split())


def load_letterhead(html_folder: Path, municipio: str) -> dict[str, Any]:
    """What the Municipality's letterhead file says (``{}`` without one): ``brasao`` (the image's path relative
    to ``html_folder``), ``linhas``, ``orgao`` and ``assinantes`` (role → ``{nome, cargo}``)."""
    folder = html_folder / FOLDER / municipio
    file = folder / "timbre.yaml"
    if not file.is_file():
        return {}
    doc = load_yaml(file, RenderError)
    data = doc.data
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise doc.error(RenderError, (), "o timbre deve ser um mapa de chaves (brasao, linhas, orgao, assinantes).")
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key not in _KEYS:
            raise doc.error(RenderError, (key,), f"chave desconhecida no timbre: '{key}'.",
                            f"as chaves aceitas são: {', '.join(sorted(_KEYS))}.")
        if key == "brasao":
            name = _text(doc, (key,), value)
            real = os.path.realpath(folder / name)
            root = os.path.realpath(html_folder)
            if os.path.commonpath([real, root]) != root or not os.path.isfile(real):
                raise doc.error(RenderError, (key,), f"a imagem do brasão '{name}' não está na pasta do timbre "
                                f"({folder}).", "ponha o arquivo da imagem nesta pasta, sem link simbólico para fora.")
            out["brasao"] = Path(os.path.relpath(real, root)).as_posix()
        elif key == "linhas":
            if not isinstance(value, list) or not value:
                raise doc.error(RenderError, (key,), "'linhas' deve ser uma lista de textos, uma por linha.")
            out["linhas"] = [_text(doc, (key, i), v) for i, v in enumerate(value)]
        elif key == "orgao":
            out["orgao"] = _text(doc, (key,), value)
        elif key == "url_verificacao":
            out[key] = _verification_url(doc, value)
        elif key == "pix":
            out[key] = _pix(doc, value)
        else:
            if not isinstance(value, dict):
                raise doc.error(RenderError, (key,), "'assinantes' deve ser um mapa: papel → {nome, cargo}.")
            signers: dict[str, dict[str, str]] = {}
            for role, person in value.items():
                if not isinstance(person, dict) or set(person) != _SIGNER_KEYS:
                    raise doc.error(RenderError, (key, role), f"o assinante '{role}' deve ter 'nome' e 'cargo'.")
                signers[str(role)] = {k: _text(doc, (key, role, k), person[k]) for k in ("nome", "cargo")}
            out["assinantes"] = signers
    return out


def _verification_url(doc: YamlDoc, value: Any) -> str:
    """``url_verificacao``: an http(s) address with ``{codigo}`` once, where each document's code goes."""
    from autos.render.verification import URL_CODE

    url = _text(doc, ("url_verificacao",), value)
    hint = "escreva o endereço da página de verificação com {codigo} onde entra o código, p. ex. " \
           "https://www.municipio.mg.gov.br/verificar?codigo={codigo}."
    if url.count(URL_CODE) != 1:
        raise doc.error(RenderError, ("url_verificacao",), f"a url_verificacao '{url}' deve ter {URL_CODE} uma vez, "
                        "onde entra o código do documento.", hint)
    if not _URL.match(url.replace(URL_CODE, "X")):
        raise doc.error(RenderError, ("url_verificacao",), f"a url_verificacao '{url}' não é um endereço http:// ou "
                        "https:// sem espaços.", hint)
    return url


def _pix(doc: YamlDoc, value: Any) -> Any:
    """``pix: {chave, nome, cidade}``: the receiver of the demonstrativo's BR Code, checked now (a key that is no
    CPF, CNPJ, e-mail, +55 phone or random key; a name or city too long for the BR Code) with the line."""
    from autos.documents.pix import parse_config
    from autos.errors import PixConfigError

    if not isinstance(value, dict) or set(value) != _PIX_KEYS:
        raise doc.error(RenderError, ("pix",), "'pix' deve ter 'chave', 'nome' e 'cidade' (e nada mais).",
                        "p. ex. pix: {chave: 18.299.446/0001-24, nome: MUNICIPIO DE TIMOTEO, cidade: Timóteo}.")
    typed = {k: value[k] if isinstance(value[k], str) else None for k in _PIX_KEYS}
    for k, v in typed.items():
        if v is None:
            raise doc.error(RenderError, ("pix", k), f"pix.{k} deve ser um texto (entre aspas).",
                            "escreva o valor entre aspas, numa linha.")
    try:
        return parse_config(str(typed["chave"]), str(typed["nome"]), str(typed["cidade"]))
    except PixConfigError as exc:
        raise doc.error(RenderError, ("pix", exc.key), exc.message, exc.hint) from None
