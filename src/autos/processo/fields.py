"""What each field of the processo file means, in Portuguese: one source for `autos novo` (the comments
of a new processo) and `autos schema --processo` (the ``description`` of every property).

A field whose model already carries a ``description`` keeps it; these fill in the others. Keys are
``Model.campo`` (the pydantic model's class name and the field name).
"""

from __future__ import annotations

__all__ = ["FIELD_DOCS"]

FIELD_DOCS: dict[str, str] = {
    # processo
    "Processo.autuado": "quem é autuado: pessoa física ou jurídica, com documento, qualificação e endereço",
    "Processo.fatos": "descrição do fato infracional: o que foi constatado, onde e quando",
    "Processo.infracoes": "dispositivos infringidos, cada um pelo id da infração nas regras da lei "
                          "(veja autos regras mostrar LEI)",
    "Processo.atos": "os atos do processo na ordem em que foram praticados; o primeiro é o auto de infração",
    "Processo.observacoes": "observações internas do processo (não vão aos documentos)",
    # ato
    "Ato.local": "local onde o ato foi praticado (auto: local da lavratura)",
    "Ato.agente": "agente que lavra ou assina o ato (na defesa e no recurso, quem recebe o protocolo): nome, cargo, "
                  "matrícula (e CRMV, onde a lei exige), como estão no registro de autoridades do Município",
    "Ato.circunstancias": "circunstâncias atenuantes e agravantes registradas no auto",
    "Ato.penalidades": "penalidades propostas no auto, cada uma pelo id da penalidade nas regras da lei",
    "Ato.assinaturas": "assinatura do autuado (ou recusa, ou ausência) e testemunhas",
    "Ato.testemunha": "certidão de recusa: a testemunha na presença de quem a recusa foi certificada",
    "Ato.devolucao": "AR devolvido sem entrega: data e motivo",
    "Ato.publicacoes": "edital: cada publicação, com data, meio (oficial, jornal, afixacao) e veículo",
    "Ato.resultado": "julgamento e decisão do recurso: mantida, reduzida ou cancelada",
    "Ato.autoridade": "autoridade que decide: o nome, a matrícula ou o cargo, como estão no registro de autoridades "
                      "do Município (rules/<municipio>/autoridades.yaml)",
    "Ato.fundamentacao": "fundamentos da decisão",
    "Ato.itens": "apreensão: os bens ou animais apreendidos, com quantidade e lote",
    "Ato.fiel_depositario": "apreensão: o fiel depositário dos bens",
    "Ato.local_deposito": "apreensão: onde os bens ficam depositados",
    "Ato.destino": "destino dado aos bens apreendidos ou condenados",
    "Ato.abrangencia": "interdição ou embargo: total ou parcial",
    "Ato.descricao": "descrição do que o ato abrange (bens, animais, área interditada…); na notificação "
    "preliminar, o que se constatou no dia dela",
    "Ato.observacoes": "observações do ato",
    "Devolucao.data": "data em que o AR voltou sem entrega",
    "Publicacao.data": "data da publicação",
    # infração
    "Infracao.regra": "id da infração nas regras da lei (veja autos regras mostrar LEI)",
    "Infracao.complemento": "complemento do dispositivo, quando a lei remete a regulamento (p. ex. o artigo "
                            "do regulamento infringido)",
    "Infracao.quantidade": "quantidade medida de que depende a multa (m², metros lineares, unidades; na "
                           "apreensão de animais, o número de animais)",
    "Infracao.reincidente": "true se o autuado é reincidente nesta infração (a lei pode dobrar a multa); "
                            "senão false",
    "Infracao.reincidente_motivo": "por que o valor de reincidente difere do histórico do registro (p. ex. "
                                   "auto anterior em papel, fora do registro); impresso no auto e no "
                                   "demonstrativo",
    "Infracao.periodo": "período de N dias sem atendimento que este auto cobra (1 = primeira multa após o prazo)",
    "Infracao.advertencia_previa": "true se já houve advertência escrita e a conduta persiste; senão false",
    "Infracao.capacidade": "capacidade do local ou evento, em número de pessoas",
    "Infracao.caucao_depositada": "true se houve depósito caução a abater da multa; senão false",
    "Infracao.gravidade": "gravidade atribuída pelo agente (leve, grave, gravissima)",
    "Infracao.especie": "espécie do animal apreendido (define o porte e as custas)",
    "Infracao.dias_custodia": "número de dias de guarda (diárias) do animal apreendido",
    "Infracao.norma": "a norma de conduta infringida, quando o dispositivo da lei só define a infração: o artigo "
                      "da lei (artigo, paragrafo, inciso) ou, com 'regulamento' (id do registro de regulamentos "
                      "das regras), o artigo do regulamento",
    "Infracao.idade_minima_dias": "idade, em dias, do mais novo dos animais contados (onde a lei só conta os "
                                  "animais acima de certa idade)",
    "NormaInfringida.regulamento": "id do regulamento no registro 'regulamentos' das regras da lei; sem ele, o "
                                   "artigo é da própria lei",
    "NormaInfringida.artigo": "artigo da norma de conduta infringida (só o número, p. ex. 23)",
    "NormaInfringida.paragrafo": "parágrafo do artigo, se houver (número, ou unico)",
    "Infracao.excecao": "exceção, dispensa ou tolerância da lei em que os fatos se enquadram (id em excecoes da "
                        "infração, veja autos regras mostrar LEI); o auto não tem base legal nesse caso",
    # autuado e pessoas
    "Autuado.tipo": "pessoa_fisica ou pessoa_juridica",
    "Autuado.nome": "nome completo ou razão social",
    "Autuado.nome_fantasia": "nome fantasia da pessoa jurídica",
    "Autuado.cpf": "CPF da pessoa física (000.000.000-00)",
    "Autuado.cnpj": "CNPJ da pessoa jurídica (00.000.000/0000-00)",
    "Autuado.qualificacao": "qualificação: nacionalidade, estado civil, profissão (ou ramo da empresa)",
    "Autuado.endereco": "endereço do autuado",
    "Autuado.endereco_desconhecido": "true se o autuado está em local incerto ou não sabido",
    "Autuado.responsavel_legal": "pessoa jurídica: o responsável legal, com nome, CPF e qualificação",
    "Autuado.primario": "true se o autuado não tem penalidade definitiva anterior por esta lei",
    "Autuado.pequeno_porte": "true se o estabelecimento é de pequeno porte (redução da multa, onde a lei prevê)",
    "Autuado.pequeno_porte_fundamento": "fundamento do enquadramento como pequeno porte",
    "Autuado.menor": "true se o autuado (o causador do dano) é menor de idade: informe os responsáveis legais em "
                     "responsavel_legal",
    "Autuado.registro": "número de registro do estabelecimento (p. ex. no SIM)",
    "Autuado.tratamento": "pessoa física: senhor ou senhora, como a carta se dirige a ela (\"Prezado Senhor\"); "
                          "sem ele, a carta usa uma forma neutra, sem vocativo",
    "Pessoa.nome": "nome completo",
    "Pessoa.cpf": "CPF (000.000.000-00)",
    "Pessoa.qualificacao": "qualificação: nacionalidade, estado civil, profissão",
    "Pessoa.cargo": "cargo ou função",
    "Pessoa.endereco": "endereço",
    "Endereco.logradouro": "rua, avenida, praça…",
    "Endereco.numero": "número do imóvel",
    "Endereco.complemento": "complemento (sala, apartamento…)",
    "Endereco.bairro": "bairro",
    "Endereco.municipio": "município",
    "Endereco.uf": "sigla da UF, em maiúsculas (MG, SP, MT)",
    "Endereco.cep": "CEP (00000-000)",
    "Agente.nome": "nome do agente",
    "Agente.cargo": "cargo do agente",
    "Agente.matricula": "matrícula funcional do agente",
    "Agente.crmv": "registro no CRMV (médico veterinário)",
    "Agente.medico_veterinario_oficial": "true se o agente é médico veterinário oficial",
    "Circunstancias.atenuantes": "circunstâncias atenuantes, pelos ids das regras da lei",
    "Circunstancias.agravantes": "circunstâncias agravantes, pelos ids das regras da lei",
    "PenalidadeProposta.tipo": "id da penalidade nas regras da lei (multa, advertencia, apreensao…)",
    "PenalidadeProposta.itens": "bens apreendidos ou condenados",
    "PenalidadeProposta.fiel_depositario": "fiel depositário dos bens apreendidos",
    "PenalidadeProposta.observacao": "observação sobre a penalidade",
    "PenalidadeProposta.motivo_valor": "multa de faixa: as circunstâncias consideradas (gravidade, antecedentes, "
                                       "consequências, atenuantes e agravantes) e por que este valor-base",
    "PenalidadeProposta.motivo_nao_advertencia": "multa onde a lei admite advertência: por que não a advertência",
    "PenalidadeProposta.abrangencia": "interdição total ou parcial: a que o auto aplica (total, parcial)",
    "ItemApreendido.descricao": "descrição do item",
    "ItemApreendido.quantidade": "quantidade, com a unidade",
    "Testemunha.nome": "nome da testemunha",
    "Testemunha.cpf": "CPF da testemunha",
    "Testemunha.endereco": "endereço da testemunha",
    "AssinaturaAutuado.situacao": "assinou, recusou ou ausente",
    "AssinaturaAutuado.data": "data aposta pelo autuado junto à assinatura (AAAA-MM-DD)",
    "AssinaturaAutuado.nome_de_quem_assinou": "nome de quem assinou (o autuado ou seu representante)",
    "AssinaturaAutuado.certificacao_recusa": "recusa: texto da certificação feita pelo agente",
    "Assinaturas.autuado": "assinatura do autuado",
    "Assinaturas.testemunhas": "testemunhas (na recusa, a lei pode exigir uma)",
}

#: the short label of a field on a form or a spreadsheet report (``FIELD_DOCS`` is its help text)
FIELD_LABELS: dict[str, str] = {
    "Processo.lei": "Lei", "Processo.numero": "Número do processo", "Processo.autuado": "Autuado",
    "Processo.local": "Local da infração", "Processo.data_infracao": "Data da infração",
    "Processo.fatos": "Descrição dos fatos", "Processo.infracoes": "Infrações", "Processo.atos": "Atos",
    "Processo.observacoes": "Observações internas",
    "Autuado.tipo": "Tipo de autuado", "Autuado.nome": "Nome ou razão social", "Autuado.nome_fantasia": "Nome fantasia",
    "Autuado.cpf": "CPF", "Autuado.cnpj": "CNPJ", "Autuado.qualificacao": "Qualificação",
    "Autuado.endereco": "Endereço do autuado", "Autuado.endereco_desconhecido": "Local incerto ou não sabido",
    "Autuado.responsavel_legal": "Responsável legal", "Autuado.primario": "Primário",
    "Autuado.pequeno_porte": "Pequeno porte", "Autuado.registro": "Registro do estabelecimento",
    "Autuado.tratamento": "Tratamento",
    "Endereco.logradouro": "Logradouro", "Endereco.numero": "Número", "Endereco.complemento": "Complemento",
    "Endereco.bairro": "Bairro", "Endereco.municipio": "Município", "Endereco.uf": "UF", "Endereco.cep": "CEP",
    "Pessoa.nome": "Nome", "Pessoa.cpf": "CPF", "Pessoa.qualificacao": "Qualificação", "Pessoa.cargo": "Cargo",
    "Infracao.regra": "Infração", "Infracao.complemento": "Dispositivo complementar",
    "Infracao.quantidade": "Quantidade", "Infracao.reincidente": "Reincidente",
    "Infracao.reincidente_motivo": "Motivo (reincidência)", "Infracao.periodo": "Período",
    "Infracao.advertencia_previa": "Advertência escrita anterior", "Infracao.capacidade": "Capacidade (pessoas)",
    "Infracao.caucao_depositada": "Caução depositada", "Infracao.gravidade": "Gravidade",
    "Infracao.especie": "Espécie do animal", "Infracao.dias_custodia": "Dias de guarda",
    "Infracao.norma": "Norma de conduta infringida", "Infracao.idade_minima_dias": "Idade do animal mais novo (dias)",
    "Ato.tipo": "Tipo do ato", "Ato.numero": "Número do ato", "Ato.data": "Data", "Ato.hora": "Hora",
    "Ato.referente": "Ato a que se refere", "Ato.local": "Local", "Ato.agente": "Agente",
    "Ato.circunstancias": "Circunstâncias", "Ato.penalidades": "Penalidades", "Ato.assinaturas": "Assinaturas",
    "Ato.testemunha": "Testemunha", "Ato.postagem": "Data da postagem", "Ato.recebimento": "Data do recebimento",
    "Ato.devolucao": "Devolução do AR", "Ato.juntada": "Data da juntada", "Ato.publicacoes": "Publicações",
    "Ato.resultado": "Resultado", "Ato.valor": "Valor (R$)", "Ato.autoridade": "Autoridade",
    "Ato.fundamentacao": "Fundamentação", "Ato.itens": "Itens", "Ato.fiel_depositario": "Fiel depositário",
    "Ato.local_deposito": "Local do depósito", "Ato.recolhimento": "Data do recolhimento", "Ato.destino": "Destino",
    "Ato.abrangencia": "Abrangência", "Ato.descricao": "Descrição", "Ato.exigencia": "Exigência",
    "Ato.condicoes_levantamento": "Condições para o levantamento",
    "Ato.observacoes": "Observações", "Ato.argumentos": "Argumentos", "Ato.relatorio": "Relatório",
    "Ato.razoes": "Razões (resposta a cada argumento)", "Ato.dispositivo": "Dispositivo (determinações)",
    "Ato.valor_base": "Multa decidida (na unidade fiscal)", "Ato.motivo_valor": "Motivo do valor decidido",
    "Ato.demonstrativo": "Nº do demonstrativo de débito",
    "Argumento.id": "Nº do argumento", "Argumento.texto": "O que alega",
    "Razao.argumento": "Argumento respondido (nº)", "Razao.conclusao": "Conclusão", "Razao.fatos": "Fatos",
    "Razao.fundamentos": "Fundamentos jurídicos",
    "Devolucao.data": "Data da devolução", "Devolucao.motivo": "Motivo da devolução",
    "Publicacao.data": "Data da publicação", "Publicacao.meio": "Meio", "Publicacao.veiculo": "Veículo",
    "Exigencia.descricao": "O que regularizar", "Exigencia.prazo": "Prazo (id nas regras)",
    "Agente.nome": "Nome do agente", "Agente.cargo": "Cargo", "Agente.matricula": "Matrícula",
    "Agente.crmv": "CRMV", "Agente.medico_veterinario_oficial": "Médico veterinário oficial",
    "Circunstancias.atenuantes": "Atenuantes", "Circunstancias.agravantes": "Agravantes",
    "PenalidadeProposta.tipo": "Penalidade", "PenalidadeProposta.valor_base": "Valor-base",
    "PenalidadeProposta.itens": "Itens", "PenalidadeProposta.fiel_depositario": "Fiel depositário",
    "PenalidadeProposta.local_deposito": "Local do depósito", "PenalidadeProposta.condicao": "Caso da lei",
    "PenalidadeProposta.observacao": "Observação",
    "PenalidadeProposta.motivo_valor": "Motivo do valor (circunstâncias)",
    "PenalidadeProposta.motivo_nao_advertencia": "Por que não advertência",
    "PenalidadeProposta.abrangencia": "Total ou parcial",
    "ItemApreendido.descricao": "Descrição do item", "ItemApreendido.quantidade": "Quantidade",
    "ItemApreendido.lote": "Lote",
    "Testemunha.nome": "Nome da testemunha", "Testemunha.cpf": "CPF da testemunha",
    "Testemunha.endereco": "Endereço da testemunha",
    "Assinaturas.autuado": "Assinatura do autuado", "Assinaturas.testemunhas": "Testemunhas",
    "AssinaturaAutuado.situacao": "Situação da assinatura", "AssinaturaAutuado.data": "Data aposta pelo autuado",
    "AssinaturaAutuado.nome_de_quem_assinou": "Nome de quem assinou",
    "AssinaturaAutuado.certificacao_recusa": "Certificação da recusa",
}
