"""Every document kind of every law, rendered from the samples, checked by extracted text (DOCX and PDF).

For each sample, ``EXPECTED`` lists — by hand, with the article — the printed value of every element
the rules declare for its kind (the test fails if the rules declare an element without an entry here),
plus key computed values (deadline dates, amounts in words) under ``CALCULADOS``.
"""

from __future__ import annotations

import functools
import io
import shutil
import tempfile
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from autos.app.generation.pipeline import Autos
from autos.app.processo.service import is_processo_file
from autos.checks.validate import select
from autos.documents.edital import mask_cnpj, mask_cpf
from autos.errors import InputError, RefusedError, RulesError
from autos.processo import load_processo
from autos.processo.load_case import load_case

from .conftest import CASOS, DATA, ROOT, TODAY
from .textutil import docx_pdf_differences, docx_text, pdf_text

CALCULADOS = "calculados"  # key of the computed values (not an element code)
DOCS = DATA / "documents"

FERRAZ = "ferraz-de-vasconcelos-sp"
TIMOTEO = "timoteo-mg"
CUIABA = "cuiaba-mt"

EXPECTED: dict[str, dict[str, list[str]]] = {
    # --- Ferraz de Vasconcelos, Lei nº 3.240/2015 ---------------------------------------------------------
    f"{FERRAZ}/auto-terreno-sem-limpeza.yaml": {
        # the law does not list the elements of the auto: the rules' minimum (interpretation auto-elementos-minimos)
        "FER-76-AUTUADO": ["Roberto Alves de Souza", "408.617.352-26"],
        "FER-76-ENDERECO": ["Rua Bruno Altafin, 210 — Vila Romanópolis — Ferraz de Vasconcelos / SP — CEP 08540-000"],
        "FER-76-LAVRATURA": ["Rua Benedito Pereira de Moraes, lote 14, quadra C", "15 de setembro de 2026"],
        "FER-75-FATO": ["o terreno, com 350 m², permanece com mato alto"],
        "FER-75-DISPOSITIVO": ["Lei nº 3.240/2015, art. 4º — Não atender, no prazo de 30 dias"],
        # art. 75 ("penalidades legalmente previstas") with the article that sets the fine
        "FER-78-PENALIDADE": ["Multa (Lei nº 3.240/2015, art. 4º, combinado com o art. 75)"],
        "FER-76-AGENTE": ["Márcia Regina Tavares", "Agente Fiscal de Posturas", "Matrícula 4.712"],
        "FER-76-CIENCIA": ["Ciência: pessoalmente ou por representante legal, efetivada em 15 de setembro de 2026"],
        # art. 53, § 2º: only for an autuado under age (autuado.menor); this one is an adult (the minor's case is read
        # in tests/test_ferraz_coverage.py)
        "FER-53-2-RESPONSAVEIS": [],
        "FER-53-2-COMUNICACAO": [],
        CALCULADOS: [
            # art. 4º: 350 m² × 5 UFM ÷ 100 m² = 17,5 UFM (in proportion: the fraction is not a whole block)
            # × R$ 156,1935 = R$ 2.733,38625 → R$ 2.733,39
            "17,5 (dezessete inteiros e cinco décimos) UFM",
            "R$ 2.733,39 (dois mil setecentos e trinta e três reais e trinta e nove centavos)",
            # art. 78: 10 dias corridos from 15/09/2026 → 25/09/2026 (Friday)
            "até 25 de setembro de 2026",
            # art. 80: 10 dias úteis from 15/09/2026 (16–18, 21–25, 28, 29) → 29/09/2026
            "até 29 de setembro de 2026",
        ],
    },
    f"{FERRAZ}/notificacao-preliminar-terreno.yaml": {
        # art. 4º: the responsible is notified to clean the lot within 30 days, then fined
        "FER-NP-NOTIFICADO": ["Roberto Alves de Souza", "408.617.352-26"],
        "FER-NP-ENDERECO": ["Rua Bruno Altafin, 210 — Vila Romanópolis"],
        "FER-NP-CONSTATACAO": ["Rua Benedito Pereira de Moraes, lote 14, quadra C", "10 de agosto de 2026", "9h40"],
        "FER-NP-FATO": ["com mato de cerca de 1,5 m de altura"],
        "FER-NP-EXIGENCIA": ["Fica o notificado obrigado a roçar, capinar e limpar o terreno do lote 14, quadra C"],
        "FER-NP-PRAZO": ["Prazo para roçar, capinar e limpar o terreno: 30 (trinta) dias corridos",
                         "(Lei nº 3.240/2015, art. 4º)"],
        "FER-NP-CONSEQUENCIA": ["Lei nº 3.240/2015, art. 4º — Não atender, no prazo de 30 dias, notificação"],
        "FER-NP-PENALIDADE": ["Multa (Lei nº 3.240/2015, art. 4º, combinado com o art. 75)"],
        "FER-NP-AGENTE": ["Márcia Regina Tavares", "Agente Fiscal de Posturas", "Matrícula 4.712"],
        "FER-NP-CIENCIA": ["Ciência: pessoalmente ou por representante legal (Lei nº 3.240/2015, art. 76, I, e art. "
                           "77, I, aplicados por analogia), em 10 de agosto de 2026"],
        "FER-NP-DATAS": ["Ferraz de Vasconcelos/SP, 10 de agosto de 2026"],
        CALCULADOS: [
            # art. 4º: 30 dias corridos from the notice in person on 10/08/2026 → 09/09/2026 (Wednesday)
            "até 9 de setembro de 2026",
            # art. 4º, fine threatened: 350 m² × 5 UFM ÷ 100 m² = 17,5 UFM × R$ 156,1935 = R$ 2.733,39
            "17,5 (dezessete inteiros e cinco décimos) UFM",
            "R$ 2.733,39 (dois mil setecentos e trinta e três reais e trinta e nove centavos)",
        ],
    },
    f"{FERRAZ}/notificacao-ar-ruido-bar.yaml": {
        # art. 76, II: letter with AR, with a copy of the auto
        "FER-76-II-DESTINATARIO": ["Bar e Lanchonete Estrela do Leste Ltda.", "CNPJ 36.451.827/0001-69",
                                   "Rua Rui Barbosa, 745 — Centro — Ferraz de Vasconcelos / SP — CEP 08500-000",
                                   "A/C Valdir Aparecido Nunes"],
        "FER-76-II-ENDERECO-CONHECIDO": ["Rua Rui Barbosa, 745"],
        "FER-76-II-AUTO": ["Auto de Infração nº 260/2026, lavrado em 16 de outubro de 2026", "cuja cópia segue anexa"],
        "FER-76-II-DISPOSITIVO": ["Lei nº 3.240/2015, art. 64 — Produzir sons acima de 75 dB"],
        "FER-76-II-PENALIDADE": ["Multa (Lei nº 3.240/2015, art. 68 — multa de 30 UFM, aplicada em dobro na "
                                 "reincidência —, combinado com o art. 75)"],
        "FER-76-II-FORMA": ["registrada com aviso de recebimento (AR)",
                            "a notificação considera-se feita na data de recebimento lançada no AR devolvido"],
        "FER-76-II-DATAS": ["16 de outubro de 2026", "Ferraz de Vasconcelos/SP, 19 de outubro de 2026",
                            "Carta postada em 19 de outubro de 2026", "assinado em 22 de outubro de 2026"],
        "FER-78-RECURSO": ["Prazo para apresentar recurso"],
        "FER-80-PAGAMENTO": ["Prazo para recolher a multa"],
        "FER-76-II-EXPEDICAO": ["Márcia Regina Tavares", "Agente Fiscal de Posturas", "Matrícula 4.712"],
        CALCULADOS: [
            # art. 77, II: notice on the date of receipt in the AR, 22/10/2026
            "notificação considerada feita em 22 de outubro de 2026",
            # art. 78: 10 dias corridos → 01/11 (Sunday); 02/11 Finados → 03/11/2026
            "até 3 de novembro de 2026",
            # art. 80: 10 dias úteis from 22/10, skipping weekends, 28/10 (Dia do Servidor) and 02/11 → 09/11/2026
            "até 9 de novembro de 2026",
            # art. 68: 30 UFM, em dobro na reincidência = 60 UFM × R$ 156,1935 = R$ 9.371,61
            "60 (sessenta) UFM", "R$ 9.371,61 (nove mil trezentos e setenta e um reais e sessenta e um centavos)",
        ],
    },
    f"{FERRAZ}/demonstrativo-ruido-bar.yaml": {
        "FER-DD-DEVEDOR": ["Bar e Lanchonete Estrela do Leste Ltda.", "36.451.827/0001-69"],
        "FER-DD-AUTO": ["Auto de Infração nº 260/2026, lavrado em 16 de outubro de 2026"],
        "FER-DD-DISPOSITIVO": ["Lei nº 3.240/2015, art. 64 — Produzir sons acima de 75 dB"],
        # art. 68: fixed 30 UFM, doubled for recidivism (memo from autos.compute.fines)
        "FER-DD-VALOR": ["Multa fixada na lei", "Reincidência: multa aplicada em dobro",
                         "Total em reais: R$ 9.371,61 (nove mil trezentos e setenta e um reais e sessenta e um "
                         "centavos)",
                         "Total em unidades fiscais: 60 (sessenta) UFM"],
        "FER-80-PAGAMENTO": ["Prazo para recolher a multa"],
        "FER-DD-EMISSAO": ["calculado em 23 de outubro de 2026", "Sandra Lúcia Gomes", "Matrícula 3.918"],
        "FER-DD-DATAS": ["Data da infração: 16 de outubro de 2026", "Ferraz de Vasconcelos/SP, 23 de outubro de 2026"],
        CALCULADOS: [
            "até 9 de novembro de 2026",  # art. 80, as in the AR letter
            "Valor da unidade fiscal: R$ 156,1935",
        ],
    },
    f"{FERRAZ}/edital-entulho-domicilio-desconhecido.yaml": {
        # art. 76, III: edital only if the fiscal domicile is unknown
        "FER-76-III-DOMICILIO": ["desconhecido o domicílio fiscal do infrator",
                                 "Lei nº 3.240/2015, art. 76, inciso III"],
        # art. 76: name and masked CPF (LGPD art. 6º, III: 372.614.958-91 → only the 6 middle digits)
        "FER-76-III-NOTIFICADO": ["Edson Luiz Barreto", "***.614.958-**"],
        "FER-76-III-AUTO": ["nº 248/2026, lavrado em 22 de setembro de 2026"],
        # art. 2º, II (entulho), fine of § 2º
        "FER-76-III-DISPOSITIVO": ["Lei nº 3.240/2015, art. 2º, inciso II — Preparar ou depositar argamassa"],
        # art. 2º, § 2º: 30 UFM × R$ 156,1935 (2026, example value) = R$ 4.685,805 → R$ 4.685,81
        "FER-78-MULTA": ["30 (trinta) UFM",
                         "R$ 4.685,81 (quatro mil seiscentos e oitenta e cinco reais e oitenta e um centavos)"],
        "FER-77-III-PUBLICACAO": ["Quadro de Editais do Paço Municipal, em 6 de outubro de 2026"],
        "FER-77-III-FORMA": ["EDITAL DE NOTIFICAÇÃO", "NOTIFICA, pelo presente edital"],
        "FER-76-III-DATAS": ["22 de setembro de 2026", "Ferraz de Vasconcelos/SP, 5 de outubro de 2026",
                             "6 de outubro de 2026"],
        "FER-78-RECURSO": ["Prazo para apresentar recurso"],
        "FER-80-PAGAMENTO": ["Prazo para recolher a multa"],
        "FER-EDITAL-EXPEDICAO": ["Márcia Regina Tavares", "Agente Fiscal de Posturas", "Matrícula 4.712"],
        CALCULADOS: [
            # art. 77, III: 5 dias corridos from 06/10/2026 end on Sunday 11/10; 12/10 is a national holiday
            # (Nossa Senhora Aparecida) → moved to Tuesday 13/10/2026 (Lei 9.784/1999, art. 66, § 1º)
            "Data em que a notificação se considera feita: 13 de outubro de 2026",
            "ao fim do prazo de 5 (cinco) dias corridos",
            # art. 78: 10 dias corridos from 13/10 → 23/10/2026 (Friday)
            "até 23 de outubro de 2026",
            # art. 80: 10 dias úteis from 13/10, skipping 14/10 (municipal holiday), weekends and 28/10
            # (Dia do Servidor Público) → 29/10/2026
            "até 29 de outubro de 2026",
        ],
    },
    # --- Timóteo, Lei nº 3.844/2022 ---------------------------------------------------------------------
    f"{TIMOTEO}/auto-pj-completo.yaml": {
        # art. 20, § 1º, I to VII and art. 6º (the same values as tests/test_render.py)
        "TIM-20-1-I": ["Laticínios Vale do Aço Ltda.", "11.222.333/0001-81",
                       "Avenida Acesita, 1500 — Centro-Norte — Timóteo / MG — CEP 35180-000"],
        "TIM-20-1-I-PJ": ["Maria Aparecida dos Santos", "251.983.460-98", "sócia-administradora"],
        "TIM-20-1-II": ["Avenida Acesita, 1500, Centro-Norte, Timóteo/MG", "16 de março de 2026", "14h30"],
        "TIM-20-1-III": ["120 kg de queijo minas frescal sem identificação de lote"],
        "TIM-20-1-IV": ["Lei nº 3.844/2022, art. 15", "Decreto municipal nº 5.123/2022, art. 45, inciso II"],
        "TIM-20-1-V": ["Prazo para apresentação de defesa", "15 (quinze) dias corridos", "prazo fixado no Decreto nº 118/2025"],
        "TIM-20-1-VI": ["Dr. João Batista Ferreira", "Médico Veterinário Oficial", "Matrícula 20.315"],
        "TIM-6-VET": ["CRMV-MG 15.847"],
        "TIM-20-1-VII": ["Recebi a cópia deste auto em 16 de março de 2026."],
        CALCULADOS: [
            # art. 16, II and § 5º: 1.500 UPFMT − 50% = 750 UPFMT × R$ 5,0770 = R$ 3.807,75
            "750 (setecentas e cinquenta) UPFMT",
            "R$ 3.807,75 (três mil oitocentos e sete reais e setenta e cinco centavos)",
            # art. 20, § 1º, V: notice in person 16/03/2026 + 15 dias corridos (example) → 31/03/2026
            "até 31 de março de 2026",
        ],
    },
    f"{TIMOTEO}/notificacao-ar-mel.yaml": {
        # art. 21, II, and § 2º: letter before the AR returns — the defence term, no date
        "TIM-21-II-DESTINATARIO": ["Antônio Marcos Teixeira", "CPF 615.384.027-26",
                                   "Rua Itabira, 310 — Primavera — Timóteo / MG — CEP 35181-100"],
        "TIM-21-II-ENDERECO-CONHECIDO": ["Rua Itabira, 310"],
        "TIM-21-II-AUTO": ["Auto de Infração nº 20/2026, lavrado em 14 de julho de 2026"],
        "TIM-21-II-DISPOSITIVO": ["Lei nº 3.844/2022, art. 1º — Deixar de submeter à fiscalização prévia"],
        "TIM-21-II-PENALIDADE": ["Multa (Lei nº 3.844/2022, art. 16, inciso II)",
                                 "mel de abelha em frascos de 500 g, sem registro e sem rótulo — 40 frascos"],
        "TIM-21-II-FORMA": ["registrada com aviso de recebimento (AR)",
                            "a notificação considera-se feita na data da juntada do aviso de recebimento"],
        "TIM-21-II-DATAS": ["14 de julho de 2026", "Timóteo/MG, 15 de julho de 2026"],
        "TIM-21-II-DEFESA": ["Prazo para apresentação de defesa contra o auto de infração: 15 (quinze) dias corridos",
                             "prazo fixado no Decreto nº 118/2025"],
        "TIM-21-II-EXPEDICAO": ["Dra. Ana Paula Moreira", "Matrícula 20.511"],
        CALCULADOS: [
            # art. 16, II: 300 UPFMT × R$ 5,0770 = R$ 1.523,10
            "300 (trezentas) UPFMT", "R$ 1.523,10 (mil quinhentos e vinte e três reais e dez centavos)",
            "Cada prazo abaixo corre da data em que a notificação se considerar feita",
        ],
    },
    f"{TIMOTEO}/termo-apreensao-queijo.yaml": {
        # art. 16, III and § 4º
        "TIM-16-4-RESPONSAVEL": ["Laticínios Vale do Aço Ltda.", "11.222.333/0001-81", "Avenida Acesita, 1500"],
        "TIM-16-III-AUTO": ["relativo ao Auto de Infração nº 17/2026, lavrado em 16 de março de 2026"],
        "TIM-16-III-LAVRATURA": ["Avenida Acesita, 1500, Centro-Norte, Timóteo/MG", "14h50",
                                 "Aos dezesseis dias do mês de março do ano de dois mil e vinte e seis"],
        "TIM-16-III-MOTIVO": ["armazenados em câmara fria com temperatura de 14 °C"],
        "TIM-16-III-DISPOSITIVO": ["Lei nº 3.844/2022, art. 15", "Decreto municipal nº 5.123/2022, art. 45"],
        "TIM-16-III-ITENS": ["queijo minas frescal sem identificação de lote", "120 kg (48 peças de 2,5 kg)",
                             "sem lote; fabricação declarada em 12/03/2026"],
        "TIM-16-4-DEPOSITARIO": ["Fiel depositário: Maria Aparecida dos Santos, CPF 251.983.460-98",
                                 "câmara fria nº 2 do próprio estabelecimento, lacrada com o lacre SIM nº 0457",
                                 "Fiel depositário — aceito o encargo"],
        "TIM-16-III-AGENTE": ["Dr. João Batista Ferreira", "Matrícula 20.315"],
        "TIM-16-III-VET": ["CRMV-MG 15.847", "Médico Veterinário Oficial"],
        "TIM-16-III-DATAS": ["Timóteo/MG, 16 de março de 2026"],
        CALCULADOS: [
            # § 4º and art. 17 are printed as the law's clauses
            "sob as penas da lei de depositário", "(Lei nº 3.844/2022, art. 17)",
            "Rogério Alves Pimenta",
        ],
    },
    f"{TIMOTEO}/demonstrativo-linguica.yaml": {
        "TIM-DD-DEVEDOR": ["José Carlos Pereira", "111.444.777-35"],
        "TIM-DD-AUTO": ["Auto de Infração nº 18/2026, lavrado em 9 de abril de 2026"],
        "TIM-DD-DISPOSITIVO": ["Lei nº 3.844/2022, art. 1º", "Lei nº 3.844/2022, art. 9º"],
        # art. 16, II: base value fixed by the agent, circumstances (§ 2º) without numeric effect
        "TIM-DD-VALOR": ["Valor-base da multa fixado pelo agente", "Circunstâncias (agravantes das alíneas a, f)",
                         "Total em reais: R$ 4.061,60 (quatro mil e sessenta e um reais e sessenta centavos)"],
        "TIM-DD-EMISSAO": ["calculado em 28 de abril de 2026", "Dra. Ana Paula Moreira"],
        "TIM-DD-DATAS": ["Data da infração: 9 de abril de 2026", "Timóteo/MG, 28 de abril de 2026"],
        CALCULADOS: [
            # 800 UPFMT × R$ 5,0770 = R$ 4.061,60
            "Total em unidades fiscais: 800 (oitocentas) UPFMT",
            # art. 21, § 1º: refusal certified on 09/04/2026; defence 15 dias corridos (example) → 24/04/2026
            "até 24 de abril de 2026",
            # art. 16, § 1º
            "inscrição do débito na dívida ativa",
        ],
    },
    f"{TIMOTEO}/edital-pj-local-incerto.yaml": {
        "TIM-21-III-LOCAL": ["estando o autuado em local incerto ou desconhecido",
                             "Lei nº 3.844/2022, art. 21, inciso III"],
        # art. 20, § 1º, I; CNPJ 27.384.915/0001-02 → first 2 and check digits hidden
        "TIM-21-III-NOTIFICADO": ["Frigorífico Serra Azul Ltda.", "27.384.915/0001-02"],
        "TIM-21-III-AUTO": ["nº 21/2026, lavrado em 12 de maio de 2026"],
        "TIM-21-III-DISPOSITIVO": ["Lei nº 3.844/2022, art. 9º — Funcionar estabelecimento industrial"],
        # art. 16, II: 2.000 UPFMT × R$ 5,0770 (2026, example value) = R$ 10.154,00
        "TIM-21-III-MULTA": ["2.000 (duas mil) UPFMT", "R$ 10.154,00 (dez mil cento e cinquenta e quatro reais)"],
        "TIM-21-3-PUBLICACAO": ["Diário Oficial Eletrônico do Município de Timóteo, em 2 de junho de 2026",
                                "Jornal Diário do Aço, em 3 de junho de 2026"],
        "TIM-21-III-FORMA": ["EDITAL DE NOTIFICAÇÃO", "NOTIFICA, pelo presente edital"],
        "TIM-21-III-DATAS": ["12 de maio de 2026", "Timóteo/MG, 28 de maio de 2026"],
        "TIM-21-III-DATAS-JORNAL": ["3 de junho de 2026"],
        "TIM-21-III-DEFESA": ["Prazo para apresentação de defesa contra o auto de infração", "prazo fixado no Decreto nº 118/2025"],
        "TIM-21-III-EXPEDICAO": ["Dr. João Batista Ferreira", "Coordenador do SIM", "Matrícula 20.315"],
        CALCULADOS: [
            # art. 21, § 3º: 10 days after the later publication (03/06) end on Saturday 13/06/2026 → Monday 15/06
            "Data em que a notificação se considera feita: 15 de junho de 2026",
            "10 (dez) dias corridos",
            # art. 20, § 1º, V: 15 dias corridos (example term of the rules) from 15/06 → 30/06/2026 (Tuesday)
            "até 30 de junho de 2026",
        ],
    },
    # --- Cuiabá, Lei nº 3.666/1997 -------------------------------------------------------------------------
    f"{CUIABA}/termo-apreensao-cavalo.yaml": {
        "CBA-9-RESPONSAVEL": ["Sebastião Ribeiro da Costa", "804.736.291-78"],
        "CBA-9-APREENSAO": ["Data: 18 de novembro de 2026", "Hora: 10h15",
                            "Avenida Fernando Corrêa da Costa, altura do nº 2.300, Coxipó, Cuiabá/MT",
                            "com a marca \"SR\" a fogo na anca esquerda"],
        # art. 11, § 4º, III: equines are large animals (interpretation art11-equideos)
        "CBA-11-4-ESPECIE": ["equina", "grande porte"],
        "CBA-11-3-CUSTAS": ["Despesas do animal apreendido (transporte, multa e diárias)", "Transporte",
                            "Diárias de guarda (3 dias): 1º dia 3 UPF + 2º dia 3,5 UPF + 3º dia 4 UPF"],
        "CBA-9-MOTIVO": ["sem qualquer processo de contenção (art. 9º, I)"],
        "CBA-9-DISPOSITIVO": ["Lei nº 3.666/1997, art. 6º — Permitir a permanência de animal solto"],
        "CBA-11-1-RECOLHIMENTO": ["Recolhido em: 18 de novembro de 2026, ao Centro de Controle de Zoonoses de Cuiabá"],
        # art. 11, § 2º: 3 dias úteis from 18/11/2026 (Wednesday): 19/11; 20/11 is the national holiday of
        # Consciência Negra; 23/11, 24/11 → 24/11/2026
        "CBA-11-2-RESGATE": ["3 (três) dias úteis", "até 24 de novembro de 2026",
                             "20/11/2026 (Dia Nacional de Zumbi e da Consciência Negra, feriado nacional)"],
        # art. 11, § 5º: the day after the rescue term → 25/11/2026
        "CBA-11-5-DESTINACAO": ["a partir de 25 de novembro de 2026"],
        "CBA-9-DATAS": ["18 de novembro de 2026"],
        "CBA-9-DATAS-TERMO": ["Cuiabá/MT, 18 de novembro de 2026"],
        "CBA-37-AGENTE": ["Luciana Prado Arruda", "Agente de Controle de Zoonoses", "Matrícula 31.455"],
        "CBA-3-CARGO": ["Agente de Controle de Zoonoses"],  # art. 3º, III
        # art. 3º, II applies to an Agente Sanitário only (quando): this agent is an Agente de Controle de Zoonoses
        "CBA-3-II-VETERINARIO": [],
        CALCULADOS: [
            # art. 11, § 3º, large animal: transporte 1 + multa 2 = 3 UPF; diárias 3 / 3,5 / 4 UPF; × R$ 107,3327
            "6 (seis) UPF", "R$ 644,00 (seiscentos e quarenta e quatro reais)",                      # 1st day: 6 UPF
            "9,5 (nove inteiros e cinco décimos) UPF", "R$ 1.019,66 (mil e dezenove reais e sessenta e seis centavos)",  # 2nd
            "13,5 (treze inteiros e cinco décimos) UPF",                                                        # 3rd: 13,5 UPF
            "R$ 1.448,99 (mil quatrocentos e quarenta e oito reais e noventa e nove centavos)",
            # art. 36, I: the fine of the auto, 3 UPF = R$ 322,00
            "R$ 322,00 (trezentos e vinte e dois reais)",
        ],
    },
    f"{CUIABA}/demonstrativo-caes.yaml": {
        "CBA-DD-DEVEDOR": ["Cláudia Fernandes Lima", "736.204.815-71"],
        "CBA-DD-AUTO": ["Auto de Infração nº 88/2026, lavrado em 7 de outubro de 2026"],
        "CBA-DD-DISPOSITIVO": ["Lei nº 3.666/1997, art. 6º"],
        # art. 36, I (3 UPF) + art. 11, § 3º (2 dogs × 3,25 UPF = 6,5 UPF)
        "CBA-DD-VALOR": ["R$ 322,00 (trezentos e vinte e dois reais)",
                         "R$ 697,66 (seiscentos e noventa e sete reais e sessenta e seis centavos)",
                         "Total em reais: R$ 1.019,66 (mil e dezenove reais e sessenta e seis centavos)",
                         "Total em unidades fiscais: 9,5 (nove inteiros e cinco décimos) UPF"],
        "CBA-DD-EMISSAO": ["calculado em 7 de outubro de 2026", "Paulo Henrique Campos"],
        "CBA-DD-DATAS": ["Data da infração: 6 de outubro de 2026"],
        CALCULADOS: ["(Lei nº 3.666/1997, art. 41)"],
    },
    f"{CUIABA}/auto-animal-solto.yaml": {
        "CBA-35-AUTUADO": ["Cláudia Fernandes Lima", "736.204.815-71", "Rua Barão de Melgaço, 1033"],
        "CBA-35-LAVRATURA": ["Centro de Controle de Zoonoses, Cuiabá/MT", "7 de outubro de 2026"],
        "CBA-35-HORA": ["15h40"],  # not required by the law (choice auto-hora): printed when given
        "CBA-35-FATO": ["dois cães sem raça definida"],
        "CBA-35-DISPOSITIVO": ["Lei nº 3.666/1997, art. 6º — Permitir a permanência de animal solto"],
        "CBA-35-PENALIDADE": ["Multa (Lei nº 3.666/1997, art. 36, combinado com o art. 35, inciso I)",
                              "Apreensão do animal (Lei nº 3.666/1997, art. 35, inciso II)"],
        "CBA-37-AGENTE": ["Paulo Henrique Campos", "Agente de Controle de Zoonoses", "Matrícula 31.208"],
        "CBA-3-CARGO": ["Agente de Controle de Zoonoses"],  # art. 3º, III
        # art. 3º, II applies to an Agente Sanitário only (quando): this agent is an Agente de Controle de Zoonoses
        "CBA-3-II-VETERINARIO": [],
        "CBA-CIENCIA": ["efetivada em 7 de outubro de 2026"],
        CALCULADOS: [
            # art. 36, I: 3 UPF = R$ 322,00 (the fine); art. 11, § 3º: 2 dogs × (0,25 + 0,50 + 1,00 + 1,50) = 6,5
            # UPF × R$ 107,3327 = R$ 697,66 (the costs, apart: "sem prejuízo das penalidades", art. 38)
            "Valor da multa: 3 (três) UPF, correspondente a R$ 322,00",
            "Total das despesas: 6,5 (seis inteiros e cinco décimos) UPF, correspondente a R$ 697,66",
        ],
    },
}

#: for every edital, what must NOT be published (LGPD art. 6º, III): full numbers, address, facts, people
EDITAL_PRIVATE = {
    f"{FERRAZ}/edital-entulho-domicilio-desconhecido.yaml": [
        "372.614.958-91", "pedreiro", "Kaoru Hiramatsu", "mudou-se", "3 m³"],
    # the company's CNPJ is published whole (the LGPD protects natural persons, art. 1º); its partner's data are not
    f"{TIMOTEO}/edital-pj-local-incerto.yaml": [
        "Gilberto Antunes Rocha", "468.205.731-62", "Rua Sete", "abatedouro", "sócio"],
}

#: kinds a law does not provide, with the reason (the rules file omits them on purpose)
NOT_PROVIDED = {
    # Timóteo: no preliminary notice — penalties follow the auto directly (arts. 16 and 20); art. 5º, IV,
    # lists "notificar" among the SIM's powers but sets no compliance order, term or effect
    (TIMOTEO, "notificacao_preliminar"),
    # Cuiabá: no compliance order (the AR letter and the edital follow Lei 9.784/1999, art. 26, by analogy:
    # tests/test_processo_kinds.py)
    (CUIABA, "notificacao_preliminar"),
}


@functools.cache
def _autos() -> Autos:
    """The renderer of this module's samples (its templates compiled and stylesheet parsed once per process)."""
    return Autos(ROOT / "rules", ROOT / "templates", today=TODAY)


@functools.cache
def _generated(sample: str) -> dict[str, bytes]:
    """The DOCX and PDF files of a sample, by extension (generated once per test process)."""
    with tempfile.TemporaryDirectory() as tmp:
        result = _autos().generate(CASOS / sample, tmp, "ambos")
        assert not result.draft, sample
        return {p.suffix: p.read_bytes() for p in result.files}


@functools.cache
def _render(sample: str) -> dict[str, str]:
    """The DOCX and PDF text of a sample (extracted once per test process)."""
    by_ext = _generated(sample)
    return {"docx": docx_text(by_ext[".docx"]), "pdf": pdf_text(by_ext[".pdf"])}


def _element_codes(autos: Autos, sample: str) -> list[str]:
    loaded = autos.load(CASOS / sample)
    return [el.codigo for el in autos.statute_of(loaded).documentos[loaded.case.documento].elementos]


# --- every kind of every law has a sample; every element has its expected value ----------------------


def test_every_kind_of_every_law_is_covered(autos: Autos) -> None:
    covered = set()
    for sample in EXPECTED:
        loaded = autos.load(CASOS / sample)
        covered.add((loaded.case.lei, loaded.case.documento))
    # kinds made only from a processo act (the decision) are covered by the processo fixtures whose documents
    # test_processo_gerar / test_processo_decisao read
    from autos.checks.acts import document_acts
    from autos.processo.load import load_processo
    from autos.rules.procedure import load_procedure

    for file in sorted((DATA / "processo" / "documentos").glob("*.yaml")):
        proc = load_processo(file)
        lei = proc.processo.lei
        covered.update((lei, kind) for _i, kind in document_acts(proc, load_procedure(ROOT / "rules", lei),
                                                                 autos.rules.get(lei)))
    for sid, statute in autos.rules.statutes.items():
        for kind in statute.documentos:
            assert (sid, kind) in covered, f"{sid}: no sample in EXPECTED for '{kind}'"


@pytest.mark.parametrize("sample", sorted(EXPECTED))
def test_every_declared_element_has_an_expected_value(autos: Autos, sample: str) -> None:
    declared = _element_codes(autos, sample)
    assert sorted(set(EXPECTED[sample]) - {CALCULADOS}) == sorted(declared)


@pytest.mark.parametrize("fmt", ["docx", "pdf"])
@pytest.mark.parametrize("sample", sorted(EXPECTED))
def test_element_values_are_in_the_document(sample: str, fmt: str) -> None:
    text = _render(sample)[fmt]
    for code, values in EXPECTED[sample].items():
        for value in values:
            assert value in text, f"{sample} [{fmt}] {code}: {value!r} missing"


@pytest.mark.parametrize("sample", sorted(EXPECTED))
def test_docx_and_pdf_say_the_same(sample: str) -> None:
    """Each kind's DOCX (edited by the clerk) and PDF (signed, published) say the same: labels, headings,
    citations, signature blocks (page headers and footers aside; tests/textutil.docx_pdf_differences)."""
    by_ext = _generated(sample)  # the files the element tests read
    assert docx_pdf_differences(by_ext[".docx"], by_ext[".pdf"]) == []


@pytest.mark.parametrize("sample", sorted(EXPECTED))
def test_samples_are_valid(autos: Autos, sample: str) -> None:
    report = autos.validate(CASOS / sample)
    assert report.ok, [f.render() for f in report.errors]


# --- the edital publishes only what the law requires ---------------------------------------------------


@pytest.mark.parametrize("fmt", ["docx", "pdf"])
@pytest.mark.parametrize("sample", sorted(EDITAL_PRIVATE))
def test_edital_does_not_publish_personal_data(sample: str, fmt: str) -> None:
    text = _render(sample)[fmt]
    for private in EDITAL_PRIVATE[sample]:
        assert private not in text, f"{sample} [{fmt}] publishes {private!r}"


def test_masks() -> None:
    # CPF: the 6 middle digits; CNPJ: first 2 and the 2 check digits hidden (choice documented in documents/edital.py)
    assert mask_cpf("123.456.789-09") == "***.456.789-**"
    assert mask_cpf("12345678909") == "***.456.789-**"
    assert mask_cnpj("11.222.333/0001-81") == "**.222.333/0001-**"
    with pytest.raises(ValueError):
        mask_cpf("123")


def test_edital_context_has_no_unpublishable_data(autos: Autos) -> None:
    """The edital's context does not even contain the address, facts or full number: a template cannot leak them."""
    loaded = autos.load(CASOS / f"{FERRAZ}/edital-entulho-domicilio-desconhecido.yaml")
    ctx = autos.document_context(loaded).context
    for key in ("autuado", "fatos", "testemunhas", "lavratura", "penalidades", "abertura"):
        assert key not in ctx
    assert "372.614.958-91" not in repr(ctx)


def test_edital_with_known_address_is_refused(autos: Autos, tmp_path: Path) -> None:
    src = (CASOS / f"{FERRAZ}/edital-entulho-domicilio-desconhecido.yaml").read_text(encoding="utf-8")
    case = tmp_path / "caso.yaml"
    case.write_text(src.replace("endereco_desconhecido: true", "endereco_desconhecido: false"), encoding="utf-8")
    report = autos.validate(case)
    assert [f.codigo for f in report.errors] == ["FER-76-III-DOMICILIO"]
    assert "art. 76, inciso III" in (report.errors[0].citacao or "")
    with pytest.raises(RefusedError):
        autos.generate(case, tmp_path / "out", "pdf")


def test_incomplete_edital_renders_only_as_draft(autos: Autos, tmp_path: Path) -> None:
    case = DOCS / "edital-sem-publicacao.yaml"
    with pytest.raises(RefusedError):
        autos.generate(case, tmp_path, "ambos")
    result = autos.generate(case, tmp_path, "ambos", draft=True)
    assert result.draft
    for path in result.files:
        data = path.read_bytes()
        text = pdf_text(data) if path.suffix == ".pdf" else docx_text(data)
        assert "MINUTA" in text and "TIM-21-3-PUBLICACAO" in text and "[NÃO INFORMADO]" in text
        # a company's CNPJ is published whole: the LGPD protects natural persons' data (Lei 13.709/2018, art. 1º)
        assert "27.384.915/0001-02" in text and "**.384.915/0001-**" not in text


# --- kinds the law does not provide ---------------------------------------------------------------------


@pytest.mark.parametrize(("municipio", "kind"), sorted(NOT_PROVIDED))
def test_kind_the_law_lacks_is_an_input_error(autos: Autos, tmp_path: Path, municipio: str, kind: str) -> None:
    statute_id = next(s for s in autos.rules.statutes if s.startswith(municipio))
    assert kind not in autos.rules.statutes[statute_id].documentos
    case = tmp_path / "caso.yaml"
    case.write_text(f"lei: {statute_id}\ndocumento: {kind}\nautuado:\n  tipo: pessoa_fisica\n", encoding="utf-8")
    with pytest.raises(InputError, match="não prevê o documento"):
        autos.check(autos.load(case))


# --- PDF form: letterhead, page numbers, metadata --------------------------------------------------------


@pytest.mark.parametrize("sample", sorted(EXPECTED))
def test_pdf_letterhead_pages_and_metadata(autos: Autos, sample: str) -> None:
    data = _generated(sample)[".pdf"]  # the PDF the element tests read
    reader = PdfReader(io.BytesIO(data))
    text = _render(sample)["pdf"]
    n = len(reader.pages)
    assert f"Página 1 de {n}" in text and f"Página {n} de {n}" in text
    assert "PREFEITURA MUNICIPAL DE" in text
    loaded = autos.load(CASOS / sample)
    kind = autos.statute_of(loaded).documentos[loaded.case.documento]
    assert reader.metadata is not None and (reader.metadata.title or "").startswith(kind.titulo)


def test_dates_in_2026(autos: Autos) -> None:
    """Samples are dated in 2026 and never after the reference date."""
    for sample in sorted(CASOS.glob("*/*.yaml")) + sorted(CASOS.glob("verificacao/**/*.yaml")):
        if sample.parent.name == "pendentes":
            continue
        if is_processo_file(sample):  # a processo (samples/editais): every act's date
            for a in load_processo(sample).processo.atos:
                assert a.data_do_ato is None or date(2026, 1, 1) <= a.data_do_ato <= TODAY, f"{sample}: {a}"
            continue
        case = autos.load(sample).case
        for d in (case.lavratura.data, case.data_infracao, case.auto.data if case.auto else None):
            if d is not None:
                assert date(2026, 1, 1) <= d <= TODAY, f"{sample}: {d}"


# --- the element checks of the kinds: each fixture has exactly the finding expected, at its line -----

CHECKS = yaml.safe_load((DOCS / "expectations.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_element_check_findings(autos: Autos, name: str) -> None:
    exp = CHECKS[name]
    report = autos.validate(DOCS / name)
    assert [f.codigo for f in report.errors] == [exp["codigo"]], [f.render() for f in report.errors]
    finding = report.errors[0]
    assert finding.linha == exp["linha"], finding.render()
    text = finding.render()
    for words in exp["contem"]:
        assert words in text, f"{words!r} not in {text!r}"


def _rules_copy(tmp_path: Path, municipio: str, edit: Callable[[str], str]) -> Autos:
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    statute = next((rules / municipio).glob("lei-*[0-9].yaml"))
    statute.write_text(edit(statute.read_text(encoding="utf-8")), encoding="utf-8")
    return Autos(rules, ROOT / "templates", today=TODAY)


def test_prazo_check_refuses_a_deadline_missing_from_the_prazos_file(tmp_path: Path) -> None:
    autos = _rules_copy(tmp_path, CUIABA, lambda s: s.replace("prazo: resgate_art11_p2", "prazo: resgate_art11_p9"))
    report = autos.validate(CASOS / f"{CUIABA}/termo-apreensao-cavalo.yaml")
    assert [f.codigo for f in report.errors] == ["CBA-11-2-RESGATE"]
    assert "'resgate_art11_p9' não está nas regras de prazos" in report.errors[0].mensagem


def test_prazo_check_refuses_a_deadline_counted_from_another_event(tmp_path: Path) -> None:
    """The rescue term runs from the collection of the animal, not from a notice (art. 11, § 2º)."""
    def edit(s: str) -> str:
        return s.replace("        prazo: resgate_art11_p2\n        campos: [apreensao.data_recolhimento]\n",
                         "        prazo: resgate_art11_p2\n")
    autos = _rules_copy(tmp_path, CUIABA, edit)
    report = autos.validate(CASOS / f"{CUIABA}/termo-apreensao-cavalo.yaml")
    assert [f.codigo for f in report.errors] == ["CBA-11-2-RESGATE"]
    assert "corre da data em que o animal foi recolhido" in report.errors[0].mensagem


def test_element_rules_are_checked_when_loading(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match=r"CBA-11-2-RESGATE.*'prazo'"):
        _rules_copy(tmp_path, CUIABA, lambda s: s.replace("        prazo: resgate_art11_p2\n", ""))


def test_list_paths() -> None:
    loaded = load_case(CASOS / f"{TIMOTEO}/termo-apreensao-queijo.yaml")
    assert [v for _, v in select(loaded.case, "penalidades[tipo=apreensao].fiel_depositario.nome")] == [
        "Maria Aparecida dos Santos"]
    assert select(loaded.case, "penalidades[tipo=multa].itens") == []
    assert [p for p, _ in select(loaded.case, "infracoes[].regra")] == [("infracoes", 0, "regra")]
    assert select(loaded.case, "autuado.cnpj") == [(("autuado", "cnpj"), "11.222.333/0001-81")]


# --- draft mode: every kind of every law renders as MINUTA from an almost empty case --------------------


def test_every_kind_renders_as_draft_from_an_almost_empty_case(autos: Autos, tmp_path: Path) -> None:
    for sid, statute in autos.rules.statutes.items():
        for kind in statute.documentos:
            case = tmp_path / f"{kind}.yaml"
            case.write_text(f"lei: {sid}\ndocumento: {kind}\nautuado:\n  tipo: pessoa_juridica\n", encoding="utf-8")
            with pytest.raises(RefusedError):
                autos.generate(case, tmp_path / "final", "pdf")
            result = autos.generate(case, tmp_path / "minuta", "ambos", draft=True)
            for path in result.files:
                data = path.read_bytes()
                text = pdf_text(data) if path.suffix == ".pdf" else docx_text(data)
                assert "MINUTA" in text and "[NÃO INFORMADO]" in text, (sid, kind, path.suffix)


def test_edital_under_a_municipal_template_name_still_publishes_only_what_it_may(tmp_path: Path) -> None:
    """A municipality may rename the edital's template; the context stays the restricted one."""
    templates = tmp_path / "modelos"
    shutil.copytree(ROOT / "templates", templates)
    for sub, ext in (("html", "html"), ("docx", "docx")):
        (templates / sub / f"edital_notificacao.{ext}").rename(templates / sub / f"edital_municipal.{ext}")
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    statute = rules / FERRAZ / "lei-3240-2015.yaml"
    statute.write_text(statute.read_text(encoding="utf-8").replace("modelo: edital_notificacao",
                                                                   "modelo: edital_municipal"), encoding="utf-8")
    autos = Autos(rules, templates, today=TODAY)
    result = autos.generate(CASOS / f"{FERRAZ}/edital-entulho-domicilio-desconhecido.yaml", tmp_path / "out", "ambos")
    for path in result.files:
        data = path.read_bytes()
        text = pdf_text(data) if path.suffix == ".pdf" else docx_text(data)
        assert "***.614.958-**" in text and "372.614.958-91" not in text and "Kaoru Hiramatsu" not in text
