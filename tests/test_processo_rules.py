"""Loading ``rules/<municipio-uf>/<lei>.processo.yaml``: the three laws load, and each broken file is an
error naming the file, the key and the line (one broken variant per failure, with the words expected)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from autos.errors import RulesError
from autos.rules.procedure import load_procedure
from autos.rules.statute import load_rules

from .conftest import ROOT

LAWS = ["timoteo-mg/lei-3844-2022", "ferraz-de-vasconcelos-sp/lei-3240-2015", "cuiaba-mt/lei-3666-1997"]


@pytest.mark.parametrize("lei", LAWS)
def test_each_law_has_procedure_rules(lei: str) -> None:
    proc = load_procedure(ROOT / "rules", lei)
    assert proc.initial_kind() == "auto"
    # every deadline an act starts is counted by the engine with the law's rules
    statute = load_rules(ROOT / "rules").statutes[lei]
    for kind, act in proc.atos.items():
        for s in act.inicia:
            if s.do_campo is not None:  # the act names its deadline (Ferraz art. 4º): every id it may name
                (el,) = [e for d in statute.documentos.values() for e in d.elementos
                         if e.prazo_campo == f"{s.do_campo}.prazo"]
                assert el.valores and all(v in proc.prazos and proc.law.deadline(v).base_legal for v in el.valores)
                continue
            assert s.prazo is not None and proc.law.deadline(s.prazo).base_legal, (kind, s.prazo)
    assert proc.interpretacoes, "silences of the law must be recorded as interpretations"


def test_processo_rules_reuse_the_prazos_file_ids() -> None:
    # Ferraz arts. 78–80 and Timóteo art. 16, § 3º are already in the prazos files: reused, not redeclared
    ferraz = load_procedure(ROOT / "rules", "ferraz-de-vasconcelos-sp/lei-3240-2015")
    assert ferraz.prazos["recurso_art78"].novo is None
    assert ferraz.prazos["decisao_recurso_art79"].novo is None
    assert ferraz.prazos["pagamento_art80"].novo is None
    timoteo = load_procedure(ROOT / "rules", "timoteo-mg/lei-3844-2022")
    assert timoteo.prazos["cassacao_por_interdicao_art16_p3"].novo is None
    # Ferraz art. 37 (second parágrafo único): the embargo's 30 days are new, with their article
    assert "art. 37" in ferraz.law.deadline("embargo_art37_pu").base_legal


def test_processo_rules_files_are_not_taken_for_statutes() -> None:
    assert set(load_rules(ROOT / "rules").statutes) == set(LAWS)


BROKEN = [
    # (what to replace, replacement, words the error must contain)
    ("processo_campos:", "processo_campo:", ["campo desconhecido 'processo_campo'"]),
    ("  auto:\n    nome: auto de infração\n", "  auto:\n    nome: auto de infração\n    nome: auto\n",
     ["chave duplicada 'nome'"]),
    ("      - {prazo: decisao_recurso_lei9784_art59_p1}", "      - {prazo: decisao_em_30_dias}",
     ["prazo 'decisao_em_30_dias' não está em 'prazos'"]),
    ("    segue: [julgamento]\n    cita: [julgamento]", "    segue: [sentenca]\n    cita: [julgamento]",
     ["ato 'sentenca' não está em 'atos'"]),
    ("  cassacao_por_interdicao_art16_p3:\n    acao:",
     "  cassacao_por_interdicao_art16_p3:\n    novo: {descricao: x, base_legal: y, tipo: meses, quantidade: 12, "
     "conta_de: z}\n    acao:", ["já existe em lei-3844-2022.prazos.yaml"]),
    ("  julgamento_lei9784_art49:\n    acao: julgamento\n    obrigado: administracao\n    cumprido_por: [julgamento]\n"
     "    prejudicado_por: [{ato: pagamento}]\n    novo:",
     "  julgamento_49:\n    acao: julgamento\n    obrigado: administracao\n    cumprido_por: [julgamento]\n"
     "    prejudicado_por: [{ato: pagamento}]\n    semnovo:", ["campo desconhecido 'semnovo'"]),
    ("      - {campo: hora, citacao: {artigo: \"20\", paragrafo: \"1\", inciso: \"II\"}}",
     "      - {campo: horario, citacao: {artigo: \"20\", paragrafo: \"1\", inciso: \"II\"}}",
     ["campo de ato desconhecido 'horario'"]),
    ("      - {prazo: decisao_recurso_lei9784_art59_p1}", "      - {prazo: decisao_recurso_lei9784_art59_p1, "
     "do_campo: exigencia}", ["indique 'prazo'", "ou 'do_campo: exigencia'", "um dos dois"]),
    ("    obrigado: autuado\n    cumprido_por: [defesa]", "    obrigado: o autuado\n    cumprido_por: [defesa]",
     ["valor inválido 'o autuado'"]),
]


@pytest.mark.parametrize(("old", "new", "words"), BROKEN)
def test_broken_procedure_rules_name_file_key_and_line(tmp_path: Path, old: str, new: str,
                                                       words: list[str]) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    file = rules / "timoteo-mg" / "lei-3844-2022.processo.yaml"
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_procedure(rules, "timoteo-mg/lei-3844-2022")
    err = info.value
    assert err.file is not None and err.file.endswith("lei-3844-2022.processo.yaml")
    assert err.line is not None
    changed = next(i for i, (a, b) in enumerate(zip(text.splitlines(), file.read_text().splitlines(), strict=False),
                                                  1) if a != b)
    assert abs(err.line - changed) <= 6, (err.line, changed)
    for w in words:
        assert w in str(err), str(err)


def test_missing_procedure_rules_is_a_rules_error(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="não tem regras de processo"):
        load_procedure(tmp_path, "timoteo-mg/lei-3844-2022")
