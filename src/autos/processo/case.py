"""The case file: what a clerk writes in YAML, as a strict model.

Field names are Portuguese (they are what the clerk types). Almost every element a law requires is
optional *here*: an omitted element is a finding of the validator, with its article, not a parse
error, so an incomplete case still produces a useful report. Types, formats, CPF/CNPJ check digits
and unknown keys are checked here.
"""


import re
import unicodedata
from datetime import date, time
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, field_validator, model_validator

from autos.base.schema import FIRST_YEAR, Amount, Count, Day, no_items
from autos.base.yamlio import MAX_TEXT_CHARS


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, str_max_length=MAX_TEXT_CHARS)


def _all_digits_equal(value: str) -> bool:
    digits = re.sub(r"\D", "", value)
    return len(set(digits)) == 1


def check_cpf(value: str) -> str:
    """Return the CPF formatted (000.000.000-00); ValueError with a Portuguese message otherwise."""
    # python-stdnum is imported by the first CPF or CNPJ read (its stdnum.util imports ssl and pydoc): a command
    # that reads none (autos regras) starts without it
    from stdnum.br import cpf as stdnum_cpf
    from stdnum.exceptions import ValidationError as StdnumError

    try:
        if _all_digits_equal(value):  # python-stdnum accepts 111.111.111-11 … 999.999.999-99
            raise StdnumError
        return str(stdnum_cpf.format(stdnum_cpf.validate(value)))
    except StdnumError:
        raise ValueError(
            f"CPF '{value}' inválido (dígitos verificadores não conferem, tamanho errado ou todos os dígitos iguais); "
            "confira os 11 dígitos no documento"
        ) from None


def check_cnpj(value: str) -> str:
    """Return the CNPJ formatted (00.000.000/0000-00); ValueError with a Portuguese message otherwise."""
    from stdnum.br import cnpj as stdnum_cnpj
    from stdnum.exceptions import ValidationError as StdnumError

    try:
        if _all_digits_equal(value):
            raise StdnumError
        return str(stdnum_cnpj.format(stdnum_cnpj.validate(value)))
    except StdnumError:
        raise ValueError(
            f"CNPJ '{value}' inválido (dígitos verificadores não conferem, tamanho errado ou todos os dígitos iguais); "
            "confira os 14 dígitos no cartão CNPJ"
        ) from None


#: a document number as typed (the JSON Schema's pattern; :func:`document_key` is the rule): number/year, ASCII
#: digits only, up to 6 digits of number, not all zeros, a year from 1900
DOCUMENT_NUMBER_PATTERN = r"^(?=[0-9]{1,6}/)0*[1-9][0-9]*/(19|[2-9][0-9])[0-9]{2}$"
_DOCUMENT_NUMBER = re.compile(r"([0-9]{1,6})/([0-9]{4})")


#: Correios return reasons that mean the address is not where the person can be found (folded: no accents)
UNKNOWN_ADDRESS_RETURNS = ("mudou", "desconhecid", "insuficiente", "inexistente", "nao existe", "incert",
                           "ignorad", "nao localizad")


def returned_for_unknown_address(motivo: str) -> bool:
    """An AR returned for this reason shows the domicile is unknown or uncertain (mudou-se, desconhecido,
    endereço insuficiente, número inexistente…), not merely that nobody was there (ausente, recusado)."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", motivo) if not unicodedata.combining(c)).casefold()
    return any(k in folded for k in UNKNOWN_ADDRESS_RETURNS)


def _check_digits(numero: str) -> None:
    odd = sorted({c for c in numero if c.isdigit() and not "0" <= c <= "9"})
    if odd:
        names = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in odd)
        raise ValueError(
            f"número '{numero}' com algarismos que não são os comuns 0–9: {names}; digite o número como está "
            "impresso no documento, com os algarismos 0 a 9 (o número não é convertido automaticamente)")


def document_key(numero: str) -> tuple[int, int]:
    """The identity of a document number: ``(number, year)`` as integers, so ``031/2026`` and ``31/2026`` are
    the same document. The one place where numbers are compared (the edital ledger's case key uses it);
    ``ValueError`` with a Portuguese message for anything that is not a valid ``N/AAAA``."""
    text = numero.strip()
    _check_digits(text)
    m = _DOCUMENT_NUMBER.fullmatch(text)
    if m is None:
        raise ValueError(f"número '{numero}' em formato inválido; use número/ano com algarismos 0–9, p. ex. 17/2026")
    number, year = int(m[1]), int(m[2])
    if number == 0:
        raise ValueError(f"número '{numero}' inválido: a numeração começa em 1; confira o número impresso")
    if year < FIRST_YEAR:
        raise ValueError(f"número '{numero}' inválido: o ano {m[2]} não é o de um documento (a partir de "
                         f"{FIRST_YEAR}); confira o ano impresso")
    return number, year


def check_document_number(value: str | None) -> str | None:
    """Validate a document number; return it exactly as typed (never rewritten)."""
    if value is not None:
        document_key(value)
    return value


#: an act number written as a bare number/year, in any digits: a document number (held to :func:`document_key`)
_BARE_NUMBER = re.compile(r"\d+/\d+")


def is_document_number(numero: str | None) -> bool:
    """Whether an act's number is a document number ``N/AAAA`` (printed as the document's own number) rather
    than free text such as ``AR-302/2026`` (printed as typed)."""
    return numero is not None and _BARE_NUMBER.fullmatch(numero.strip()) is not None


def check_act_number(numero: str | None, *, auto: bool) -> str | None:
    """The one rule for the number of a processo's act, applied when the file is read (every command reads
    processos through :class:`autos.processo.model.Ato`): the auto's number is a document number ``N/AAAA``
    (:func:`document_key`: from 1, year from 1900, digits 0–9); any other act's may be free text
    (``AR-302/2026``, ``DEC-12/2026``), but never with digits other than 0–9, and one written as a bare
    number/year is a document number, held to the same rule. ``ValueError`` in Portuguese otherwise; the
    number is returned as typed."""
    if numero is None:
        return None
    if auto or is_document_number(numero):
        document_key(numero)
    else:
        _check_digits(numero)
    return numero


class Endereco(_Strict):
    logradouro: str | None = None
    numero: str | None = None
    complemento: str | None = None
    bairro: str | None = None
    municipio: str | None = None
    uf: str | None = Field(default=None, pattern=r"^[A-Z]{2}$")
    cep: str | None = Field(default=None, pattern=r"^\d{5}-?\d{3}$")

    def linha(self) -> str:
        """One-line address as printed on documents."""
        first = ", ".join(p for p in (self.logradouro, self.numero, self.complemento) if p)
        parts = [first] if first else []
        if self.bairro:
            parts.append(self.bairro)
        city = " / ".join(p for p in (self.municipio, self.uf) if p)
        if city:
            parts.append(city)
        if self.cep:
            cep = self.cep if "-" in self.cep else f"{self.cep[:5]}-{self.cep[5:]}"
            parts.append(f"CEP {cep}")
        return " — ".join(parts)


class Pessoa(_Strict):
    nome: str | None = None
    cpf: str | None = None
    qualificacao: str | None = None
    cargo: str | None = None
    endereco: Endereco | None = None

    @field_validator("cpf")
    @classmethod
    def _cpf(cls, v: str | None) -> str | None:
        return check_cpf(v) if v else v


class Autuado(_Strict):
    tipo: Literal["pessoa_fisica", "pessoa_juridica"]
    nome: str | None = None
    nome_fantasia: str | None = None
    cpf: str | None = None
    cnpj: str | None = None
    qualificacao: str | None = None
    endereco: Endereco | None = None
    endereco_desconhecido: bool = False
    responsavel_legal: Pessoa | None = None
    primario: bool | None = None
    pequeno_porte: bool = False
    pequeno_porte_fundamento: str | None = None
    registro: str | None = None  # establishment registration (e.g. SIM number)
    tratamento: Literal["senhor", "senhora"] | None = None  # how a letter addresses a person (pessoa física)
    #: the autuado (who caused the damage) is under age: his legal guardians are identified and the authorities
    #: told (Ferraz art. 53, § 2º; ECA)
    menor: bool = False

    @field_validator("cpf")
    @classmethod
    def _cpf(cls, v: str | None) -> str | None:
        return check_cpf(v) if v else v

    @field_validator("cnpj")
    @classmethod
    def _cnpj(cls, v: str | None) -> str | None:
        return check_cnpj(v) if v else v

    @model_validator(mode="after")
    def _doc_matches_kind(self) -> "Autuado":
        if self.tipo == "pessoa_fisica" and self.cnpj:
            raise ValueError("pessoa física não tem CNPJ; use o campo cpf ou mude tipo para pessoa_juridica")
        if self.tipo == "pessoa_juridica" and self.cpf:
            raise ValueError("pessoa jurídica não tem CPF; use o campo cnpj (o CPF vai em responsavel_legal)")
        if self.tipo == "pessoa_juridica" and self.menor:
            raise ValueError("só a pessoa física pode ser menor de idade; retire 'menor' ou mude tipo para "
                             "pessoa_fisica")
        if self.tipo == "pessoa_juridica" and self.tratamento:
            raise ValueError("o tratamento (senhor/senhora) é só da pessoa física; a carta à pessoa jurídica "
                             "vai à empresa (\"Prezados Senhores\")")
        return self

    @property
    def documento(self) -> str | None:
        return self.cpf if self.tipo == "pessoa_fisica" else self.cnpj

    @property
    def documento_rotulo(self) -> str:
        return "CPF" if self.tipo == "pessoa_fisica" else "CNPJ"


_HHMM = r"([01]\d|2[0-3]):[0-5]\d"


def _check_hhmm(v: object) -> object:
    if isinstance(v, str) and not re.fullmatch(_HHMM, v.strip()):
        raise ValueError(f"hora '{v}' inválida; use HH:MM entre 00:00 e 23:59, por exemplo 14:30")
    return v


#: a time of day written "HH:MM", 00:00 to 23:59 (``hora`` of an auto, a lavratura, an apprehension). Its JSON
#: Schema is that pattern: pydantic would say ``format: time``, RFC 3339's full-time ("09:00:00Z"), which a
#: validator checking formats (check-jsonschema, an editor's YAML language server) holds against "09:00"
Hora = Annotated[time, BeforeValidator(_check_hhmm), WithJsonSchema({"type": "string", "pattern": f"^{_HHMM}$"})]


class Lavratura(_Strict):
    """Where and when THIS document is drawn up (an auto, a notice, a letter, an edital, a termo…)."""

    local: str | None = Field(default=None, description="local da lavratura ou da emissão deste documento")
    data: Day | None = Field(default=None, description="data da lavratura ou da emissão deste documento")
    hora: Hora | None = Field(default=None, description="hora da lavratura (HH:MM, entre aspas)")


class NormaInfringida(_Strict):
    """The rule of conduct the infraction breaks, when the law's provision only defines the infraction (Timóteo art.
    15): an article of the law itself (no ``regulamento``), or of a regulation of the law's register (its id). Left
    blank (a new processo), it loads and its precondition says what is missing."""

    artigo: str | None = Field(default=None, pattern=r"^\d+(-[A-Z])?$")
    paragrafo: str | None = Field(default=None, pattern=r"^(\d+|unico)$")
    inciso: str | None = Field(default=None, pattern=r"^[IVXLC]+$")
    alinea: str | None = Field(default=None, pattern=r"^[a-z]$")
    regulamento: str | None = None


class Antecedente(_Strict):
    """The earlier infraction that makes this one a repeat (reincidência): its auto, and the day on which its penalty
    became definitive, and how. The repeat presupposes an earlier definitive decision (Ferraz art. 68 and choice
    reincidencia-historico of its rules): without it, the doubling has no fact to rest on (Lei federal nº 9.784/1999,
    art. 50, II, by analogy)."""

    auto: str = Field(min_length=1, description="número do auto anterior (p. ex. 112/2026)")
    data: Day | None = Field(default=None, description="data do auto anterior")
    processo: str | None = Field(default=None, description="número do processo anterior, se houver")
    definitiva_em: Day = Field(description="data em que a penalidade anterior se tornou definitiva")
    como: str = Field(min_length=1, description="o que a tornou definitiva: multa paga (DAM nº …), decisão do "
                      "recurso nº …, prazo de recurso vencido sem recurso")


class Infracao(_Strict):
    """One infringed provision and the facts its fine depends on.

    The facts are optional here: a fine that needs a missing one is a ComputeError naming the field
    (``infracoes[0].quantidade``). Ranges (zero, negative, beyond a legal table) are checked by the
    fine calculator against the statute, so that its message can cite the article.
    """

    regra: str  # infraction id in the statute's rules
    complemento: str | None = None  # e.g. the regulation article, when the rule asks for it
    norma: NormaInfringida | None = None  # the rule of conduct broken (article of the law or of a regulation)
    quantidade: Amount | None = None  # for fines by quantity (m², metres, units; animals apprehended)
    reincidente: bool | None = None  # recidivism in the same infraction ("em dobro na reincidência")
    #: why ``reincidente`` overrides what the register's history says (printed in the documents)
    reincidente_motivo: str | None = None
    #: the earlier infraction, definitive before this one, that makes it a repeat (a processo: required with
    #: ``reincidente: true``; autos.checks.reasons)
    antecedente: Antecedente | None = None
    periodo: Count | None = None  # which 30-day period this auto charges (1 = first fine after the deadline)
    advertencia_previa: bool | None = None  # a written warning was already given (Ferraz art. 3º, § 1º, I)
    capacidade: Count | None = None  # capacity in people of the place or event (Ferraz art. 62)
    caucao_depositada: bool | None = None  # a cash guarantee deposit was made (Ferraz arts. 62 and 70)
    gravidade: str | None = None  # gravity assigned by the agent (Cuiabá art. 36: leve, grave, gravissima)
    especie: str | None = None  # species of the apprehended animal (Cuiabá art. 11, § 4º)
    dias_custodia: Count | None = None  # custody days charged (Cuiabá art. 11, § 3º, diárias)
    idade_minima_dias: Count | None = None  # age in days of the youngest animal counted (Cuiabá art. 28: over 90)
    #: the exception, dispensation or tolerance of the law the facts fall under (an id of the rule's ``excecoes``,
    #: e.g. Ferraz art. 63, I: propaganda-eleitoral); the validator reports it and the document prints it
    excecao: str | None = None


class Agente(_Strict):
    nome: str | None = None
    cargo: str | None = None
    matricula: str | None = None
    crmv: str | None = None
    medico_veterinario_oficial: bool | None = None


class Circunstancias(_Strict):
    atenuantes: list[str] = Field(default_factory=no_items)
    agravantes: list[str] = Field(default_factory=no_items)


class ItemApreendido(_Strict):
    descricao: str
    quantidade: str | None = None
    lote: str | None = Field(default=None, description="lote, validade ou outra identificação do item apreendido")


class PenalidadeProposta(_Strict):
    tipo: str  # penalty id in the statute's rules
    valor_base: Amount | None = Field(default=None, description="multa: valor em unidades fiscais")
    itens: list[ItemApreendido] = Field(default_factory=no_items)
    fiel_depositario: Pessoa | None = None
    local_deposito: str | None = Field(default=None, description="apreensão: local onde os bens apreendidos "
                                       "ficam depositados")
    condicao: str | None = Field(default=None, description="o caso em que a lei admite a penalidade (id da "
                                 "condição nas regras, p. ex. embaraco-fiscalizacao)")
    motivo_valor: str | None = Field(default=None, description="multa de faixa (Timóteo, art. 16, II e § 2º): as "
                                     "circunstâncias consideradas e por que este valor")
    motivo_nao_advertencia: str | None = Field(default=None, description="multa onde a lei admite advertência "
                                               "(Timóteo, art. 16, I): por que não a advertência")
    abrangencia: Literal["total", "parcial"] | None = Field(default=None, description="interdição que a lei admite "
                                                            "total ou parcial (Timóteo, art. 16, VI): a aplicada")
    observacao: str | None = None


class Testemunha(_Strict):
    nome: str | None = None
    cpf: str | None = None
    endereco: str | None = None

    @field_validator("cpf")
    @classmethod
    def _cpf(cls, v: str | None) -> str | None:
        return check_cpf(v) if v else v


class AssinaturaAutuado(_Strict):
    situacao: Literal["assinou", "recusou", "ausente"] | None = None
    data: Day | None = None
    nome_de_quem_assinou: str | None = None
    certificacao_recusa: str | None = None


class Assinaturas(_Strict):
    autuado: AssinaturaAutuado | None = None
    testemunhas: list[Testemunha] = Field(default_factory=no_items)


class AvisoRecebimento(_Strict):
    data_postagem: Day | None = None
    data_recebimento: Day | None = None
    data_juntada: Day | None = None
    devolvido: bool = False
    motivo_devolucao: str | None = None


class Edital(_Strict):
    data_publicacao: Day | None = None
    veiculo: str | None = None
    data_publicacao_jornal: Day | None = None
    jornal: str | None = None


class Notificacao(_Strict):
    forma: Literal["pessoal", "recusa", "ar", "edital"]
    data: Day | None = None  # pessoal/recusa: date of the dated receipt or of the certification
    ar: AvisoRecebimento | None = None
    edital: Edital | None = None


class ReferenciaAuto(_Strict):
    """The auto de infração a notice, edital, termo or statement refers to."""

    numero: str | None = Field(default=None, json_schema_extra={"pattern": DOCUMENT_NUMBER_PATTERN},
                               description="número/ano do auto de infração a que este documento se refere, "
                               "p. ex. 17/2026")
    data: Day | None = Field(default=None, description="data da lavratura desse auto de infração")

    @field_validator("numero")
    @classmethod
    def _numero(cls, v: str | None) -> str | None:
        return check_document_number(v)


class Exigencia(_Strict):
    """What a notificação preliminar orders and by when (the deadline is an id of the law's prazos file)."""

    descricao: str | None = Field(default=None, description="o que o notificado deve fazer para regularizar a "
                                  "situação, p. ex. roçar, capinar e limpar o terreno")
    prazo: str | None = Field(default=None, pattern=r"^[a-z0-9_]+$",
                              description="id do prazo de cumprimento nas regras de prazos da lei, p. ex. "
                              "limpeza_terreno_art4 (veja rules/<municipio>/<lei>.prazos.yaml)")


class Apreensao(_Strict):
    """Facts of an apprehension of animals (Cuiabá arts. 9 and 11). The species and the number of animals
    are those of ``infracoes[].especie`` and ``infracoes[].quantidade`` (the size follows from the species,
    art. 11, § 4º)."""

    data: Day | None = Field(default=None, description="data da apreensão")
    hora: Hora | None = Field(default=None, description="hora da apreensão (HH:MM, entre aspas)")
    local: str | None = Field(default=None, description="local da apreensão (via, logradouro ou imóvel)")
    descricao: str | None = Field(default=None, description="descrição dos animais apreendidos: raça, pelagem, "
                                  "sexo, idade aparente, sinais, coleira ou identificação")
    data_recolhimento: Day | None = Field(default=None, description="data em que o animal foi recolhido "
                                           "(entregue) ao Centro de Controle de Zoonoses; dela corre o prazo de "
                                           "resgate")
    local_recolhimento: str | None = Field(default=None, description="onde o animal fica sob guarda, p. ex. "
                                           "Centro de Controle de Zoonoses, com o endereço")


class ArgumentoImpugnacao(_Strict):
    """One item a defence or appeal argues (the processo act's ``argumentos``)."""

    id: str
    texto: str


class RazaoDecisao(_Strict):
    """A decision's answer to one argument (the processo act's ``razoes``)."""

    argumento: str
    conclusao: Literal["acolhido", "acolhido_em_parte", "rejeitado"]
    fatos: str | None = None
    fundamentos: str | None = None


class Signatario(_Strict):
    """Who signs the document, as the register of authorities knows them on its date (a processo act): the
    person, the post and its organ, and the act that gives the competence. ``exemplo``: a value of the register
    marked as an example (``fontes``: file and line of each)."""

    nome: str
    cargo: str
    orgao: str
    matricula: str | None = None
    competencia: str = Field(description="o fundamento da competência: o artigo da lei, o ato de designação ou de "
                             "delegação")
    delegacao: str | None = Field(default=None, description="ato praticado por delegação: de quem e por qual ato")
    exemplo: bool = False
    fontes: list[str] = Field(default_factory=no_items)


class Impugnacao(_Strict):
    """The defence or appeal a decision decides (a processo act: its protocol and whether it was on time)."""

    tipo: Literal["defesa", "recurso"] = Field(description="defesa (contra o auto) ou recurso (contra a decisão)")
    numero: str | None = Field(default=None, description="número do protocolo")
    data: Day | None = Field(default=None, description="data do protocolo")
    prazo_vencido_em: date | None = Field(default=None, description="intempestiva: a data em que o prazo venceu")
    tempestividade_conhecida: bool = Field(default=False, description="a linha do tempo do processo foi conferida")
    prazo: str | None = Field(default=None, description="tempestiva: o prazo que cumpriu (p. ex. 10 dias corridos)")
    prazo_inicio: date | None = Field(default=None, description="tempestiva: a data da ciência de que o prazo correu")
    prazo_fim: date | None = Field(default=None, description="tempestiva: o último dia do prazo que cumpriu")
    argumentos: list[ArgumentoImpugnacao] = Field(default_factory=no_items, description="o que alega, item por item")


class Decisao(_Strict):
    """A decision on the auto (first instance) or on the appeal, as the processo records it."""

    instancia: Literal["primeira", "recurso"]
    numero: str | None = None
    data: Day | None = None
    resultado: Literal["mantida", "reduzida", "cancelada"] | None = None
    valor: Amount | None = Field(default=None, description="reduzida: o novo valor da multa, em reais")
    autoridade: str | None = Field(default=None, description="quem decide (nome e cargo)")
    fundamentacao: str | None = None
    impugnacao: Impugnacao | None = None
    relatorio: str | None = None
    razoes: list[RazaoDecisao] = Field(default_factory=no_items)
    dispositivo: str | None = None
    valor_base: Amount | None = Field(default=None, description="reduzida: o novo valor na unidade fiscal da lei")
    motivo_valor: str | None = None
    #: the decision closes the administrative instance (no further appeal lies in the law's rite)
    ultima_instancia: bool = False
    #: who decides an appeal against it (post and organ, from the register), when one lies
    instancia_recursal: str | None = None
    #: the deadline to appeal against it (an id of the rite's deadlines), when one lies
    prazo_recurso: str | None = None
    #: the deadline to pay the fine it keeps or reduces (an id of the rite's deadlines), when its notice starts one
    prazo_pagamento: str | None = None
    #: the fine in force before it, in the law's unit, when an earlier decision reduced it (and that decision)
    valor_base_anterior: Amount | None = None
    anterior: str | None = None
    #: a decision on appeal: the despacho in which the authority that judged did not reconsider and forwarded the
    #: appeal (Lei 9.784/1999, art. 56, § 1º, by analogy), e.g. "Despacho nº DESP-CCZ-1/2026, de 30/09/2026"
    encaminhamento: str | None = None



class PublicacaoEdital(_Strict):
    """One publication of an edital, as the processo records it (the certificate of publication lists them)."""

    data: Day
    meio: Literal["oficial", "jornal", "afixacao"] = "oficial"
    veiculo: str | None = None


class PrazoDoAto(_Strict):
    """A deadline a processo act starts: its id in the law's deadline rules and the date it counts from
    (``None``: from the notice the document states, or from a later act — the term is printed without a date)."""

    prazo: str = Field(pattern=r"^[a-z0-9_]+$")
    inicio: date | None = None


class NotificacaoCitada(_Strict):
    """The notice an auto cites because its infraction is not answering it (Ferraz art. 4º: "Não sendo atendida a
    notificação, serão os responsáveis autuados"): what the auto prints of it."""

    numero: str | None = None
    data: date | None = None
    ciencia: date | None = Field(default=None, description="data do recibo datado do notificado")
    prazo: str | None = Field(default=None, description="o prazo do artigo, por extenso (30 dias corridos…)")
    vencimento: date | None = Field(default=None, description="último dia do prazo, vencido sem atendimento")


class PagamentoRegistrado(_Strict):
    """A payment the processo records before the act (Cuiabá art. 11, § 2º: the animal is retrieved "mediante
    pagamento de multa e taxa"): what the act's document prints of it."""

    nome: str  # the act kind's name ("pagamento da multa e das taxas do resgate")
    numero: str | None = None
    data: date | None = None
    valor: Amount | None = None


class TentativaNotificacao(_Strict):
    """A notice attempted before an edital, or the search for the domicile, as the processo records it (Ferraz
    art. 76, III; Timóteo art. 21, III, and § 2º): what the edital states of it."""

    nome: str  # the act kind's name ("notificação do auto por carta com AR", "diligência de localização…")
    numero: str | None = None
    data: date | None = None
    devolucao: date | None = Field(default=None, description="carta com AR: data em que voltou sem entrega")
    motivo: str | None = Field(default=None, description="carta com AR: o motivo da devolução")
    descricao: str | None = Field(default=None, description="diligência: o que se tentou e o resultado")


class AtoProcesso(_Strict):
    """What the processo knows of the act a document is made of, as of the document's date (filled by
    :mod:`autos.checks.acts`; a case file of one document has none): the act's own number as typed (a
    protocol or a decision is numbered "P-77/2026"), the publications of an edital, the defence or appeal
    received (protocol) and the deadlines the act starts."""

    numero: str | None = None
    forma: Literal["pessoal", "recusa", "ar", "edital"] | None = Field(
        default=None, description="notificação: a forma (também quando ainda não produz efeito, como o AR postado)")
    postagem: Day | None = Field(default=None, description="notificação por AR: a data da postagem")
    publicacoes: list[PublicacaoEdital] = Field(default_factory=no_items)
    protocolo: Impugnacao | None = None
    prazos: list[PrazoDoAto] = Field(default_factory=no_items)
    ciencia_posterior: Literal["ar", "edital"] | None = Field(
        default=None, description="auto com o autuado ausente: a forma da notificação que o processo registra "
        "depois (só a forma; suas datas são posteriores ao auto)")
    notificacao_citada: NotificacaoCitada | None = Field(
        default=None, description="auto pelo não atendimento de uma notificação: a notificação preliminar citada")
    pagamento: PagamentoRegistrado | None = Field(
        default=None, description="resgate do animal: o pagamento registrado antes dele")
    tentativas: list[TentativaNotificacao] = Field(
        default_factory=no_items, description="edital: as cartas com AR devolvidas e as diligências que o precederam")
    razoes: str | None = Field(
        default=None, description="despacho de encaminhamento do recurso: por que a autoridade não reconsidera")
    anexos: list[str] = Field(
        default_factory=list, description="notificação do auto: os termos lavrados com ele, sem a ciência do "
        "responsável, cujas cópias seguem com a do auto (p. ex. o termo de embargo)")


class Medida(_Strict):
    """An administrative measure (embargo of a work, interdiction of an establishment, apprehension of goods)
    as a processo act records it; in a termo that ends it (levantamento, restituição) it is the measure ended,
    and ``fim`` the date it ends."""

    tipo: Literal["embargo", "interdicao", "apreensao", "condenacao", "suspensao", "cassacao"] = Field(
        description="a medida: embargo, interdicao, apreensao, condenacao, suspensao ou cassacao")
    numero: str | None = Field(default=None, description="número do termo da medida")
    data: Day | None = Field(default=None, description="data em que a medida foi imposta")
    local: str | None = Field(default=None, description="onde a medida foi imposta (obra, estabelecimento)")
    descricao: str | None = Field(default=None, description="o que foi embargado, interditado ou apreendido")
    abrangencia: Literal["total", "parcial"] | None = Field(default=None, description="interdição: total ou "
                                                            "parcial")
    itens: list[ItemApreendido] = Field(default_factory=no_items, description="apreensão: os bens apreendidos")
    local_deposito: str | None = Field(default=None, description="apreensão: onde os bens ficaram depositados")
    destino: str | None = Field(default=None, description="condenação: a inutilização ou a destinação final dada "
                                "aos itens")
    fim: date | None = Field(default=None, description="termo de levantamento ou de restituição: a data em que "
                             "a medida termina")
    condicoes_levantamento: str | None = Field(default=None, description="interdição: o que o estabelecimento "
                                               "deve cumprir para que seja levantada")
    constatacao: str | None = Field(default=None, description="termo de levantamento ou de restituição: o que o "
                                    "agente constatou para encerrar a medida (p. ex. que não subsistem as causas "
                                    "da apreensão)")
    certificacao: str | None = Field(default=None, description="a certificação que o próprio termo faz da recusa "
                                     "do responsável em assiná-lo, diante de testemunha, e da entrega da cópia")
    vigente_desde: date | None = Field(default=None, description="a data do ato anterior de que a medida já vigora "
                                       "(p. ex. a notificação do art. 37 de Ferraz, 'ficando a obra embargada')")
    vigente_por: str | None = Field(default=None, description="esse ato, pelo nome e número (p. ex. notificação "
                                    "preliminar nº 1290/2026)")


DocumentKindId = Annotated[str, Field(pattern=r"^[a-z_]+$")]


class Case(_Strict):
    """One case file."""

    # built by its first validation (a case file, an act's document): ``autos pendencias`` and ``autos regras``
    # validate none, and start without building it
    model_config = ConfigDict(defer_build=True)

    lei: str = Field(description="identificador da lei nas regras, p. ex. timoteo-mg/lei-3844-2022")
    documento: DocumentKindId = "auto_de_infracao"
    numero: str | None = Field(default=None, json_schema_extra={"pattern": DOCUMENT_NUMBER_PATTERN},
                               description="número/ano, p. ex. 17/2026")
    processo: str | None = None
    autuado: Autuado
    lavratura: Lavratura = Field(default_factory=Lavratura)
    data_infracao: Day | None = Field(default=None, description="data da infração, se diferente da data do auto "
                                       "de infração (ou da lavratura deste documento)")
    fatos: str | None = None
    infracoes: list[Infracao] = Field(default_factory=no_items)
    agente: Agente = Field(default_factory=Agente)
    circunstancias: Circunstancias = Field(default_factory=Circunstancias)
    penalidades: list[PenalidadeProposta] = Field(default_factory=no_items)
    assinaturas: Assinaturas = Field(default_factory=Assinaturas)
    notificacao: Notificacao | None = None
    auto: ReferenciaAuto | None = Field(default=None, description="auto de infração a que esta notificação, "
                                        "edital, termo ou demonstrativo se refere")
    exigencia: Exigencia | None = Field(default=None, description="notificação preliminar: a obrigação e o "
                                        "prazo para cumpri-la")
    apreensao: Apreensao | None = Field(default=None, description="termo de apreensão de animais: data, hora e "
                                        "local da apreensão e o recolhimento ao Centro de Controle de Zoonoses")
    decisao: Decisao | None = Field(default=None, description="decisão (julgamento ou decisão do recurso): "
                                    "resultado, autoridade e a defesa ou o recurso decidido")
    ato: AtoProcesso | None = Field(default=None, description="documento de um ato de processo: o que o "
                                    "processo sabe do ato na data do documento")
    medida: Medida | None = Field(default=None, description="termo de embargo, de interdição, de levantamento ou "
                                  "de restituição: a medida imposta (ou a que termina) e suas datas")
    signatario: Signatario | None = Field(default=None, description="documento de um ato de processo: quem o "
                                          "assina, segundo o registro de autoridades")
    observacoes: str | None = None

    @field_validator("numero")
    @classmethod
    def _numero(cls, v: str | None) -> str | None:
        return check_document_number(v)

    @property
    def infraction_date(self) -> date | None:
        """``data_infracao``; if absent, the date of the auto the document refers to (``auto.data``: the
        ``lavratura`` of a notice, edital, termo or statement is that document's own date); else the date of
        this document's ``lavratura`` (an auto de infração)."""
        field = self.infraction_date_field
        return self.data_infracao if field == "data_infracao" else (
            self.auto.data if field == "auto.data" and self.auto is not None else self.lavratura.data)

    @property
    def infraction_date_field(self) -> str:
        """Which field :attr:`infraction_date` comes from (for error paths and lines)."""
        if self.data_infracao is not None:
            return "data_infracao"
        if self.auto is not None and self.auto.data is not None:
            return "auto.data"
        return "lavratura.data"
