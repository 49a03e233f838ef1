"""The layout of every kind of PDF the samples generate, read back by pypdf: the verification code is never split
over two lines (a clerk types it from the paper: a code cut at a hyphen is read as two), and the signature block
is never alone on a page, detached from the text it signs."""

from __future__ import annotations

import io
import re

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from autos.cli import main

from .conftest import ROOT, SAMPLES

BASE = ["--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), "--hoje", "2026-11-29"]
LABEL = "Código de verificação:"
CODE = r"[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}"
#: the place and date that opens the signature block ("Timóteo/MG, 12 de março de 2026.")
PLACE_DATE = re.compile(r"^\S.*, \d{1,2}º? de [a-zç]+ de \d{4}\.?$")
_MARGIN_PT = 22 * 72 / 25.4  # templates/html/base.css: @page margin (top and bottom)
#: processos whose documents cover every kind samples/processos generates (a greedy cover of the demo's output)
COVER = ["ferraz-de-vasconcelos-sp/pm-fv-2026-005377-ruido-bar.yaml",
         "ferraz-de-vasconcelos-sp/pm-fv-2026-005102-edital.yaml",
         "cuiaba-mt/ccz-2026-0077-recurso.yaml", "ferraz-de-vasconcelos-sp/fv-2026-0531-embargo-ar-postado.yaml",
         "timoteo-mg/sim-2026-000180-interdicao.yaml", "timoteo-mg/sim-2026-000157-divida-ativa.yaml"]


def _lines(data: bytes) -> list[tuple[list[str], list[str]]]:
    """Each page's lines: (every line a reader sees, the lines of the page body between the margins)."""
    out = []
    for page in PdfReader(io.BytesIO(data)).pages:
        top = float(page.mediabox.top)
        rows: dict[float, list[tuple[float, str]]] = {}

        def visit(text: str, cm: list[float], tm: list[float], _font: object, size: float,
                  rows: dict[float, list[tuple[float, str]]] = rows) -> None:
            if not text.strip() or abs(size * (cm[3] or 1) * (tm[3] or 1)) < 2.0:  # the 1 pt footer carriers
                return
            y = round(tm[4] * cm[1] + tm[5] * cm[3] + cm[5], 0)
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            rows.setdefault(y, []).append((x, text))

        page.extract_text(visitor_text=visit)
        seen = [(y, " ".join(t.strip() for _x, t in sorted(parts) if t.strip())) for y, parts in
                sorted(rows.items(), reverse=True)]
        body = [t for y, t in seen if _MARGIN_PT - 1 < y < top - _MARGIN_PT + 1]
        out.append(([t for _y, t in seen], body))
    return out


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The PDFs of the demo processos that, together, generate every kind of document of samples/processos (the
    kind is the file name before the municipality): 15 kinds, with autos, decisions and demonstrativos whose
    signature block fell at a page end."""
    out = tmp_path_factory.mktemp("gerados")
    files = [str(SAMPLES / "processos" / f) for f in COVER]
    result = CliRunner().invoke(main, [*BASE, "gerar", *files, "-o", str(out)])
    assert result.exit_code == 0, result.output
    return {p.name: p.read_bytes() for p in sorted(out.glob("*.pdf"))}


def test_the_samples_generate_many_kinds_of_pdf(generated: dict[str, bytes]) -> None:
    kinds = {re.sub(r"-(cuiaba|ferraz|timoteo).*", "", name) for name in generated}
    assert len(kinds) == 15, kinds


def test_verification_code_is_never_split_over_two_lines(generated: dict[str, bytes]) -> None:
    bad = []
    for name, data in generated.items():
        found = 0
        for lines, _body in _lines(data):
            for line in lines:
                if LABEL in line:
                    found += 1
                    if not re.search(re.escape(LABEL) + r"\s*" + CODE + r"(\s|$)", line):
                        bad.append(f"{name}: {line!r}")
                elif re.search(r"(^|\s)[0-9A-Z]{4}-([0-9A-Z]{4}-?)?$", line):  # a code's head at a line's end
                    bad.append(f"{name}: {line!r}")
        if not found:
            bad.append(f"{name}: sem código de verificação")
    assert bad == []


def test_signature_block_never_opens_a_page(generated: dict[str, bytes]) -> None:
    """Its place and date line is never the first line of a page body: the text it signs ends on that page."""
    bad = []
    for name, data in generated.items():
        for n, (_lines_seen, body) in enumerate(_lines(data)):
            if n and body and PLACE_DATE.match(body[0]):
                bad.append(f"{name}, página {n + 1}: {body[:3]}")
    assert bad == []


# --- what the documents say (Lei nº 3.844/2022, art. 21, § 1º; Lei federal nº 9.784/1999, art. 26, § 1º) -------
def _text(data: bytes) -> str:
    return re.sub(r"\s+", " ", " ".join(" ".join(lines) for lines, _b in _lines(data)))


def test_refusal_certificate_names_who_received_the_copy(generated: dict[str, bytes]) -> None:
    """Art. 21, § 1º: the copy is handed over on refusal; the certificate says to whom, not "entrega-lhe"."""
    autos = {n: _text(d) for n, d in generated.items() if n.startswith("auto-de-infracao-timoteo")}
    refusals = {n: t for n, t in autos.items() if "recusou-se" in t}
    assert refusals
    for name, text in refusals.items():
        assert not re.search(r"entrega-lhe|lhe entreg", text), name
        assert re.search(r"entreg\w+ a cópia do auto (a|ao autuado,) [A-ZÁÉÍÓÚ]", text), name


def test_decision_notice_carries_the_decision_and_the_appeal(generated: dict[str, bytes]) -> None:
    """Lei 9.784/1999, art. 26, § 1º: the notice of a decision gives the decision (or where to read it) and says
    whether a further appeal lies; it does not speak of the copy of the auto."""
    notices = {n: _text(d) for n, d in generated.items() if n.startswith("notificacao-decisao")}
    assert notices
    for name, text in notices.items():
        assert "cópia do auto" not in text, name
        assert "inteiro teor da decisão" in text, name
        assert re.search(r"[Cc]abe recurso|não prevê outra instância", text), name


def test_interdiction_states_the_conditions_for_lifting(generated: dict[str, bytes]) -> None:
    texts = [_text(d) for n, d in generated.items() if n.startswith("termo-interdicao-timoteo")]
    assert texts and all("Condições para o levantamento:" in t for t in texts)


def test_protocol_receipt_records_the_date_and_never_rules_on_timeliness(generated: dict[str, bytes]) -> None:
    """Only the deciding authority rules on tempestividade; the receipt records the date of filing."""
    texts = {n: _text(d) for n, d in generated.items() if n.startswith("protocolo-")}
    assert texts
    for name, text in texts.items():
        assert not re.search(r"\btempestiv|\bintempestiv", text), name
        assert re.search(r"\d{1,2} de [a-zç]+ de \d{4}", text), name
