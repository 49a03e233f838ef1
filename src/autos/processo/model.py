"""The processo file: one YAML per administrative processo, its acts in order.

Field names are Portuguese, as in the case files; the auto reuses the case models of
:mod:`autos.processo.case` (autuado, infrações, agente, penalidades, assinaturas). Which fields each kind of act
requires or admits is data (``<lei>.processo.yaml``), checked by :mod:`autos.compute.timeline`; here
only types, formats and unknown keys are checked.
"""


from datetime import date
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from autos.base.schema import Day, no_items
from autos.processo.case import (
    DOCUMENT_NUMBER_PATTERN,
    Agente,
    Assinaturas,
    Autuado,
    Circunstancias,
    Exigencia,
    Hora,
    Infracao,
    ItemApreendido,
    PenalidadeProposta,
    Pessoa,
    Testemunha,
    check_act_number,
    check_document_number,
)

__all__ = ["AUTO_ACT", "Argumento", "Ato", "Devolucao", "Processo", "Publicacao", "Razao"]

#: the act that opens the processo (``inicial: true`` in the rules of each law): its number is a document number
AUTO_ACT = "auto"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class Devolucao(_Strict):
    """An AR that came back undelivered."""

    data: Day = Field(description="data em que o AR voltou sem entrega")
    motivo: str = Field(description="motivo lançado pelos Correios (mudou-se, desconhecido, ausente…)")


class Publicacao(_Strict):
    """One publication of an edital."""

    data: Day
    meio: Literal["oficial", "jornal", "afixacao"] = Field(
        default="oficial", description="órgão oficial de imprensa, jornal local ou afixação na sede")
    veiculo: str | None = Field(default=None, description="nome do órgão oficial ou do jornal, edição, página")


class Argumento(_Strict):
    """One item of what a defence or an appeal argues (the decision answers each by its ``id``)."""

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9.\-]{0,19}$", description="identificador do argumento (1, 2, "
                    "a…), a que a decisão responde")
    texto: str = Field(min_length=1, description="o que o autuado alega neste item, com os fatos e o pedido")


class Razao(_Strict):
    """The decision's answer to one argument: the facts it rests on, the legal grounds, the conclusion."""

    argumento: str = Field(description="o id do argumento da defesa ou do recurso a que esta razão responde")
    conclusao: Literal["acolhido", "acolhido_em_parte", "rejeitado"] = Field(
        description="o argumento é acolhido, acolhido em parte ou rejeitado")
    fatos: str | None = Field(default=None, description="os fatos em que a resposta se apoia (o que os autos "
                              "mostram)")
    fundamentos: str | None = Field(default=None, description="os fundamentos jurídicos: os dispositivos e por que "
                                    "se aplicam")


class Ato(_Strict):
    """One act of the processo. ``tipo`` is an act kind of the law's processo rules."""

    # the editor is told the auto's number rule too (check_act_number is the rule, applied on reading)
    model_config = ConfigDict(json_schema_extra={"allOf": [{
        "if": {"properties": {"tipo": {"const": AUTO_ACT}}, "required": ["tipo"]},
        "then": {"properties": {"numero": {
            "anyOf": [{"type": "string", "pattern": DOCUMENT_NUMBER_PATTERN}, {"type": "null"}],
            "description": "número/ano do auto de infração, p. ex. 17/2026 (em branco: a preencher)"}}}}]})

    tipo: str = Field(pattern=r"^[a-z_]+$", description="tipo do ato (veja autos regras mostrar LEI)")
    numero: str | None = Field(default=None, description="número do ato (auto, AR, protocolo, decisão, CDA…)")
    data: Day | None = Field(default=None, description="data do ato (defesa e recurso: data do protocolo)")
    hora: Hora | None = Field(default=None, description="hora do ato (HH:MM, entre aspas)")
    referente: str | None = Field(default=None, description="número do ato a que este se refere (p. ex. o auto "
                                  "que a notificação leva ao autuado, o recurso que a decisão julga)")
    local: str | None = None
    agente: Agente | None = None
    circunstancias: Circunstancias | None = None
    penalidades: list[PenalidadeProposta] | None = None
    assinaturas: Assinaturas | None = None
    testemunha: Testemunha | None = None
    postagem: Day | None = Field(default=None, description="AR: data da postagem")
    recebimento: Day | None = Field(default=None, description="AR: data de recebimento lançada no aviso")
    devolucao: Devolucao | None = None
    juntada: Day | None = Field(default=None, description="AR: data da juntada do aviso aos autos")
    publicacoes: list[Publicacao] | None = None
    resultado: Literal["mantida", "reduzida", "cancelada"] | None = None
    valor: Decimal | None = Field(default=None, ge=0, description="valor em reais (multa decidida, pagamento, "
                                  "débito inscrito)")
    autoridade: str | None = None
    fundamentacao: str | None = None
    argumentos: list[Argumento] | None = Field(default=None, description="defesa e recurso: o que o autuado alega, "
                                               "item por item")
    relatorio: str | None = Field(default=None, description="decisão: o relatório (o que consta dos autos), além "
                                  "do que o processo já registra")
    razoes: list[Razao] | None = Field(default=None, description="decisão: a resposta a cada argumento da defesa ou "
                                       "do recurso, com os fatos e os fundamentos")
    dispositivo: str | None = Field(default=None, description="decisão: o que ela determina além do resultado "
                                    "(restituição, providências)")
    valor_base: Decimal | None = Field(default=None, ge=0, description="decisão que reduz a multa: o novo valor na "
                                       "unidade fiscal da lei (UPFMT, UFM, UPF)")
    motivo_valor: str | None = Field(default=None, description="decisão que muda o valor da multa: por que este "
                                     "valor (os fatos, as circunstâncias e o artigo)")
    demonstrativo: str | None = Field(default=None, description="decisão que mantém ou reduz a multa: o número do "
                                      "demonstrativo de débito (NN/AAAA), o seu, não o da decisão")
    itens: list[ItemApreendido] | None = None
    fiel_depositario: Pessoa | None = None
    local_deposito: str | None = None
    recolhimento: Day | None = Field(default=None, description="apreensão de animal: data do recolhimento ao "
                                      "Centro de Controle de Zoonoses")
    destino: str | None = None
    abrangencia: Literal["total", "parcial"] | None = None
    descricao: str | None = None
    condicoes_levantamento: str | None = Field(default=None, description="interdição: o que o estabelecimento deve "
                                               "cumprir para que a interdição seja levantada")
    exigencia: Exigencia | None = Field(default=None, description="notificação preliminar: o que o notificado "
                                        "deve fazer e o id do prazo da lei para fazê-lo")
    observacoes: str | None = None

    @field_validator("numero")
    @classmethod
    def _numero(cls, v: str | None, info: ValidationInfo) -> str | None:
        return check_act_number(v, auto=info.data.get("tipo") == AUTO_ACT)

    @field_validator("demonstrativo")
    @classmethod
    def _demonstrativo(cls, v: str | None) -> str | None:
        # the demonstrativo is a document of its own, numbered NN/AAAA: checked on load, not when its document is
        # built (where a bad number would end the command in a traceback)
        return check_document_number(v)

    @property
    def data_do_ato(self) -> date | None:
        """The act's date: ``data``; for an AR its posting; for an edital its first publication."""
        if self.data is not None:
            return self.data
        if self.postagem is not None:
            return self.postagem
        if self.publicacoes:
            return min(p.data for p in self.publicacoes)
        return None

    def given(self) -> set[str]:
        """Names of the fields the clerk filled in (among those the file set: every optional field of an act
        defaults to empty, :data:`_DEFAULTS_EMPTY`)."""
        names = self.model_fields_set if _DEFAULTS_EMPTY else type(self).model_fields
        return {name for name in names if getattr(self, name) not in (None, [], "")}


#: every optional field of an act defaults to empty, so the fields a clerk filled in are among those the file set
_DEFAULTS_EMPTY = all(f.is_required() or (f.default_factory is None and f.default is None)
                      for f in Ato.model_fields.values())


class Processo(_Strict):
    """One administrative processo: who, where, what, and the acts in the order they happened."""

    lei: str = Field(description="identificador da lei nas regras, p. ex. timoteo-mg/lei-3844-2022")
    numero: str = Field(min_length=1, description="número do processo administrativo")
    autuado: Autuado
    local: str | None = Field(default=None, description="local da infração")
    data_infracao: Day | None = Field(default=None, description="data da infração, se anterior à do auto")
    fatos: str | None = None
    infracoes: list[Infracao] = Field(default_factory=no_items)
    atos: list[Ato] = Field(min_length=1)
    observacoes: str | None = None
