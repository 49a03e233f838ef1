"""Preview and issue of one act's document: ``autos.app.register.preview``.

A preview is the act's PDF in memory, MINUTA while it has errors, and renders only that act; an issue writes the
act's PDF and DOCX and records their SHA-256 in the register, and is refused (nothing written) while there are
errors; an issued file is found through the register and served only while it still has the recorded hash.
Three documents are rendered in the whole module (one preview, one issue of PDF + DOCX)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

import pytest

from autos.app.generation.pipeline import Autos
from autos.app.register.preview import issue, issued_documents, issued_file, preview
from autos.errors import InputError, NotFoundError, RefusedError, RegisterError
from autos.store.register import Register

from .conftest import SAMPLES
from .textutil import docx_text, pdf_text

pytestmark = pytest.mark.xdist_group("test_preview_issue")

SEM_DEFESA = SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000171-sem-defesa.yaml"
LOCAL = "    local: Feira livre da Praça 1º de Maio, Timóteo/MG\n"


def _folder(tmp_path: Path, *, without_local: bool = False) -> tuple[Path, Path]:
    """A processo file (the auto without its place of lavratura, art. 20, § 1º, II, when asked) beside a new
    register."""
    folder = tmp_path / "processos"
    folder.mkdir()
    target = folder / SEM_DEFESA.name
    shutil.copy(SEM_DEFESA, target)
    if without_local:
        text = target.read_text(encoding="utf-8")
        assert text.count(LOCAL) == 2  # the auto's and the apreensão's
        target.write_text(text.replace(LOCAL, "", 1), encoding="utf-8")
    register = folder / "registro.sqlite3"
    Register.open(register, create=True).close()
    return target, register


def test_preview_of_an_act_with_errors_is_a_minuta_listing_them_and_renders_only_that_act(
        autos: Autos, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    file, _ = _folder(tmp_path, without_local=True)
    rendered: list[str] = []
    real = autos.pdf_renderer.pdf

    def counting(template: str, context: dict[str, Any], **kw: Any) -> bytes:
        rendered.append(template)
        return real(template, context, **kw)

    monkeypatch.setattr(autos.pdf_renderer, "pdf", counting)
    shown = preview(autos, file, 1)
    assert len(rendered) == 1  # the processo has three acts with documents: only the auto was rendered
    assert shown.minuta and shown.nome.endswith("-ato-01-MINUTA.pdf") and shown.documento == "auto_de_infracao"
    text = pdf_text(shown.pdf)
    assert "MINUTA" in text and "21/2026" in text
    assert "art. 20, § 1º, inciso II" in text  # the missing element, with its article, listed in the draft
    assert [f.codigo for f in shown.achados if f.severidade == "erro"] == ["TIM-20-1-II"]


def test_issue_is_refused_while_there_are_errors_and_writes_nothing(autos: Autos, tmp_path: Path) -> None:
    file, register = _folder(tmp_path, without_local=True)
    out = tmp_path / "saida"
    with pytest.raises(RefusedError) as err:
        issue(autos, file, 1, out, register)
    message = str(err.value)
    assert "ato 1 (Auto de Infração de 01/10/2026): 1 pendência; nada foi emitido" in message
    assert "TIM-20-1-II" in message and "Lei nº 3.844/2022, art. 20, § 1º, inciso II" in message
    assert "atos[0].local" in message
    assert err.value.exit_code == 1
    assert not out.exists()
    with Register.open(register, readonly=True) as r:
        assert issued_documents(r, file) == []


def test_issue_writes_pdf_and_docx_records_their_hashes_and_serves_them_only_unchanged(
        autos: Autos, tmp_path: Path) -> None:
    file, register = _folder(tmp_path)
    out = tmp_path / "processos" / "emitidos"
    done = issue(autos, file, 1, out, register)
    names = sorted(d.path.name for d in done.documentos)
    assert names == ["auto-de-infracao-timoteo-mg-sim-2026-000171-ato-01.docx",
                     "auto-de-infracao-timoteo-mg-sim-2026-000171-ato-01.pdf"]
    for d in done.documentos:
        assert hashlib.sha256(d.path.read_bytes()).hexdigest() == d.sha256 and not d.inalterado
    pdf = out / names[1]
    text = pdf_text(pdf.read_bytes())
    assert "MINUTA" not in text and "21/2026" in text and "José Carlos Pereira" in text
    assert "José Carlos Pereira" in docx_text((out / names[0]).read_bytes())
    again = issue(autos, file, 1, out, register, por="ana", objeto="processo:x")  # the same act issued again
    assert [d.inalterado for d in again.documentos] == [True, True]  # same "gerado em" (the register's): same bytes
    assert again.gerado_em == done.gerado_em
    with Register.open(register, readonly=True) as r:
        (entry,) = [e for e in r.audit_of("processo:x") if e.acao == "emitiu"]
        assert entry.login == "ana" and entry.detalhe is not None and "idêntico ao já emitido" in entry.detalhe
        records = issued_documents(r, file)
        assert sorted((x.ato, x.documento, Path(x.caminho).name) for x in records) == [
            (1, "auto_de_infracao", names[0]), (1, "auto_de_infracao", names[1])]
        assert {x.sha256 for x in records} == {d.sha256 for d in done.documentos}
        served = issued_file(r, file, 1, "auto_de_infracao", "pdf")
        assert served.nome == names[1] and served.data == pdf.read_bytes()
        with pytest.raises(NotFoundError, match="nenhum documento PDF emitido para o ato 2"):
            issued_file(r, file, 2, "auto_de_infracao", "pdf")
        pdf.write_bytes(pdf.read_bytes() + b"%")  # changed after it was issued: not served
        with pytest.raises(InputError, match="não confere com o SHA-256 registrado"):
            issued_file(r, file, 1, "auto_de_infracao", "pdf")
        pdf.unlink()
        with pytest.raises(NotFoundError, match="não está mais em"):
            issued_file(r, file, 1, "auto_de_infracao", "pdf")


def test_issue_needs_a_register(autos: Autos, tmp_path: Path) -> None:
    folder = tmp_path / "sem-registro"
    folder.mkdir()
    file = folder / SEM_DEFESA.name
    shutil.copy(SEM_DEFESA, file)
    with pytest.raises(RegisterError, match="o documento emitido precisa ter o SHA-256 registrado"):
        issue(autos, file, 1, tmp_path / "saida")
    assert not (tmp_path / "saida").exists()


def test_preview_of_an_act_without_document_names_those_that_have_one(autos: Autos, tmp_path: Path) -> None:
    file, _ = _folder(tmp_path)
    with pytest.raises(InputError, match="não há ato 9"):
        preview(autos, file, 9)
    with pytest.raises(InputError, match="o ato 1 não tem o documento 'decisao'"):
        preview(autos, file, 1, "decisao")
