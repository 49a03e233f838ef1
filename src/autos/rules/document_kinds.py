"""The document kinds of a statute (``documentos.<kind>``) as data: the elements each kind must contain, its clauses,
the law's rule on an autuado who refuses to sign, and the kind itself.

No ``from __future__ import annotations`` here: pydantic evaluates the annotations when a model is defined."""


from typing import Literal

from pydantic import Field, model_validator

from autos.base.citation import Citation
from autos.rules.statute_base import Condition, Severity, _Strict


class Element(_Strict):
    """A required element of a document kind (e.g. Timóteo Art. 20 § 1º, I–VII).

    ``campos`` are dotted case paths; a list is entered with ``[]`` (every item) or ``[campo=valor]``
    (the items whose field has that value), e.g. ``penalidades[tipo=apreensao].itens``.
    """

    codigo: str = Field(pattern=r"^[A-Z0-9][A-Z0-9.\-]*$")
    descricao: str
    citacao: Citation
    severidade: Severity = "erro"
    verificacao: Literal[
        "campos", "assinatura_ou_recusa", "dispositivos", "prazo_defesa", "veterinario_oficial",
        "valores", "datas_em_ordem", "prazo", "multa_calculada", "custas_por_dia",
    ] = "campos"
    campos: list[str] = Field(default_factory=list)
    quando: Condition | None = None
    prazo: str | None = None  # prazo_defesa / prazo: the deadline id in the law's prazos file
    prazo_campo: str | None = None  # prazo: the case field holding the deadline id (instead of ``prazo``)
    valores: list[str | bool] = Field(default_factory=list)  # valores / prazo: the values allowed
    penalidade: str | None = None  # custas_por_dia: the penalty whose costs accrue per day
    # assinatura_ou_recusa: where the law says what the signature's date means (data), how a refusal is
    # certified (recusa) and how an absent person is notified (ciencia); quoted in the findings
    citacoes: dict[Literal["data", "recusa", "ciencia"], Citation] = Field(default_factory=dict)
    dica: str

    @model_validator(mode="after")
    def _fields(self) -> "Element":
        need = {"campos": bool(self.campos), "valores": bool(self.campos and self.valores),
                "datas_em_ordem": len(self.campos) >= 2, "prazo_defesa": bool(self.prazo),
                "prazo": (self.prazo is None) != (self.prazo_campo is None) and len(self.campos) <= 1,
                "custas_por_dia": bool(self.penalidade),
                "assinatura_ou_recusa": set(self.citacoes) == {"data", "recusa", "ciencia"}}
        what = {"campos": "a lista 'campos'", "valores": "'campos' e 'valores'",
                "datas_em_ordem": "ao menos duas datas em 'campos'",
                "prazo_defesa": "'prazo' (o id do prazo nas regras de prazos)",
                "prazo": "'prazo' (id fixo) ou 'prazo_campo' (campo do caso com o id), e no máximo um campo "
                         "com a data de início em 'campos'",
                "custas_por_dia": "'penalidade' (a penalidade cujas despesas correm por dia)",
                "assinatura_ou_recusa": "'citacoes' com 'data' (o dispositivo sobre a data da assinatura), "
                                        "'recusa' (a certificação da recusa) e 'ciencia' (a ciência do ausente)"}
        if not need.get(self.verificacao, True):
            raise ValueError(f"o elemento {self.codigo} de verificação '{self.verificacao}' precisa de "
                             f"{what[self.verificacao]}")
        return self


class Clause(_Strict):
    """A statement of the law a document kind prints, with its article (e.g. Timóteo Art. 16, § 4º); ``quando``:
    only when the case's field holds (Ferraz art. 78: the appeal clause is not printed after the appeal decision)."""

    texto: str
    citacao: Citation
    quando: Condition | None = None


class RefusalRule(_Strict):
    """What the law says of an autuado who refuses to sign or to take notice of the document, printed by it.

    ``texto`` may hold ``{testemunha}`` (" na presença da testemunha abaixo identificada" when the case names one,
    else nothing: no document claims a witness it does not name) and ``{recebedor}`` (who received the copy: the
    person present, else the autuado). ``testemunha``: the law requires one (its absence is a finding)."""

    texto: str
    citacao: Citation
    testemunha: bool = False
    #: the certified refusal is the notice (Timóteo art. 21, § 1º); False: the notice must still be given in
    #: another form (Ferraz art. 76, I: personal notice needs a dated receipt) — a personal notice is a finding
    ciencia: bool = True
    dica: str | None = None  # how to give the notice when the refusal is not one
    interpretacao: str | None = None  # the choice recorded where the law is silent


class DocumentKind(_Strict):
    titulo: str
    modelo: str  # template base name in templates/
    citacao: Citation
    elementos: list[Element]
    nulidade: Citation | None = None  # where the law voids a document that omits an element
    clausulas: list[Clause] = Field(default_factory=list)  # legal statements the document prints
    #: recorded choices this kind applies (printed by the document, with the problem and the choice)
    interpretacoes: list[str] = Field(default_factory=list)
    recusa: RefusalRule | None = None  # the law's rule on a refusal (auto de infração)
    #: the header cites the provisions the case applies (its infractions and their ``remissoes``), not ``citacao``
    #: (Ferraz's notificação preliminar: arts. 3º and 4º for a lot to clean, not every article that orders one)
    citacao_do_caso: bool = False
    #: the law's notice articles apply to this kind only by analogy (Ferraz arts. 76 and 77 for the notificação
    #: preliminar): its notice and the deadlines counted from it say so
    notificacao_por_analogia: bool = False
    #: the operative sentence of a termo whose measure the law names otherwise than the default one (Ferraz art. 69,
    #: § 3º: "Fica CASSADA, a partir de {data}, a licença de funcionamento abaixo descrita."); {data}: the
    #: measure's date, {local}: its place
    frase_medida: str | None = None
    #: the body that draws up this kind when it is not the law's ``lei.orgao`` (Ferraz art. 53, § 1º: the Guarda
    #: Civil Municipal draws up the termo de ocorrência): printed in the letterhead instead of the department
    orgao: str | None = None
