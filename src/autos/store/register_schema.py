"""The register's tables and queries (:mod:`autos.store.register`): the schema of format 1, the numbered migrations
that bring a file to :data:`SCHEMA_VERSION`, and every named query, written with ``?`` parameters in plain SQL that
PostgreSQL also runs (:meth:`autos.store.register_store.Store.sql` turns them into the backend's style)."""

from __future__ import annotations

SCHEMA_VERSION = 3
_APPLICATION_ID = 0x72656769  # "regi": marks the SQLite file as an autos register


_SCHEMA = (
    """CREATE TABLE processos (
    arquivo TEXT PRIMARY KEY,          -- the processo file, relative to the register's folder, '/' separators
    lei TEXT NOT NULL,
    numero TEXT NOT NULL,              -- number of the processo, as typed
    autuado_tipo TEXT NOT NULL,
    autuado_documento TEXT,            -- CPF/CNPJ digits only (dots, slash and dash removed), NULL if not given
    autuado_nome TEXT,
    data_infracao TEXT,                -- AAAA-MM-DD
    ultimo_ato TEXT NOT NULL,          -- kind of the last act
    resultado TEXT,                    -- result of the last decision (mantida, reduzida, cancelada), if any
    sha256 TEXT NOT NULL,              -- of the file's bytes when indexed
    indexado_em TEXT NOT NULL
)""",
    "CREATE INDEX processos_numero ON processos (lei, numero)",
    "CREATE INDEX processos_autuado ON processos (autuado_documento)",
    """CREATE TABLE infracoes (
    arquivo TEXT NOT NULL REFERENCES processos (arquivo) ON DELETE CASCADE,
    ordem INTEGER NOT NULL,
    regra TEXT NOT NULL,
    reincidente INTEGER,               -- 1/0 as typed, NULL if not typed
    PRIMARY KEY (arquivo, ordem)
)""",
    """CREATE TABLE atos (
    arquivo TEXT NOT NULL REFERENCES processos (arquivo) ON DELETE CASCADE,
    ordem INTEGER NOT NULL,            -- 1-based, as autos prazos numbers the acts
    tipo TEXT NOT NULL,
    numero TEXT,                       -- as typed
    numero_n INTEGER,                  -- N of N/AAAA (NULL when the number is not N/AAAA)
    numero_ano INTEGER,
    data TEXT,
    referente TEXT,
    resultado TEXT,
    valor TEXT,                        -- Decimal as text
    PRIMARY KEY (arquivo, ordem)
)""",
    "CREATE INDEX atos_numero ON atos (tipo, numero_ano, numero_n)",
    """CREATE TABLE numeros (
    lei TEXT NOT NULL,
    tipo TEXT NOT NULL,                -- act kind (auto, notificacao_ar, julgamento…)
    ano INTEGER NOT NULL,
    numero INTEGER NOT NULL CHECK (numero > 0),
    estado TEXT NOT NULL CHECK (estado IN ('reservado', 'cancelado')),
    processo TEXT,                     -- number of the processo it was reserved for, if any
    arquivo TEXT,                      -- that processo's file (relative), if known
    reservado_em TEXT NOT NULL,
    motivo TEXT,                       -- why it was cancelled
    cancelado_em TEXT,
    PRIMARY KEY (lei, tipo, ano, numero)
)""",
    """CREATE TABLE documentos (
    caminho TEXT NOT NULL,             -- the document as written, relative to the register's folder
    sha256 TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    arquivo TEXT NOT NULL,             -- the processo file it was generated from (relative)
    lei TEXT NOT NULL,
    processo TEXT NOT NULL,
    ato INTEGER NOT NULL,              -- 1-based act
    documento TEXT NOT NULL,           -- document kind (auto_de_infracao, decisao…)
    gravado_em TEXT NOT NULL,          -- ISO 8601 with offset: also the "gerado em" the document prints
    PRIMARY KEY (caminho, sha256)
)""",
    "CREATE INDEX documentos_sha256 ON documentos (sha256)",
)


#: what each format adds to the one before it, applied in order when a register of an older format is opened for
#: writing (a new register gets :data:`_SCHEMA` and then every step); a reader of an older format (``readonly``)
#: reads the tables it has. Format 2: the web application's accounts, sessions, audit log and legal reviews.
#: Format 3: the verification code each document prints, recorded with it (NULL for documents recorded before).
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    2: (
        """CREATE TABLE usuarios (
    login TEXT PRIMARY KEY,
    nome TEXT NOT NULL,
    papel TEXT NOT NULL CHECK (papel IN ('fiscal', 'chefia', 'procurador', 'admin')),
    matricula TEXT,                    -- the agent's matrícula (fiscal: the processos whose auto has it)
    departamento TEXT,                 -- a department of the web configuration (chefia: its laws)
    senha TEXT NOT NULL,               -- argon2id hash (PHC string); never the password
    ativo INTEGER NOT NULL CHECK (ativo IN (0, 1)),
    criado_em TEXT NOT NULL,
    desativado_em TEXT
)""",
        """CREATE TABLE sessoes (
    id TEXT PRIMARY KEY,               -- SHA-256 of the cookie's random value (a copy of the file opens no session)
    login TEXT NOT NULL REFERENCES usuarios (login) ON DELETE CASCADE,
    csrf TEXT NOT NULL,                -- the session's token for forms
    criada_em TEXT NOT NULL,
    expira_em TEXT NOT NULL            -- UTC, ISO 8601 (compared as text)
)""",
        "CREATE INDEX sessoes_login ON sessoes (login)",
        """CREATE TABLE auditoria (
    id INTEGER PRIMARY KEY,            -- the largest plus one, taken inside the write transaction
    quando TEXT NOT NULL,              -- ISO 8601 with offset
    login TEXT,                        -- who (NULL: not signed in, e.g. a failed sign-in of an unknown login)
    acao TEXT NOT NULL,                -- criou, alterou, emitiu, revisou, entrou, saiu, usuario-criado…
    objeto TEXT,                       -- what (a processo file, a login…)
    detalhe TEXT
)""",
        "CREATE INDEX auditoria_objeto ON auditoria (objeto)",
        """CREATE TABLE pareceres (
    id INTEGER PRIMARY KEY,            -- the largest plus one, taken inside the write transaction
    lei TEXT NOT NULL,
    processo TEXT NOT NULL,            -- number of the processo
    arquivo TEXT NOT NULL,             -- its file, relative to the processos folder
    tipo TEXT NOT NULL CHECK (tipo IN ('de_acordo', 'parecer')),
    texto TEXT,                        -- the parecer (or a note to the de acordo)
    login TEXT NOT NULL,
    nome TEXT NOT NULL,                -- the reviewer's name when recorded
    registrado_em TEXT NOT NULL
)""",
        "CREATE INDEX pareceres_processo ON pareceres (lei, processo)",
    ),
    3: (
        "ALTER TABLE documentos ADD COLUMN codigo TEXT",
        "CREATE INDEX documentos_codigo ON documentos (codigo)",
    ),
}


#: a step of :data:`_MIGRATIONS` that PostgreSQL runs differently (same number): none so far
_MIGRATIONS_POSTGRESQL: dict[int, tuple[str, ...]] = {}


#: every query the register runs, with ``?`` parameters (PostgreSQL runs them once ``Store.sql`` converts them)
_SQL = {
    "max_reserved": "SELECT max(numero) FROM numeros WHERE lei = ? AND tipo = ? AND ano = ?",
    "max_used": "SELECT max(a.numero_n) FROM atos a JOIN processos p ON p.arquivo = a.arquivo "
                "WHERE p.lei = ? AND a.tipo = ? AND a.numero_ano = ?",
    "insert_number": "INSERT INTO numeros (lei, tipo, ano, numero, estado, processo, arquivo, reservado_em) "
                     "VALUES (?, ?, ?, ?, 'reservado', ?, ?, ?)",
    "number": "SELECT lei, tipo, ano, numero, estado, processo, arquivo, reservado_em, motivo, cancelado_em "
              "FROM numeros WHERE lei = ? AND tipo = ? AND ano = ? AND numero = ?",
    "numbers": "SELECT lei, tipo, ano, numero, estado, processo, arquivo, reservado_em, motivo, cancelado_em "
               "FROM numeros ORDER BY lei, tipo, ano, numero",
    "numbers_at": "SELECT lei, tipo, ano, numero, estado, processo, arquivo, reservado_em, motivo, cancelado_em "
                  "FROM numeros WHERE ano = ? AND numero = ? ORDER BY lei, tipo",
    "numbers_for": "SELECT lei, tipo, ano, numero, estado, processo, arquivo, reservado_em, motivo, cancelado_em "
                   "FROM numeros WHERE lei = ? AND processo = ? ORDER BY tipo, ano, numero",
    "cancel": "UPDATE numeros SET estado = 'cancelado', motivo = ?, cancelado_em = ? "
              "WHERE lei = ? AND tipo = ? AND ano = ? AND numero = ?",
    "move_numbers": "UPDATE numeros SET arquivo = ? WHERE arquivo = ?",
    "users": "SELECT a.arquivo, p.numero, a.ordem FROM atos a JOIN processos p ON p.arquivo = a.arquivo "
             "WHERE p.lei = ? AND a.tipo = ? AND a.numero_ano = ? AND a.numero_n = ? ORDER BY a.arquivo, a.ordem",
    "processos": "SELECT arquivo, lei, numero, sha256 FROM processos ORDER BY arquivo",
    "processo_by_number": "SELECT arquivo FROM processos WHERE lei = ? AND numero = ? ORDER BY arquivo",
    "by_person": "SELECT arquivo, lei, numero, autuado_nome, data_infracao, ultimo_ato, resultado FROM processos "
                 "WHERE autuado_documento = ? ORDER BY lei, data_infracao, numero",
    "by_person_and_law": "SELECT arquivo, numero, data_infracao FROM processos "
                         "WHERE autuado_documento = ? AND lei = ? ORDER BY data_infracao, numero, arquivo",
    "delete_processo": "DELETE FROM processos WHERE arquivo = ?",
    "delete_acts": "DELETE FROM atos WHERE arquivo = ?",
    "delete_infractions": "DELETE FROM infracoes WHERE arquivo = ?",
    "delete_all_processos": "DELETE FROM processos",
    "delete_all_acts": "DELETE FROM atos",
    "delete_all_infractions": "DELETE FROM infracoes",
    "insert_processo": "INSERT INTO processos (arquivo, lei, numero, autuado_tipo, autuado_documento, autuado_nome, "
                       "data_infracao, ultimo_ato, resultado, sha256, indexado_em) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "insert_act": "INSERT INTO atos (arquivo, ordem, tipo, numero, numero_n, numero_ano, data, referente, resultado, "
                  "valor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "insert_infraction": "INSERT INTO infracoes (arquivo, ordem, regra, reincidente) VALUES (?, ?, ?, ?)",
    "document_exists": "SELECT count(*) FROM documentos WHERE caminho = ? AND sha256 = ?",
    "insert_document": "INSERT INTO documentos (caminho, sha256, bytes, arquivo, lei, processo, ato, documento, "
                       "gravado_em, codigo) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "documents_by_code": "SELECT caminho, sha256, bytes, arquivo, lei, processo, ato, documento, gravado_em, codigo "
                         "FROM documentos WHERE codigo = ? ORDER BY gravado_em DESC, caminho",
    "documents_by_hash": "SELECT caminho, sha256, bytes, arquivo, lei, processo, ato, documento, gravado_em "
                         "FROM documentos WHERE sha256 = ? ORDER BY gravado_em, caminho",
    "documents_at": "SELECT caminho, sha256, bytes, arquivo, lei, processo, ato, documento, gravado_em "
                    "FROM documentos WHERE caminho = ? ORDER BY gravado_em DESC, sha256",
    "documents_of": "SELECT caminho, sha256, bytes, arquivo, lei, processo, ato, documento, gravado_em "
                    "FROM documentos WHERE arquivo = ? ORDER BY ato, documento, gravado_em DESC, caminho",
    # the web application (format 2): accounts, sessions, audit log, legal reviews
    "insert_user": "INSERT INTO usuarios (login, nome, papel, matricula, departamento, senha, ativo, criado_em) "
                   "VALUES (?, ?, ?, ?, ?, ?, 1, ?)",
    "user": "SELECT login, nome, papel, matricula, departamento, ativo, criado_em, desativado_em FROM usuarios "
            "WHERE login = ?",
    "user_hash": "SELECT senha FROM usuarios WHERE login = ?",
    "user_set_hash": "UPDATE usuarios SET senha = ? WHERE login = ?",
    "users_all": "SELECT login, nome, papel, matricula, departamento, ativo, criado_em, desativado_em FROM usuarios "
                 "ORDER BY login",
    "user_deactivate": "UPDATE usuarios SET ativo = 0, desativado_em = ? WHERE login = ?",
    "insert_session": "INSERT INTO sessoes (id, login, csrf, criada_em, expira_em) VALUES (?, ?, ?, ?, ?)",
    "session": "SELECT s.login, s.csrf, s.expira_em FROM sessoes s JOIN usuarios u ON u.login = s.login "
               "WHERE s.id = ? AND u.ativo = 1",
    "delete_session": "DELETE FROM sessoes WHERE id = ?",
    "delete_sessions_of": "DELETE FROM sessoes WHERE login = ?",
    "delete_expired_sessions": "DELETE FROM sessoes WHERE expira_em <= ?",
    "max_audit": "SELECT max(id) FROM auditoria",
    "insert_audit": "INSERT INTO auditoria (id, quando, login, acao, objeto, detalhe) VALUES (?, ?, ?, ?, ?, ?)",
    "audit_recent": "SELECT id, quando, login, acao, objeto, detalhe FROM auditoria ORDER BY id DESC LIMIT ?",
    "audit_of": "SELECT id, quando, login, acao, objeto, detalhe FROM auditoria WHERE objeto = ? ORDER BY id",
    "max_review": "SELECT max(id) FROM pareceres",
    "insert_review": "INSERT INTO pareceres (id, lei, processo, arquivo, tipo, texto, login, nome, registrado_em) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "reviews_of": "SELECT id, lei, processo, arquivo, tipo, texto, login, nome, registrado_em FROM pareceres "
                  "WHERE lei = ? AND processo = ? ORDER BY id",
    # autos verificar: the whole index in three reads (never one query per processo)
    "index_processos": "SELECT arquivo, lei, numero, autuado_documento, data_infracao FROM processos "
                       "ORDER BY arquivo",
    "index_numbered_acts": "SELECT arquivo, ordem, tipo, numero FROM atos WHERE numero IS NOT NULL "
                           "ORDER BY arquivo, ordem",
    "index_infractions": "SELECT arquivo, regra FROM infracoes ORDER BY arquivo, ordem",
}
