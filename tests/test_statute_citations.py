"""The rules read against the statute text: every citation of the rules is a dispositivo the text has, and each
rule listed in :data:`QUOTES` cites the dispositivo whose text says what the rule says (a phrase quoted from it)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from autos.app.coverage import read_statute_text, statute_text_file
from autos.base.yamlio import load_yaml
from autos.rules.coverage import MISSING, node_at
from autos.rules.statute import load_rules
from autos.rules.statute_text import Dispositivo, FoundDispositivo

from .conftest import ROOT

RULES = ROOT / "rules"
CUIABA = "cuiaba-mt/lei-3666-1997"
TIMOTEO = "timoteo-mg/lei-3844-2022"
FERRAZ = "ferraz-de-vasconcelos-sp/lei-3240-2015"
LAWS = [CUIABA, TIMOTEO, FERRAZ]

#: rule (file#path of a node with a ``citacao``) → words of the cited dispositivo's text, as published
QUOTES: dict[str, dict[str, str]] = {
    CUIABA: {
        # infractions: the prohibition or duty each one breaks
        "lei-3666-1997.yaml#infracoes/animal-solto": "PROIBIDO a permanência de animais soltos nas vias",
        "lei-3666-1997.yaml#infracoes/cao-sem-guia": "exceto com o uso adequado de coleira e guia",
        "lei-3666-1997.yaml#infracoes/cao-bravio-sem-mordaca": "somente poderão sair às ruas devidamente amordaçados",
        "lei-3666-1997.yaml#infracoes/condicoes-inadequadas":
            "manutenção dos animais em perfeitas condições de alojamento, alimentação, saúde e bem estar",
        "lei-3666-1997.yaml#infracoes/dejetos-em-via-publica": "remoção de dejetos por eles deixados nas vias públicas",
        "lei-3666-1997.yaml#infracoes/abandono-de-animal": "PROIBIDO abandonar animais vivos ou mortos",
        "lei-3666-1997.yaml#infracoes/impedir-acesso-do-agente":
            "obrigado a permitir o acesso de Agente Sanitário e/ou Agente de Controle de Zoonoses",
        "lei-3666-1997.yaml#infracoes/falta-de-vacina-antirrabica": "permanentemente imunizado contra a raiva",
        "lei-3666-1997.yaml#infracoes/cadaver-sem-destino-adequado": "disposição adequada do cadáver",
        "lei-3666-1997.yaml#infracoes/acumulo-de-lixo-sinantropicos":
            "PROIBIDO o acúmulo de lixo, materiais inservíveis",
        "lei-3666-1997.yaml#infracoes/pneus-com-colecoes-liquidas": "mantê-los permanentemente cobertos e enxutos",
        "lei-3666-1997.yaml#infracoes/obra-sem-drenagem": "obrigatória a drenagem permanente de coleções líquidas",
        "lei-3666-1997.yaml#infracoes/fauna-exotica": "alojamento de animais selvagens da fauna exótica",
        "lei-3666-1997.yaml#infracoes/exibicao-sem-laudo":
            "exibição artística ou circense de animais, após a concessão do laudo",
        "lei-3666-1997.yaml#infracoes/excesso-de-animais":
            "mais de 10 (dez) animais, no total, das espécies canina ou felina",
        "lei-3666-1997.yaml#infracoes/canil-sem-laudo":
            "canis de propriedade privada somente poderão funcionar após vistoria técnica",
        "lei-3666-1997.yaml#infracoes/animal-em-recinto-coletivo": "proibido a permanência de animais nos recintos",
        "lei-3666-1997.yaml#infracoes/exibicao-animal-bravio": "exibição de toda e qualquer espécie de animal bravio",
        "lei-3666-1997.yaml#infracoes/animal-em-vitrine": "exposição de animais vivos em vitrines",
        "lei-3666-1997.yaml#infracoes/comercio-sem-laudo":
            "comercialização de animais, vivos, com fins não alimentícios, ficam sujeitos à obtenção de laudo",
        "lei-3666-1997.yaml#infracoes/tracao-com-animal-ferido": "animais feridos, enfraquecidos ou doentes",
        "lei-3666-1997.yaml#infracoes/desacato-ao-agente": "desrespeito ou desacato ao Agente Sanitário",
        # penalties
        "lei-3666-1997.yaml#penalidades/multa": "I. Multa;",
        "lei-3666-1997.yaml#penalidades/apreensao": "II. Apreensão do animal;",
        "lei-3666-1997.yaml#penalidades/interdicao": "Interdição total ou parcial, temporária ou permanente",
        "lei-3666-1997.yaml#penalidades/cassacao": "Cassação de Alvará de Funcionamento",
        "lei-3666-1997.yaml#penalidades/despesas-apreensao":
            "ficará sujeito ao pagamento de despesas a que se refere o artigo 11",
        "lei-3666-1997.yaml#penalidades/multa/calculo/niveis/leve": "natureza leve",
        "lei-3666-1997.yaml#penalidades/multa/calculo/niveis/grave": "natureza grave",
        "lei-3666-1997.yaml#penalidades/multa/calculo/niveis/gravissima": "natureza gravíssima",
        "lei-3666-1997.yaml#penalidades/multa/calculo/reincidencia": "Na reincidência, a multa será aplicada em dobro",
        "lei-3666-1997.yaml#penalidades/despesas-apreensao/calculo": "ficam adotados os seguintes valores (em UPF)",
        "lei-3666-1997.yaml#penalidades/despesas-apreensao/calculo/especies/canina": "espécies canina, felina e aves",
        "lei-3666-1997.yaml#penalidades/despesas-apreensao/calculo/especies/suina": "espécies ovina, caprina e suína",
        "lei-3666-1997.yaml#penalidades/despesas-apreensao/calculo/especies/bovina": "espécie bovina e eqüídeos",
        # documents, competence, procedure
        "lei-3666-1997.yaml#documentos/auto_de_infracao/elementos/CBA-37-AGENTE":
            "Agentes Sanitários e Agentes de Controle de Zoonoses são competentes",
        "lei-3666-1997.yaml#documentos/termo_apreensao/elementos/CBA-11-1-RECOLHIMENTO":
            "serão recolhidos ao Centro de Controle de Zoonoses",
        "lei-3666-1997.yaml#documentos/termo_apreensao/elementos/CBA-11-2-RESGATE": "prazo de 03 (três) dias úteis",
        "lei-3666-1997.yaml#documentos/termo_apreensao/clausulas/0": "somente poderão ser resgatados se constatado",
        "lei-3666-1997.yaml#documentos/termo_apreensao/clausulas/2":
            "qualquer das demais destinações previstas no presente Artigo",
        "lei-3666-1997.yaml#documentos/termo_apreensao/clausulas/3": "não responde por indenização",
        "lei-3666-1997.processo.yaml#atos/apreensao": "Será apreendido todo e qualquer animal",
        "lei-3666-1997.processo.yaml#atos/restituicao": "I. Resgate;",
        "lei-3666-1997.processo.yaml#atos/destinacao": "O animal que não for retirado neste prazo",
        "lei-3666-1997.processo.yaml#atos/interdicao": "Interdição total ou parcial",
        "lei-3666-1997.processo.yaml#atos/auto": "são competentes para aplicação das penalidades",
    },
    TIMOTEO: {
        "lei-3844-2022.yaml#infracoes/fiscalizacao-previa": "obrigatoriedade da fiscalização prévia",
        "lei-3844-2022.yaml#infracoes/funcionamento-sem-registro":
            "Nenhum estabelecimento industrial ou entreposto de produtos de origem animal poderá funcionar",
        "lei-3844-2022.yaml#infracoes/inobservancia-normas-sanitarias":
            "toda ação ou omissão que resulte em inobservância ou desobediência",
        "lei-3844-2022.yaml#penalidades/advertencia": "advertência, quando o infrator for primário",
        "lei-3844-2022.yaml#penalidades/multa":
            "multa, no valor de cem (100) a trinta mil (30.000) Unidade Padrão Fiscal",
        "lei-3844-2022.yaml#penalidades/apreensao": "apreensão de apetrechos, equipamentos, maquinários",
        "lei-3844-2022.yaml#penalidades/condenacao": "condenação e inutilização de apetrechos",
        "lei-3844-2022.yaml#penalidades/suspensao": "suspensão da atividade nos casos em que",
        "lei-3844-2022.yaml#penalidades/interdicao": "interdição total ou parcial do estabelecimento",
        "lei-3844-2022.yaml#penalidades/cassacao": "cassação registro do estabelecimento ou do produto junto ao SIM",
        "lei-3844-2022.yaml#penalidades/multa/efeito_circunstancias": "circunstâncias atenuantes e agravantes",
        "lei-3844-2022.yaml#circunstancias/atenuantes/a": "a) primariedade;",
        "lei-3844-2022.yaml#circunstancias/atenuantes/b": "b) não embaraço a fiscalização;",
        "lei-3844-2022.yaml#circunstancias/atenuantes/c": "c) capacidade econômica do infrator;",
        "lei-3844-2022.yaml#circunstancias/atenuantes/d": "não acarretar vantagem econômica",
        "lei-3844-2022.yaml#circunstancias/atenuantes/e": "e) a infração não afetar a qualidade do produto.",
        "lei-3844-2022.yaml#circunstancias/agravantes/a": "a) reincidência do infrator;",
        "lei-3844-2022.yaml#circunstancias/agravantes/b": "b) embaraço ou obstáculo à ação fiscal;",
        "lei-3844-2022.yaml#circunstancias/agravantes/c": "cometida para obtenção de proveito econômico",
        "lei-3844-2022.yaml#circunstancias/agravantes/d": "d) dolo ou má-fé;",
        "lei-3844-2022.yaml#circunstancias/agravantes/e": "e) descaso com a autoridade fiscalizadora;",
        "lei-3844-2022.yaml#circunstancias/agravantes/f": "causar dano à população ou ao consumidor",
        "lei-3844-2022.yaml#circunstancias/agravantes/g": "a infração afetar a qualidade do produto.",
        "lei-3844-2022.yaml#reducoes/pequeno-porte": "redução de cinquenta por cento (50%)",
        "lei-3844-2022.yaml#documentos/auto_de_infracao": "São autoridades competentes para lavrar auto de infração",
        "lei-3844-2022.yaml#documentos/auto_de_infracao/nulidade": "sob pena de nulidade",
        "lei-3844-2022.yaml#documentos/auto_de_infracao/elementos/TIM-20-1-I":
            "o nome e a qualificação do autuado",
        "lei-3844-2022.yaml#documentos/auto_de_infracao/elementos/TIM-20-1-II": "local, data e hora da sua lavratura",
        "lei-3844-2022.yaml#documentos/auto_de_infracao/elementos/TIM-20-1-III": "a descrição do fato infracional",
        "lei-3844-2022.yaml#documentos/auto_de_infracao/elementos/TIM-20-1-IV": "o dispositivo legal ou regulamentar",
        "lei-3844-2022.yaml#documentos/auto_de_infracao/elementos/TIM-20-1-V": "o prazo para apresentação de defesa",
        "lei-3844-2022.yaml#documentos/auto_de_infracao/elementos/TIM-20-1-VI":
            "a assinatura e identificação do médico veterinário oficial",
        "lei-3844-2022.yaml#documentos/auto_de_infracao/elementos/TIM-20-1-VII": "a assinatura do autuado",
        "lei-3844-2022.yaml#documentos/auto_de_infracao/elementos/TIM-6-VET":
            "responsabilidade exclusiva de médico veterinário oficial",
        "lei-3844-2022.yaml#documentos/termo_apreensao/elementos/TIM-16-4-DEPOSITARIO":
            "será o fiel depositário do produto",
        "lei-3844-2022.yaml#documentos/termo_apreensao/clausulas/0": "sob as penas da lei de depositário",
        "lei-3844-2022.yaml#documentos/termo_apreensao/clausulas/1": "serão repassadas pelo ente ao responsável legal",
        "lei-3844-2022.yaml#documentos/termo_apreensao/clausulas/2":
            "programas de segurança alimentar e combate à fome",
        "lei-3844-2022.yaml#documentos/demonstrativo_debito/clausulas/0": "inscrição do débito na dívida ativa",
        "lei-3844-2022.yaml#documentos/demonstrativo_debito/clausulas/1": "depositados em conta específica",
        "lei-3844-2022.yaml#documentos/certidao_juntada_ar": "com a juntada do aviso de recebimento aos autos",
        "lei-3844-2022.yaml#documentos/certidao_publicacao_edital": "dez (10) dias após a publicação",
        "lei-3844-2022.yaml#documentos/termo_levantamento_interdicao": "levantar a suspensão ou a interdição",
        "lei-3844-2022.processo.yaml#atos/auto": "São autoridades competentes para lavrar auto de infração",
        "lei-3844-2022.processo.yaml#atos/notificacao_pessoal": "pessoalmente ou por seu representante legal",
        "lei-3844-2022.processo.yaml#atos/notificacao_recusa": "certificará o ocorrido na presença de uma testemunha",
        "lei-3844-2022.processo.yaml#atos/notificacao_ar": "por via postal, mediante carta registrada",
        "lei-3844-2022.processo.yaml#atos/edital": "por edital, se estiver em local incerto ou desconhecido",
        "lei-3844-2022.processo.yaml#atos/defesa": "assegurado o direito à ampla defesa e ao contraditório",
        "lei-3844-2022.processo.yaml#atos/julgamento": "apuradas em processo administrativo próprio",
        "lei-3844-2022.processo.yaml#atos/recurso": "o processamento das infrações e seus recursos",
        "lei-3844-2022.processo.yaml#atos/inscricao_divida_ativa": "inscrição do débito na dívida ativa",
    },
}


#: rules the legal review (issue 13, item 3) found wrong — conditions of a penalty encoded as infractions — and that
#: are being mended elsewhere: they have no quote, and the coverage table marks their dispositivos pendente
UNDER_REVIEW = {
    TIMOTEO: {"lei-3844-2022.yaml#infracoes/embaraco-fiscalizacao",
              "lei-3844-2022.yaml#infracoes/adulteracao-habitual"},
}


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split()).casefold()


def _texts(lei: str) -> dict[Dispositivo, FoundDispositivo]:
    return {f.dispositivo: f for f in read_statute_text(statute_text_file(load_rules(RULES), lei))}


def _citations(node: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        for key, value in node.items():
            child = f"{path}/{key}" if path else str(key)
            if key.startswith("citacao") and isinstance(value, dict) and "artigo" in value:
                yield child, value
            else:
                yield from _citations(value, child)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _citations(item, f"{path}/{i}")


def _dispositivo(citacao: dict[str, Any]) -> Dispositivo:
    return Dispositivo(str(citacao["artigo"]), citacao.get("paragrafo"), citacao.get("inciso"), citacao.get("alinea"))


def _rules_files(lei: str) -> list[Path]:
    folder, stem = lei.split("/")
    return [p for p in (RULES / folder / f"{stem}{suffix}" for suffix in (".yaml", ".processo.yaml"))
            if p.is_file()]


@pytest.mark.parametrize("lei", LAWS)
def test_every_citation_of_the_rules_is_a_dispositivo_of_the_text(lei: str) -> None:
    texts = _texts(lei)
    wrong = []
    for file in _rules_files(lei):
        for path, citacao in _citations(load_yaml(file).data):
            if citacao.get("anexo") is None and _dispositivo(citacao) not in texts:
                wrong.append(f"{file.name}#{path}: {_dispositivo(citacao).short()}")
    assert not wrong, "citações que o texto da lei não tem:\n" + "\n".join(wrong)


def _quotes() -> list[Any]:
    return [pytest.param(lei, where, words, id=f"{lei.split('/')[0]}:{where.split('#', 1)[1]}")
            for lei, quotes in QUOTES.items() for where, words in quotes.items()]


@pytest.mark.parametrize(("lei", "where", "words"), _quotes())
def test_rule_cites_the_dispositivo_that_says_it(lei: str, where: str, words: str) -> None:
    file, _, path = where.partition("#")
    folder = lei.split("/")[0]
    node = node_at(load_yaml(RULES / folder / file).data, path)
    assert node is not MISSING, f"{where} não existe nas regras"
    assert isinstance(node, dict), f"{where} não é um mapa"
    citacao = node if "artigo" in node else node.get("citacao")  # the node is a citation, or has one
    assert isinstance(citacao, dict), f"{where} não tem citacao"
    found = _texts(lei)[_dispositivo(citacao)]
    assert _fold(words) in _fold(found.texto), f"{found.dispositivo.short()} (linha {found.linha}): {found.texto}"


@pytest.mark.parametrize("lei", [CUIABA, TIMOTEO])
def test_every_infraction_and_penalty_has_its_quote(lei: str) -> None:
    folder, stem = lei.split("/")
    data = load_yaml(RULES / folder / f"{stem}.yaml").data
    quoted = set(QUOTES[lei]) | UNDER_REVIEW.get(lei, set())
    for section in ("infracoes", "penalidades"):
        for rule_id in data[section]:
            assert f"{stem}.yaml#{section}/{rule_id}" in quoted, f"{section}/{rule_id}"


def test_cuiaba_orgao_is_the_one_of_art2_and_art3_iv() -> None:
    """Art. 2º: the Centro de Controle de Zoonoses da Fundação de Saúde de Cuiabá executes the law; art. 3º, IV:
    it is the Órgão Sanitário Responsável — the body the documents are issued by (``lei.orgao``)."""
    orgao = _fold(load_rules(RULES).get(CUIABA).lei.orgao)
    texts = _texts(CUIABA)
    body = _fold("Centro de Controle de Zoonoses da Fundação de Saúde de Cuiabá")
    assert body in orgao and body in _fold(texts[Dispositivo("2")].texto)
    assert "órgão sanitário responsável" in orgao
    art3_iv = _fold(texts[Dispositivo("3", inciso="IV")].texto)
    assert art3_iv.startswith("iv. órgão sanitário responsável: o centro de controle de zoonoses")


def test_timoteo_orgao_is_the_sim() -> None:
    """Arts. 5º (caput and V) and 10: the Serviço de Inspeção Municipal (SIM) applies the sanctions and enforces the
    law — the body the documents are issued by (``lei.orgao``)."""
    orgao = _fold(load_rules(RULES).get(TIMOTEO).lei.orgao)
    texts = _texts(TIMOTEO)
    assert "serviço de inspeção municipal de produtos de origem animal — sim" in orgao
    assert "são atribuições do serviço de inspeção municipal — sim" in _fold(texts[Dispositivo("5")].texto)
    assert "aplicar as sanções previstas nesta lei" in _fold(texts[Dispositivo("5", inciso="V")].texto)
    assert "ficará a cargo do serviço de inspeção municipal" in _fold(texts[Dispositivo("10")].texto)
