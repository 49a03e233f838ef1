"""Recording a published edital in its processo file: one act appended to ``atos:``, nothing else touched.

The clerk's file is text with comments, blank lines and a layout of its own; it is never re-serialised. The
new act is inserted as text right after the last act, indented like the acts above it, and every other byte
of the file stays as it was (checked: the new text minus the inserted block is the old text, and the new file
parses to the same processo plus exactly the new act). The file is replaced atomically (temporary file in the
same folder, fsync, rename) and only if it still has the bytes that were read: a file edited in between is
left alone and the run says so.

Idempotent: a file whose ``atos:`` already has this edital (same kind, number and auto) is not written.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Literal, Protocol

from autos.base.yamlio import read_limited
from autos.errors import AutosError, InputError, OutputError, RecordError, os_error_pt
from autos.processo.load import parse_processo
from autos.processo.model import Ato, Publicacao

__all__ = ["ActText", "EditalAct", "RecordError", "cancel_edital", "comment_out_act", "edital_recorded", "insert_act",
           "record_edital"]


class ActText(Protocol):
    """An act that can be appended as text: its lines at the file's indentation and the act they read as."""

    def lines(self, dash: int, key: int) -> list[str]: ...

    def ato(self) -> Ato: ...


@dataclass(frozen=True)
class EditalAct:
    """The edital act as the processo records it."""

    tipo: str  # the law's edital act kind (``edital``)
    numero: str  # "N/AAAA", the edital's number
    data: date  # the edital's own date
    referente: str  # the auto's number, as typed in the processo
    local: str  # "Município/UF"
    publicacoes: tuple[tuple[date, Literal["oficial", "jornal"], str], ...]  # (date, means, vehicle)
    comentario: str  # one comment line above the act (Portuguese): where it came from

    def ato(self) -> Ato:
        return Ato(tipo=self.tipo, numero=self.numero, data=self.data, referente=self.referente, local=self.local,
                   publicacoes=[Publicacao(data=d, meio=m, veiculo=v) for d, m, v in self.publicacoes])

    def lines(self, dash: int, key: int) -> list[str]:
        """The act as YAML block lines: ``-`` at column ``dash``, keys at column ``key``."""
        pad, first = " " * key, " " * dash + "-" + " " * (key - dash - 1)
        q = _quote
        out = [" " * dash + "# " + self.comentario,
               f"{first}tipo: {self.tipo}",
               f"{pad}numero: {q(self.numero)}",
               f"{pad}data: {self.data.isoformat()}",
               f"{pad}referente: {q(self.referente)}",
               f"{pad}local: {q(self.local)}",
               f"{pad}publicacoes:"]
        out += [f"{pad}  - {{data: {d.isoformat()}, meio: {m}, veiculo: {q(v)}}}" for d, m, v in self.publicacoes]
        return out


def _quote(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is valid YAML; non-ASCII kept as typed)."""
    return json.dumps(text, ensure_ascii=False)


def edital_recorded(acts: list[Ato], act: EditalAct) -> bool:
    """The processo already has this edital (same kind, number and auto)."""
    return any(a.tipo == act.tipo and a.numero == act.numero and a.referente == act.referente for a in acts)


_ITEM = re.compile(r"^( *)-( +|$)")


def insert_act(text: str, file: Path, act: ActText) -> str:
    """``text`` with ``act`` appended to its ``atos:`` list (block style), every other byte unchanged.

    :class:`RecordError` (in Portuguese, with the line) when the list cannot be extended as text: ``atos`` in
    flow style (``atos: [...]``), or a file the insertion would not leave as the same processo plus the act."""
    loaded = parse_processo(text, file)
    n = len(loaded.processo.atos)
    first_line, last_line = loaded.line_of(("atos", 0)), loaded.line_of(("atos", n - 1))
    lines = text.splitlines(keepends=True)
    if first_line is None or last_line is None:  # pragma: no cover - a parsed processo has lines for its acts
        raise RecordError("não foi possível localizar a lista 'atos' no arquivo.", file=file)
    m = _ITEM.match(lines[first_line - 1])
    k = _ITEM.match(lines[last_line - 1])
    if m is None or k is None:
        raise RecordError("a lista 'atos' está escrita em linha ([…]); o edital não pode ser acrescentado sem "
                          "reescrever o arquivo.", file=file, path="atos", line=first_line,
                          hint="escreva 'atos:' em blocos (um '- tipo: …' por linha), como em samples/processos, "
                          "e rode a publicação de novo; ou acrescente o ato do edital à mão (veja o livro).")
    dash = len(m.group(1))
    key = dash + 1 + len(m.group(2) or " ")
    end = _act_end(lines, last_line, dash)  # 1-based index of the last line that belongs to the last act
    newline = "\r\n" if "\r\n" in text else "\n"  # the file's own line ends
    before = "".join(lines[:end])
    if not before.endswith(("\n", "\r")):
        before += newline  # the last act ends the file without a line break: add one before the new act
    block = "".join(line + newline for line in act.lines(dash, key))
    result = before + block + "".join(lines[end:])
    # the insertion is only text: check that it reads back as the same processo plus exactly this act
    try:
        after = parse_processo(result, file).processo
    except AutosError as exc:
        raise RecordError(f"o arquivo não ficaria legível com o edital acrescentado ({exc.message}); nada foi "
                          "gravado.", file=file, path="atos", line=last_line,
                          hint="acrescente o ato do edital à mão (veja o livro de editais).") from None
    old = loaded.processo
    if (after.atos[:-1] != old.atos or after.atos[-1] != act.ato()
            or after.model_copy(update={"atos": old.atos}) != old):
        raise RecordError("o edital acrescentado não seria lido como o último ato do processo; nada foi gravado.",
                          file=file, path="atos", line=last_line,
                          hint="confira a indentação da lista 'atos' ou acrescente o ato do edital à mão.")
    return result



def _act_end(lines: list[str], start: int, dash: int) -> int:
    """The 1-based index of the last line of the act whose ``- tipo:`` line is ``start`` (1-based), its dash in
    column ``dash``: the act runs until the first line that is not blank, not a comment and not indented past the
    dash."""
    end = start
    for i in range(start, len(lines)):
        raw = lines[i].rstrip("\r\n")
        stripped = raw.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        if len(raw) - len(stripped) <= dash:
            break
        end = i + 1
    return end

def record_edital(file: Path, act: EditalAct) -> bool:
    """Append ``act`` to the processo ``file``; ``False`` if it is already there (nothing written).

    The file is read, the new text built and checked, and the file replaced only if it still has the bytes
    that were read (:class:`RecordError` otherwise: someone edited it in between; run again)."""
    raw, text, bom = _read(file)
    try:
        current = parse_processo(text, file).processo
    except InputError as exc:
        raise RecordError(f"o processo não pôde ser lido para registrar o edital: {exc.message}", file=exc.file,
                          path=exc.path, line=exc.line, hint=exc.hint) from None
    if edital_recorded(current.atos, act):
        return False
    if not any(a.numero == act.referente for a in current.atos):  # changed since it was selected
        raise RecordError(f"o processo não tem mais o ato nº {act.referente} (o auto publicado no edital "
                          f"{act.numero}); nada foi gravado nele.", file=file, path="atos",
                          hint="confira o número do auto no processo e acrescente o ato do edital à mão, com "
                          "'referente' ao auto (os dados do edital estão no livro: autos conferir --processo).")
    _replace(file, raw, (bom + insert_act(text, file, act)).encode("utf-8"))
    return True


def _replace(file: Path, raw: bytes, data: bytes) -> None:
    """Replace ``file`` (whose bytes were ``raw`` when read) by ``data``, atomically, keeping its mode; refused
    (:class:`RecordError`) if the file changed in between."""
    tmp = file.with_name(f".{file.name}.edital.tmp")
    try:
        mode = os.stat(file).st_mode & 0o7777
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        if read_limited(file, RecordError) != raw:  # edited while we were writing: leave it to the clerk
            raise RecordError("o arquivo do processo mudou enquanto o edital era registrado; nada foi gravado "
                              "nele.", file=file, hint="rode a publicação de novo: ela registra o edital no "
                              "arquivo como está agora (o edital já está no livro e não é publicado de novo).")
        os.replace(tmp, file)
    except OSError as exc:
        raise OutputError(f"não foi possível gravar o edital no arquivo do processo ({os_error_pt(exc)}).",
                          file=file, hint="corrija a permissão ou libere espaço e rode a publicação de novo: o "
                          "edital já está no livro e será registrado no processo.") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    with contextlib.suppress(OSError):
        fd = os.open(file.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _read(file: Path) -> tuple[bytes, str, str]:
    """The file's bytes, its text without a BOM, and the BOM."""
    raw = read_limited(file, RecordError)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("o arquivo não está em UTF-8.", file=file) from None
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    return raw, text.removeprefix(bom), bom


def comment_out_act(text: str, file: Path, index: int, header: list[str]) -> str:
    """``text`` with the act ``atos[index]`` turned into YAML comments (``# `` at the list's indentation), preceded
    by the ``header`` comment lines; every other byte unchanged. Checked: the new text reads as the same processo
    without exactly that act (:class:`RecordError` otherwise, nothing written)."""
    loaded = parse_processo(text, file)
    acts = loaded.processo.atos
    start = loaded.line_of(("atos", index))
    if start is None:  # pragma: no cover - a parsed processo has lines for its acts
        raise RecordError("não foi possível localizar o ato no arquivo.", file=file)
    lines = text.splitlines(keepends=True)
    m = _ITEM.match(lines[start - 1])
    if m is None:
        raise RecordError("a lista 'atos' está escrita em linha ([…]); o ato não pode ser anotado sem reescrever o "
                          "arquivo.", file=file, path="atos", line=start,
                          hint="escreva 'atos:' em blocos (um '- tipo: …' por linha) e rode de novo.")
    dash = len(m.group(1))
    end = _act_end(lines, start, dash)
    newline = "\r\n" if "\r\n" in text else "\n"
    block = [" " * dash + "# " + h + newline for h in header]
    for line in lines[start - 1:end]:
        body = line.rstrip("\r\n")
        ending = line[len(body):]
        block.append((" " * dash + "# " + body[dash:] if body.strip() else body) + ending)
    result = "".join(lines[:start - 1]) + "".join(block) + "".join(lines[end:])
    try:
        after = parse_processo(result, file).processo
    except AutosError as exc:
        raise RecordError(f"o arquivo não ficaria legível com o ato anotado ({exc.message}); nada foi gravado.",
                          file=file, path="atos", line=start) from None
    old = loaded.processo
    if after.atos != acts[:index] + acts[index + 1:] or after.model_copy(update={"atos": acts}) != old:
        raise RecordError("o ato anotado não sairia da lista de atos sem mudar o resto do processo; nada foi "
                          "gravado.", file=file, path="atos", line=start,
                          hint="anote o ato à mão (veja o livro de editais).")
    return result


def cancel_edital(file: Path, tipos: list[str], numero: str, referente: str, header: list[str]) -> bool:
    """Turn the edital act (a kind of ``tipos``, ``numero``, ``referente`` to the auto) of the processo ``file`` into
    comments, under
    ``header`` (why: the edital was cancelled), so the timeline no longer counts it; the text stays in the file.
    ``False`` if the file has no such act (already done, or never recorded): nothing written."""
    raw, text, bom = _read(file)
    try:
        current = parse_processo(text, file).processo
    except InputError as exc:
        raise RecordError(f"o processo não pôde ser lido para anotar o cancelamento: {exc.message}", file=exc.file,
                          path=exc.path, line=exc.line, hint=exc.hint) from None
    found = [i for i, a in enumerate(current.atos)
             if a.tipo in tipos and a.numero == numero and a.referente == referente]
    if not found:
        return False
    _replace(file, raw, (bom + comment_out_act(text, file, found[-1], header)).encode("utf-8"))
    return True
