"""The ledger's tables and queries (:mod:`autos.store.ledger`): the schema of format 1, the numbered migrations that
bring a file to :data:`SCHEMA_VERSION`, and every named query, in plain SQL that PostgreSQL also runs (``?``
parameters turned into the backend's style by ``Store.sql``)."""

from __future__ import annotations

#: 1: the first ledger; 2: corrections of a published edital (retificação, republicação, cancelamento) — see
#: :data:`_MIGRATIONS`. A new ledger is created at version 1 and migrated, so every ledger went through the same steps.
SCHEMA_VERSION = 2
_APPLICATION_ID = 0x6175746F  # "auto": marks the SQLite file as an autos ledger


_SCHEMA = """
CREATE TABLE editais (
    id INTEGER PRIMARY KEY,
    lei TEXT NOT NULL,                 -- rules id, e.g. timoteo-mg/lei-3844-2022 (one series per law)
    ano INTEGER NOT NULL,
    numero INTEGER NOT NULL CHECK (numero > 0),
    data_publicacao TEXT NOT NULL,     -- AAAA-MM-DD (official press)
    data_jornal TEXT,                  -- AAAA-MM-DD (local newspaper, when the law requires it)
    data_edital TEXT NOT NULL,         -- AAAA-MM-DD, the date the edital bears (issued on)
    veiculo TEXT NOT NULL,             -- official press the edital is published in
    jornal TEXT,                       -- local newspaper, when the law requires it
    estado TEXT NOT NULL CHECK (estado IN ('reservado', 'publicado')),
    saida TEXT NOT NULL,               -- output folder, relative to the ledger's folder (file paths are relative to it)
    reservado_em TEXT NOT NULL,        -- ISO 8601 with offset, also the "gerado em" printed
    publicado_em TEXT,
    UNIQUE (lei, ano, numero)
);
CREATE TABLE casos (
    edital_id INTEGER NOT NULL REFERENCES editais(id) ON DELETE CASCADE,
    ordem INTEGER NOT NULL,
    caso TEXT NOT NULL UNIQUE,         -- "<lei>#<número do auto>": a case is published once
    auto_numero TEXT NOT NULL,
    arquivo TEXT NOT NULL,             -- the case file as found
    sha256_caso TEXT NOT NULL,         -- of the case file's bytes
    texto_caso TEXT NOT NULL,          -- the case file as read (restart renders from it)
    motivo TEXT NOT NULL,              -- why edital (domicile unknown, AR returned and why)
    PRIMARY KEY (edital_id, ordem)
);
CREATE TABLE arquivos (
    id INTEGER PRIMARY KEY,
    edital_id INTEGER NOT NULL REFERENCES editais(id) ON DELETE CASCADE,
    caso TEXT,                         -- NULL for the consolidated edital and the gazette file
    tipo TEXT NOT NULL CHECK (tipo IN ('edital_consolidado', 'edital_individual_pdf',
                                       'edital_individual_docx', 'caderno')),
    caminho TEXT NOT NULL,             -- relative to editais.saida
    codigo TEXT UNIQUE,                -- verification code printed on the PDF (NULL for DOCX)
    sha256 TEXT,                       -- NULL while the edital is only reserved
    bytes INTEGER,
    UNIQUE (edital_id, caminho)
);
CREATE INDEX arquivos_sha256 ON arquivos (sha256);
"""

#: what each format adds to the one before it (format 1 is :data:`_SCHEMA`): plain SQL both backends run, applied
#: in order — by a SQLite ledger when it is opened for writing (as the register does), by ``autos banco migrar`` on
#: PostgreSQL (recorded in ``schema_migrations``). A step PostgreSQL must run differently goes in
#: ``_MIGRATIONS_POSTGRESQL`` under the same number.
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    # 2 — corrections of a published edital, as SEI records them:
    #   * an edital may correct another (``tipo`` retificacao | republicacao, ``corrige``: the edital corrected,
    #     ``motivo``; a retificação keeps what changed in ``alteracoes``, JSON). Its number is the next of the same
    #     series, like any edital;
    #   * a published edital may be cancelled (``cancelamentos``: one row per cancelled edital, never deleted);
    #   * so a case may be in more than one edital (the edital and its corrections; an edital cancelled and a new
    #     one): ``casos.caso`` is no longer UNIQUE (SQLite cannot drop a constraint: the table is rebuilt, same
    #     columns in the same order). "A case is published once" is kept by the ledger's code (:meth:`Ledger.reserve`,
    #     :meth:`Ledger.problems`): at most one live (not cancelled) edital of kind ``edital`` per case.
    2: (
        """CREATE TABLE casos_v2 (
    edital_id INTEGER NOT NULL REFERENCES editais(id) ON DELETE CASCADE,
    ordem INTEGER NOT NULL,
    caso TEXT NOT NULL,                -- "<lei>#<número do auto>"
    auto_numero TEXT NOT NULL,
    arquivo TEXT NOT NULL,
    sha256_caso TEXT NOT NULL,
    texto_caso TEXT NOT NULL,
    motivo TEXT NOT NULL,
    PRIMARY KEY (edital_id, ordem)
)""",
        "INSERT INTO casos_v2 (edital_id, ordem, caso, auto_numero, arquivo, sha256_caso, texto_caso, motivo) "
        "SELECT edital_id, ordem, caso, auto_numero, arquivo, sha256_caso, texto_caso, motivo FROM casos",
        "DROP TABLE casos",
        "ALTER TABLE casos_v2 RENAME TO casos",
        "CREATE INDEX casos_caso ON casos (caso)",
        "ALTER TABLE editais ADD COLUMN tipo TEXT NOT NULL DEFAULT 'edital' "
        "CHECK (tipo IN ('edital', 'retificacao', 'republicacao'))",
        "ALTER TABLE editais ADD COLUMN corrige INTEGER REFERENCES editais(id)",
        "ALTER TABLE editais ADD COLUMN motivo TEXT",
        "ALTER TABLE editais ADD COLUMN alteracoes TEXT",
        """CREATE TABLE cancelamentos (
    edital_id INTEGER PRIMARY KEY REFERENCES editais(id),
    data TEXT NOT NULL,                -- AAAA-MM-DD, the date of the cancellation
    motivo TEXT NOT NULL,
    cancelado_em TEXT NOT NULL         -- ISO 8601 with offset
)""",
    ),
}

#: a step of :data:`_MIGRATIONS` that PostgreSQL runs differently (same number): none so far
_MIGRATIONS_POSTGRESQL: dict[int, tuple[str, ...]] = {}


def schema_statements() -> tuple[str, ...]:
    """Format 1 (:data:`_SCHEMA`) as one statement each."""
    return tuple(st.strip() for st in _SCHEMA.split(";") if st.strip())

_EDITAL = ("e.id, e.lei, e.ano, e.numero, e.data_publicacao, e.data_jornal, e.data_edital, e.veiculo, e.jornal, "
           "e.estado, e.saida, e.reservado_em, e.publicado_em, e.tipo, e.corrige, e.motivo, e.alteracoes, c.data, "
           "c.motivo, c.cancelado_em")
_EDITAL_FROM = "editais e LEFT JOIN cancelamentos c ON c.edital_id = e.id"
_FILE = "tipo, caminho, caso, codigo, sha256, bytes"
_CASE = "ordem, caso, auto_numero, arquivo, sha256_caso, motivo"

#: every query the ledger runs, with ``?`` parameters (PostgreSQL runs them once ``Store.sql`` converts them)
_SQL = {
    "max_number": "SELECT max(numero) FROM editais WHERE lei = ? AND ano = ?",
    "max_edital_id": "SELECT max(id) FROM editais",
    "max_file_id": "SELECT max(id) FROM arquivos",
    "insert_edital": "INSERT INTO editais (id, lei, ano, numero, data_publicacao, data_jornal, data_edital, veiculo, "
                     "jornal, estado, saida, reservado_em, tipo, corrige, motivo, alteracoes) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'reservado', ?, ?, ?, ?, ?, ?)",
    "insert_case": "INSERT INTO casos (edital_id, ordem, caso, auto_numero, arquivo, sha256_caso, texto_caso, motivo) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    "insert_file": "INSERT INTO arquivos (id, edital_id, caso, tipo, caminho, codigo) VALUES (?, ?, ?, ?, ?, ?)",
    "state": "SELECT estado FROM editais WHERE id = ?",
    "planned_paths": "SELECT caminho FROM arquivos WHERE edital_id = ?",
    "set_hash": "UPDATE arquivos SET sha256 = ?, bytes = ? WHERE edital_id = ? AND caminho = ?",
    "publish": "UPDATE editais SET estado = 'publicado', publicado_em = ? WHERE id = ?",
    "series_of": "SELECT lei, ano, numero, estado FROM editais WHERE id = ?",
    "delete_edital": "DELETE FROM editais WHERE id = ?",
    "edital": f"SELECT {_EDITAL} FROM {_EDITAL_FROM} WHERE e.id = ?",
    "pending": f"SELECT {_EDITAL} FROM {_EDITAL_FROM} WHERE e.estado = 'reservado' ORDER BY e.id",
    "edital_by_number": "SELECT id FROM editais WHERE lei = ? AND ano = ? AND numero = ?",
    "corrections_of": "SELECT id FROM editais WHERE corrige = ? ORDER BY id",
    "insert_cancellation": "INSERT INTO cancelamentos (edital_id, data, motivo, cancelado_em) VALUES (?, ?, ?, ?)",
    "ids_cancelled_on": "SELECT e.id FROM editais e JOIN cancelamentos c ON c.edital_id = e.id "
                        "WHERE c.data = ? ORDER BY e.lei, e.ano, e.numero",
    "ids": "SELECT id FROM editais ORDER BY lei, ano, numero",
    "ids_on": "SELECT id FROM editais WHERE data_publicacao = ? ORDER BY lei, ano, numero",
    "cases_of": f"SELECT {_CASE} FROM casos WHERE edital_id = ? ORDER BY ordem",
    "cases_with_text_of": f"SELECT {_CASE}, texto_caso FROM casos WHERE edital_id = ? ORDER BY ordem",
    "files_of": f"SELECT {_FILE} FROM arquivos WHERE edital_id = ? ORDER BY id",
    "case": f"SELECT edital_id, {_CASE} FROM casos WHERE caso = ? ORDER BY edital_id",
    "case_with_text": f"SELECT edital_id, {_CASE}, texto_caso FROM casos WHERE caso = ? ORDER BY edital_id",
    "case_keys": "SELECT caso FROM casos ORDER BY edital_id, ordem",
    "live_case_keys": "SELECT s.caso, e.tipo, e.id FROM casos s JOIN editais e ON e.id = s.edital_id "
                      "WHERE NOT EXISTS (SELECT 1 FROM cancelamentos c WHERE c.edital_id = e.id) "
                      "ORDER BY s.edital_id, s.ordem",
    "files_by_sha256": f"SELECT edital_id, {_FILE} FROM arquivos WHERE sha256 = ? ORDER BY id",
    "files_by_code": f"SELECT edital_id, {_FILE} FROM arquivos WHERE codigo = ? ORDER BY id",
    "sibling": f"SELECT {_FILE} FROM arquivos WHERE edital_id = ? AND caso = ? AND tipo = ?",
    "sibling_of_edital": f"SELECT {_FILE} FROM arquivos WHERE edital_id = ? AND caso IS NULL AND tipo = ?",
    "series": "SELECT lei, ano, count(*), count(DISTINCT numero), max(numero) FROM editais GROUP BY lei, ano",
    "unhashed": "SELECT a.caminho FROM arquivos a JOIN editais e ON e.id = a.edital_id "
                "WHERE e.estado = 'publicado' AND a.sha256 IS NULL",
}
