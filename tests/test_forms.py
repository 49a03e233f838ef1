"""The form of a new processo and of a new act, without the web: built from the same plan as
``autos novo``; its draft gives the findings of ``autos validar`` on each field; the save writes the file the CLI
reads (round trip), reserves numbers and never loses an update."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from autos.app.forms import act_form
from autos.app.forms import processo_form as forms
from autos.app.generation.pipeline import Autos
from autos.cli import main
from autos.errors import EditConflictError, InputError, OutputError
from autos.processo.load import load_processo
from autos.processo.text import Slot, render_slots
from autos.store.register import Register

from .conftest import ROOT

TIM = "timoteo-mg/lei-3844-2022"
FER = "ferraz-de-vasconcelos-sp/lei-3240-2015"
CBA = "cuiaba-mt/lei-3666-1997"
HOJE = date(2026, 11, 30)

#: a complete Timóteo auto (Art. 20, § 1º, I–VII), as a clerk fills the form
TIM_FILLED = {
    "numero": "SIM-2026/000900", "autuado.nome": "Maria Aparecida dos Santos", "autuado.cpf": "251.983.460-98",
    "autuado.qualificacao": "brasileira, comerciante", "autuado.endereco.logradouro": "Rua das Flores",
    "autuado.endereco.numero": "120", "autuado.endereco.bairro": "Centro", "autuado.endereco.municipio": "Timóteo",
    "autuado.endereco.uf": "MG", "autuado.endereco.cep": "35180-000", "local": "Rua das Flores, 120",
    "fatos": "Constatado, em inspeção, produto sem registro.", "infracoes[0].norma.artigo": "23",
    "infracoes[0].norma.paragrafo": "unico",  # the rule of conduct of art. 15: art. 23, parágrafo único
    "atos[0].data": "2026-11-16", "atos[0].hora": "10:30", "atos[0].local": "Rua das Flores, 120",
    # the agent is a holder of the register of authorities (rules/timoteo-mg/autoridades.yaml), competent for the auto
    "atos[0].agente.nome": "Dr. João Batista Ferreira", "atos[0].agente.cargo": "Médico Veterinário",
    "atos[0].agente.matricula": "20.315", "atos[0].agente.crmv": "CRMV-MG 1234",
    "atos[0].agente.medico_veterinario_oficial": "true", "atos[0].penalidades[0].valor_base": "1500",
    # art. 16, § 2º and I: the range fine says why the amount, and why not the warning
    "atos[0].penalidades[0].motivo_valor": "Produto sem registro exposto à venda: gravidade e risco à saúde.",
    "atos[0].penalidades[0].motivo_nao_advertencia": "O risco à saúde não se afasta com a advertência.",
    "atos[0].assinaturas.autuado.situacao": "assinou", "atos[0].assinaturas.autuado.data": "2026-11-16",
    "atos[0].assinaturas.autuado.nome_de_quem_assinou": "Maria Aparecida dos Santos",
}


@pytest.fixture(scope="module")
def autos() -> Autos:
    return Autos(ROOT / "rules", today=HOJE)


def tim_form(autos: Autos, juridica: bool = False) -> forms.ProcessoForm:
    return forms.processo_form(autos, TIM, ["inobservancia-normas-sanitarias"], juridica=juridica)


def preset(form: forms.ProcessoForm) -> dict[str, str]:
    return {f.nome: f.valor for f in form.campos if not f.grupo}


def visible(form: forms.ProcessoForm) -> list[str]:
    return [f.nome for f in form.campos if not f.fixo]


def codes(report: forms.DraftReport) -> set[str]:
    return {f.codigo for _, f in report.achados}


# --- the form is built from the same plan as autos novo -----------------------------------------------


@pytest.mark.parametrize(("lei", "infracoes", "juridica"), [
    (TIM, ["inobservancia-normas-sanitarias"], False), (TIM, ["fiscalizacao-previa"], True),
    (CBA, ["animal-solto"], False), (FER, ["terreno-sem-limpeza", "show-ao-ar-livre-madrugada"], False),
])
def test_form_fields_are_the_keys_autos_novo_writes(tmp_path: Path, autos: Autos, lei: str, infracoes: list[str],
                                                    juridica: bool) -> None:
    target = tmp_path / "p.yaml"
    args = ["--regras", str(ROOT / "rules"), "novo", lei, "--numero", "X-1", "-o", str(target)]
    for i in infracoes:
        args += ["--infracao", i]
    result = CliRunner().invoke(main, args + (["--juridica"] if juridica else []))
    assert result.exit_code == 0, result.output

    def keys(node: Any, path: str = "") -> set[str]:
        out: set[str] = set()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
        for k, v in items:
            p = f"{path}[{k}]" if isinstance(k, int) else (f"{path}.{k}" if path else str(k))
            out.add(p)
            out |= keys(v, p)
        return out

    written = {k for k in keys(yaml.safe_load(target.read_text(encoding="utf-8"))) if not k.endswith("]")}
    form = forms.processo_form(autos, lei, infracoes, juridica=juridica)
    assert {f.nome for f in form.campos} == written


def test_choices_carry_their_article_and_fields_say_who_requires_them(autos: Autos) -> None:
    start = forms.processo_form(autos)
    assert {c.id for c in start.leis} == {TIM, FER, CBA} and not start.campos
    law = forms.processo_form(autos, TIM)
    inf = {c.id: c for c in law.infracoes}
    assert inf["inobservancia-normas-sanitarias"].citacao.endswith("art. 15")
    form = tim_form(autos)
    pens = {c.id: c.citacao for c in form.penalidades}
    assert "art. 16, inciso II" in pens["multa"] and form.penalidades_escolhidas == ("multa",)
    crmv = form.campo("atos[0].agente.crmv")
    assert crmv is not None and crmv.rotulo == "CRMV" and crmv.html_id == "campo-atos-0-agente-crmv"
    assert any("art. 20, § 1º, inciso VI" in r for r in crmv.exigido_por)
    vet = form.campo("atos[0].agente.medico_veterinario_oficial")
    assert vet is not None and vet.tipo == "sim_nao" and any("art. 6º" in r for r in vet.exigido_por)
    assert form.campo("autuado.cpf").tipo == "cpf"  # type: ignore[union-attr]
    assert form.campo("atos[0].data").tipo == "data"  # type: ignore[union-attr]
    assert form.campo("atos[0].hora").tipo == "hora"  # type: ignore[union-attr]
    assert form.campo("autuado.responsavel_legal.nome") is None
    pj = tim_form(autos, juridica=True)
    assert pj.campo("autuado.cnpj") is not None and pj.campo("autuado.responsavel_legal.cpf") is not None
    cba = forms.processo_form(autos, CBA, ["animal-solto"])
    grav = cba.campo("infracoes[0].gravidade")
    assert grav is not None and grav.tipo == "escolha" and {v for v, _ in grav.opcoes} >= {"leve", "grave"}
    # a penalty chosen brings the fields it needs
    sus = forms.processo_form(autos, TIM, ["inobservancia-normas-sanitarias"], penalidades=["multa", "apreensao"])
    assert sus.campo("atos[0].penalidades[1].itens[0].descricao") is not None


@pytest.mark.parametrize(("lei", "infracoes", "penalidades", "words"), [
    ("nada/lei-1", [], None, ["lei 'nada/lei-1' não encontrada", TIM]),
    (TIM, ["nao-existe"], None, ["infração 'nao-existe' não existe", "fiscalizacao-previa"]),
    (FER, ["terreno-sem-limpeza"], ["cassacao"], ["penalidade 'cassacao' não é cabível", "multa"]),
])
def test_unknown_choices_are_refused_with_the_valid_ids(autos: Autos, lei: str, infracoes: list[str],
                                                        penalidades: list[str] | None, words: list[str]) -> None:
    with pytest.raises(InputError) as err:
        forms.processo_form(autos, lei, infracoes, penalidades=penalidades)
    for w in words:
        assert w in str(err.value)


# --- the draft: the findings of autos validar, on each field ------------------------------------------


def cli_findings(tmp_path: Path, text: str, name: str) -> list[tuple[str, str, str | None]]:
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--hoje", HOJE.isoformat(), "validar",
                                       "--json", str(f)])
    report = json.loads(result.output)[0]
    return sorted((a["codigo"], a["mensagem"], a["caminho"]) for a in report["achados"])


DRAFTS = {
    "vazio": {},
    "datado": {"atos[0].data": "2026-11-16"},
    "meio": {k: v for k, v in TIM_FILLED.items() if not k.startswith(("atos[0].agente", "autuado.endereco"))},
    "completo": TIM_FILLED,
    "recusa-sem-testemunha": {**TIM_FILLED, "atos[0].assinaturas.autuado.situacao": "recusou"},
}


@pytest.mark.parametrize("name", sorted(DRAFTS))
def test_draft_gives_the_same_findings_as_autos_validar_on_the_written_file(tmp_path: Path, autos: Autos,
                                                                            name: str) -> None:
    form = tim_form(autos)
    values = {**preset(form), "numero": "SIM-2026/000900", **DRAFTS[name]}
    report = forms.validate_draft(autos, values, campos=visible(form))
    assert report.legivel
    data, _ = forms.values_to_data(values)
    text = forms.processo_text(data)
    mine = sorted((f.codigo, f.mensagem, f.caminho) for _, f in report.achados)
    assert mine == cli_findings(tmp_path, text, "formulario.yaml")
    if name == "completo":
        assert report.valido
    # every finding about a field lands on a field of the form
    for campo, f in report.achados:
        if f.caminho is not None:
            assert campo in visible(form), f


def test_the_missing_elements_of_art_20_disappear_as_the_clerk_fills_them(autos: Autos) -> None:
    form = tim_form(autos)
    values = {**preset(form), "numero": "SIM-2026/000900", "atos[0].data": "2026-11-16"}
    names = visible(form)
    elements = {"TIM-20-1-I", "TIM-20-1-II", "TIM-20-1-III", "TIM-20-1-IV", "TIM-20-1-VI", "TIM-6-VET",
                "TIM-20-1-VII"}
    assert elements <= codes(forms.validate_draft(autos, values, campos=names))
    steps = [("TIM-20-1-I", ["autuado.nome", "autuado.cpf", "autuado.qualificacao", "autuado.endereco.logradouro",
                             "autuado.endereco.numero", "autuado.endereco.bairro", "autuado.endereco.municipio",
                             "autuado.endereco.uf", "autuado.endereco.cep"]),
             ("TIM-20-1-III", ["fatos"]),
             ("TIM-20-1-IV", ["infracoes[0].norma.artigo", "infracoes[0].norma.paragrafo"]),
             ("TIM-20-1-II", ["local", "atos[0].hora", "atos[0].local"]),
             ("TIM-20-1-VI", ["atos[0].agente.nome", "atos[0].agente.cargo", "atos[0].agente.matricula",
                              "atos[0].agente.crmv"]),
             ("TIM-6-VET", ["atos[0].agente.medico_veterinario_oficial"]),
             ("TIM-20-1-VII", ["atos[0].assinaturas.autuado.situacao", "atos[0].assinaturas.autuado.data",
                               "atos[0].assinaturas.autuado.nome_de_quem_assinou"])]
    left = set(elements)
    for code, fields in steps:
        for f in fields:
            values[f] = TIM_FILLED[f]
        left.discard(code)
        found = codes(forms.validate_draft(autos, values, campos=names))
        assert code not in found
        assert left <= found  # the others are still missing


@pytest.mark.parametrize(("field", "value", "words"), [
    ("autuado.cpf", "123.456.789-00", ["CPF '123.456.789-00' inválido", "11 dígitos"]),
    ("autuado.cpf", "111.111.111-11", ["todos os dígitos iguais"]),
    ("atos[0].hora", "25:00", ["hora '25:00' inválida", "HH:MM"]),
    ("atos[0].data", "16/11/2026", ["data inválida '16/11/2026'", "AAAA-MM-DD"]),
    ("atos[0].penalidades[0].valor_base", "1.500,00", ["não é um número", "ponto para decimais"]),
    ("autuado.endereco.uf", "mg", ["formato inválido"]),
    ("atos[0].agente.medico_veterinario_oficial", "talvez", ["'talvez' não é um valor lógico"]),
    ("autuado.apelido", "Zé", ["campo desconhecido 'autuado.apelido'"]),
])
def test_a_value_the_loader_refuses_is_on_its_field_with_the_loaders_message(
        tmp_path: Path, autos: Autos, field: str, value: str, words: list[str]) -> None:
    form = tim_form(autos)
    values = {**preset(form), **TIM_FILLED, field: value}
    report = forms.validate_draft(autos, values, campos=visible(form))
    assert not report.legivel and not report.valido
    bad = [(campo, f) for campo, f in report.achados if f.codigo == forms.UNREADABLE]
    assert len(bad) == 1
    campo, finding = bad[0]
    for w in words:
        assert w in finding.mensagem
    if field != "autuado.apelido":
        assert campo == field
        # the same message autos validar gives for the file (exit 2, the loader's error)
        data, _ = forms.values_to_data(values)
        f = tmp_path / "p.yaml"
        f.write_text(forms.processo_text(data), encoding="utf-8")
        with pytest.raises(InputError) as err:
            load_processo(f)
        assert finding.mensagem in str(err.value)
    # the rest is still checked: a missing element elsewhere is still found
    values.pop("fatos")
    again = forms.validate_draft(autos, values, campos=visible(form))
    assert any(campo == "fatos" and f.codigo != forms.UNREADABLE for campo, f in again.achados)


# --- the text written: readable, stable, and read back as typed --------------------------------------


TRICKY = ["null", "true", "Não", "14:30", "1e3", "0123", "2026-01-01", "- item", "a: b", "#x", "x #y", "@x", "'aspas",
          '"duplas"', "ç ã é", "trailing ", " leading", "linha 1\nlinha 2", "linha 1\n\nlinha 3", "fim\n",
          "{chave}", "[lista]", "% por cento", "R$ 1.500,00", "~", "yes", "off", "a\tb"]


@pytest.mark.parametrize("value", TRICKY)
def test_every_text_is_read_back_exactly_as_typed(tmp_path: Path, value: str) -> None:
    data = {"lei": TIM, "numero": value, "autuado": {"tipo": "pessoa_fisica", "nome": value}, "fatos": value,
            "atos": [{"tipo": "auto"}]}
    f = tmp_path / "p.yaml"
    f.write_text(forms.processo_text(data), encoding="utf-8")
    p = load_processo(f).processo
    assert p.numero == value.strip() and p.autuado.nome == value.strip() and p.fatos == value.strip()
    raw = yaml.safe_load(f.read_text(encoding="utf-8"))  # any YAML reader gives the same text
    assert raw["fatos"] == value and raw["numero"] == value


def test_render_writes_one_key_a_line_with_the_comment_above_and_lists_as_items() -> None:
    text = render_slots(["cabeçalho"], [
        Slot(("atos",), "os atos"), Slot(("atos", 0, "tipo"), "o auto", "auto"),
        Slot(("atos", 0, "numero"), "", '"1/2026"'),
        Slot(("atos", 1, "tipo"), "", "defesa"), Slot(("x", 0), "", "a")])
    assert text == ("# cabeçalho\n# os atos\natos:\n  # o auto\n  - tipo: auto\n    numero: \"1/2026\"\n"
                    "  - tipo: defesa\n- a\n")


# --- saving ------------------------------------------------------------------------------------------


def test_save_reserves_the_number_writes_the_file_the_cli_reads_and_never_overwrites(tmp_path: Path,
                                                                                     autos: Autos) -> None:
    form = tim_form(autos)
    values = {**preset(form), **TIM_FILLED, "fatos": "Constatado, em inspeção,\r\nproduto sem registro.\r\n\r\nFim."}
    with Register.open(tmp_path / "registro.sqlite3", create=True) as reg:
        saved = forms.save_new_processo(autos, values, tmp_path, reg)
        assert saved.arquivo == tmp_path / "timoteo-mg" / "sim-2026-000900.yaml"
        assert saved.reservados == ("auto nº 1/2026",)
        text = saved.arquivo.read_text(encoding="utf-8")
        assert "numero: \"1/2026\"" in text
        assert "fatos: |-\n  Constatado, em inspeção,\n  produto sem registro.\n\n  Fim." in text
        assert "# registro no CRMV" in text and "\r" not in text
        # the file validates as the draft said, with the register
        loaded = load_processo(saved.arquivo)
        assert loaded.processo.fatos == "Constatado, em inspeção,\nproduto sem registro.\n\nFim."
        draft = forms.validate_draft(autos, {**values, "atos[0].numero": "1/2026"}, campos=visible(form),
                                     file=saved.arquivo, register=reg)
        report = autos.validate(saved.arquivo)
        assert report.error is None
        assert sorted((f.codigo, f.mensagem) for f in report.findings) == sorted(
            (f.codigo, f.mensagem) for _, f in draft.achados)
        assert [f.codigo for f in saved.achados] == [f.codigo for f in report.findings]
        assert reg.processo_files(TIM, "SIM-2026/000900") == ["timoteo-mg/sim-2026-000900.yaml"]
        # again: refused, nothing written, nothing reserved
        before = saved.arquivo.read_bytes()
        with pytest.raises(OutputError, match="já existe"):
            forms.save_new_processo(autos, values, tmp_path, reg)
        assert saved.arquivo.read_bytes() == before
        other = forms.save_new_processo(autos, {**values, "numero": "SIM-2026/000901"}, tmp_path, reg)
        assert other.reservados == ("auto nº 2/2026",)
    assert sorted(p.name for p in (tmp_path / "timoteo-mg").iterdir()) == ["sim-2026-000900.yaml",
                                                                          "sim-2026-000901.yaml"]


def test_save_with_a_value_the_loader_refuses_writes_nothing_and_reserves_nothing(tmp_path: Path,
                                                                                  autos: Autos) -> None:
    form = tim_form(autos)
    with Register.open(tmp_path / "registro.sqlite3", create=True) as reg:
        with pytest.raises(forms.FormInvalid) as err:
            forms.save_new_processo(autos, {**preset(form), **TIM_FILLED, "autuado.cpf": "123"}, tmp_path, reg)
        assert "nada foi gravado" in str(err.value) and "CPF '123' inválido" in str(err.value)
        assert err.value.report.achados[0][0] == "autuado.cpf"
        assert reg.reservations() == []
    assert not (tmp_path / "timoteo-mg").exists()


# --- no lost update ----------------------------------------------------------------------------------


def saved_processo(tmp_path: Path, autos: Autos) -> Path:
    form = tim_form(autos)
    return forms.save_new_processo(autos, {**preset(form), **TIM_FILLED, "atos[0].numero": "7/2026"}, tmp_path).arquivo


def test_two_clerks_edit_the_same_processo_the_second_save_is_refused_with_what_changed(tmp_path: Path,
                                                                                         autos: Autos) -> None:
    file = saved_processo(tmp_path, autos)
    first = forms.load_for_edit(file)
    second = forms.load_for_edit(file)
    assert first.valores["autuado.nome"] == "Maria Aparecida dos Santos" and first.sha256 == second.sha256
    done = forms.save_processo(autos, {**first.valores, "autuado.nome": "Maria Aparecida dos Santos Lima"}, file,
                               first.sha256, base_text=first.texto)
    after = file.read_bytes()
    assert done.sha256 == forms.load_for_edit(file).sha256
    with pytest.raises(EditConflictError) as err:
        forms.save_processo(autos, {**second.valores, "local": "Praça Central"}, file, second.sha256,
                            base_text=second.texto)
    assert file.read_bytes() == after  # nothing written
    e = err.value
    assert e.exit_code == 1 and "alterado por outra pessoa" in e.message and "nada foi gravado" in e.message
    assert "-  nome: Maria Aparecida dos Santos\n" in e.diff
    assert "+  nome: Maria Aparecida dos Santos Lima\n" in e.diff
    assert "Praça Central" not in e.diff
    # a base text that is not the one of the hash gives no diff (it cannot be trusted), still refused
    with pytest.raises(EditConflictError) as err2:
        forms.save_processo(autos, second.valores, file, second.sha256, base_text="outro texto")
    assert err2.value.diff == ""


def test_a_new_act_is_appended_as_text_and_refused_when_the_file_changed(tmp_path: Path, autos: Autos) -> None:
    file = saved_processo(tmp_path, autos)
    original = file.read_text(encoding="utf-8")
    editing = forms.load_for_edit(file)
    loaded = load_processo(file)
    act = act_form.act_form(autos, loaded, "notificacao_pessoal")
    assert act.indice == 1 and ("auto" in {c.id for c in act.tipos}) is False
    ref = next(f for f in act.campos if f.nome == "atos[1].referente")
    assert ref.tipo == "escolha" and ref.opcoes == (("7/2026", "auto de infração nº 7/2026"),)
    values = {"atos[1].tipo": "notificacao_pessoal", "atos[1].data": "2026-11-17", "atos[1].referente": "7/2026"}
    draft = act_form.validate_act_draft(autos, file, values, campos=[f.nome for f in act.campos])
    assert draft.legivel
    saved = act_form.append_act(autos, file, editing.sha256, values, base_text=editing.texto)
    text = file.read_text(encoding="utf-8")
    assert text.startswith(original)  # every byte of the file as it was, the act after
    assert "  - tipo: notificacao_pessoal\n    data: 2026-11-17\n    referente: \"7/2026\"\n" in text
    assert [a.tipo for a in load_processo(file).processo.atos] == ["auto", "notificacao_pessoal"]
    assert sorted(f.codigo for f in saved.achados) == sorted(f.codigo for f in autos.validate(file).findings)
    with pytest.raises(EditConflictError) as err:  # the form still carries the old hash
        act_form.append_act(autos, file, editing.sha256, {**values, "atos[1].data": "2026-11-18"},
                         base_text=editing.texto)
    assert "+  - tipo: notificacao_pessoal" in err.value.diff
    assert file.read_text(encoding="utf-8") == text


SAMPLE_PROCESSOS = sorted(p for p in (ROOT / "samples").rglob("*.yaml")
                          if "\natos:" in p.read_text(encoding="utf-8"))


@pytest.mark.parametrize("sample", SAMPLE_PROCESSOS, ids=lambda p: str(p.relative_to(ROOT / "samples")))
def test_an_edit_that_changes_nothing_keeps_the_processo_and_its_findings(tmp_path: Path, autos: Autos,
                                                                          sample: Path) -> None:
    """Every sample processo, opened in the edit form and saved unchanged, reads back as the same processo with the
    same findings: the form loses nothing (flow mappings, later acts, optional fields), only the layout changes."""
    file = tmp_path / sample.name
    file.write_bytes(sample.read_bytes())
    before = load_processo(file).processo
    findings = sorted((f.codigo, f.mensagem, f.caminho) for f in autos.validate(file).findings)
    editing = forms.load_for_edit(file)
    forms.save_processo(autos, editing.valores, file, editing.sha256, base_text=editing.texto)
    assert load_processo(file).processo == before
    assert sorted((f.codigo, f.mensagem, f.caminho) for f in autos.validate(file).findings) == findings


def test_a_new_act_on_a_file_whose_acts_are_written_inline_is_refused_with_a_way_out(tmp_path: Path,
                                                                                     autos: Autos) -> None:
    file = tmp_path / "p.yaml"
    file.write_text(f"lei: {TIM}\nnumero: X-1\nautuado: {{tipo: pessoa_fisica}}\n"
                    "atos: [{tipo: auto, numero: \"1/2026\", data: 2026-11-16}]\n", encoding="utf-8")
    editing = forms.load_for_edit(file)
    with pytest.raises(InputError) as err:
        act_form.append_act(autos, file, editing.sha256, {"atos[1].tipo": "notificacao_pessoal",
                                                       "atos[1].data": "2026-11-17"})
    assert "escrita em linha" in str(err.value) and "edição do processo" in str(err.value)
    assert "edital" not in str(err.value)
    assert file.read_text(encoding="utf-8") == editing.texto
