"""Legal citations: "Lei nº 3.844/2022, art. 20, § 1º, inciso II"."""


import re

from pydantic import BaseModel, ConfigDict, field_validator

_ROMAN = re.compile(r"^[IVXLC]+$")


def _ordinal_if_small(number: str) -> str:
    """Brazilian drafting (LC 95/1998, art. 10, I): ordinal up to nine, cardinal from ten."""
    return f"{number}º" if number.isdigit() and int(number) <= 9 else number


class Citation(BaseModel):
    """Where a rule comes from: article, paragraph, inciso and alínea of the statute."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    artigo: str
    paragrafo: str | None = None  # "1", "2" … or "unico"
    inciso: str | None = None  # roman numeral
    alinea: str | None = None  # letter
    anexo: str | None = None
    nota: str | None = None  # free text, e.g. "primeiro parágrafo único"

    @field_validator("artigo")
    @classmethod
    def _artigo(cls, v: str) -> str:
        if not re.fullmatch(r"\d+(-[A-Z])?", v):
            raise ValueError("artigo deve ser um número, como 20 ou 143-A")
        return v

    @field_validator("paragrafo")
    @classmethod
    def _paragrafo(cls, v: str | None) -> str | None:
        if v is not None and not (v.isdigit() or v == "unico"):
            raise ValueError("parágrafo deve ser um número ou 'unico'")
        return v

    @field_validator("inciso")
    @classmethod
    def _inciso(cls, v: str | None) -> str | None:
        if v is not None and not _ROMAN.fullmatch(v):
            raise ValueError("inciso deve ser um numeral romano, como II")
        return v

    @field_validator("alinea")
    @classmethod
    def _alinea(cls, v: str | None) -> str | None:
        if v is not None and not re.fullmatch(r"[a-z]", v):
            raise ValueError("alínea deve ser uma letra minúscula, como a")
        return v

    def short(self) -> str:
        """``art. 20, § 1º, inciso II`` (without the statute)."""
        parts = [f"art. {_ordinal_if_small(self.artigo)}"]
        if self.paragrafo == "unico":
            parts.append("parágrafo único")
        elif self.paragrafo is not None:
            parts.append(f"§ {_ordinal_if_small(self.paragrafo)}")
        if self.inciso:
            parts.append(f"inciso {self.inciso}")
        if self.alinea:
            parts.append(f"alínea {self.alinea}")
        text = ", ".join(parts)
        if self.anexo:
            text += f", Anexo {self.anexo}"
        if self.nota:
            text += f" ({self.nota})"
        return text

    def full(self, statute_label: str) -> str:
        """``Lei nº 3.844/2022, art. 20, § 1º, inciso II``."""
        return f"{statute_label}, {self.short()}"
