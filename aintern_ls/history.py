"""SQLite history of runs and safety decisions (seed 004's `command_executions`).

Every run, every refusal of a blocked command and every confirmation asked (with its
answer) is recorded, so a user can see what ran from which document. Output is
stored truncated. The file is created with mode 0600 (outputs can hold secrets even
after redaction), uses WAL so the server never waits on a reader, and its schema is
versioned with `PRAGMA user_version`.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import platformdirs

from aintern_ls.capture import truncate
from aintern_ls.capture.redaction import redact_str
from aintern_ls.errors import AInternError
from aintern_ls.models import CommandResult, TruncationMode

log = logging.getLogger(__name__)

STORED_OUTPUT_CHARACTERS = 20_000

_MIGRATIONS: list[str] = [
    # 1: runs and decisions
    """
    CREATE TABLE command_executions (
        id TEXT PRIMARY KEY,
        document_uri TEXT,
        message_id TEXT,
        block_id TEXT,
        command TEXT NOT NULL,
        working_dir TEXT,
        output TEXT,
        exit_code INTEGER,
        status TEXT NOT NULL,
        executed_at TEXT NOT NULL,
        duration INTEGER
    );
    CREATE INDEX command_executions_doc ON command_executions (document_uri, executed_at);
    CREATE TABLE decisions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        document_uri TEXT,
        block_id TEXT,
        command TEXT NOT NULL,
        level TEXT NOT NULL,
        rules TEXT NOT NULL,
        decision TEXT NOT NULL,
        decided_at TEXT NOT NULL
    );
    """,
]
SCHEMA_VERSION = len(_MIGRATIONS)


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_SQLITE_HEADER = b"SQLite format 3\x00"


def _check_target(path: Path) -> None:
    """Refuse a history path that is a symlink or an existing file that is not SQLite,
    so a setting can never turn someone's file into a database."""
    if path.is_symlink():
        raise AInternError(
            f"the history path {path} is a symbolic link; aintern-ls does not write "
            "through links: set aintern.historyPath to a regular file"
        )
    if not path.exists():
        return
    if not path.is_file():
        raise AInternError(f"the history path {path} is not a regular file")
    with open(path, "rb") as f:
        head = f.read(len(_SQLITE_HEADER))
    if head and head != _SQLITE_HEADER:
        raise AInternError(
            f"the history path {path} is an existing file that is not an aintern-ls "
            "database; it is left alone: set aintern.historyPath to another file"
        )


def default_path() -> Path:
    return Path(platformdirs.user_state_dir("aintern-ls")) / "history.sqlite3"


def _now() -> str:
    return datetime.now(UTC).isoformat()


class History:
    """The history database; opened on first use, safe to share between threads."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path else default_path()
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def _connect(self) -> sqlite3.Connection:
        if self._conn is not None:
            return self._conn
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _check_target(self.path)
            # create it private before sqlite opens it; never through a symlink
            os.close(os.open(self.path, os.O_CREAT | os.O_RDWR | _NOFOLLOW, 0o600))
            conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA busy_timeout=2000")
            self._migrate(conn)
        except (OSError, sqlite3.Error) as exc:
            raise AInternError(
                f"cannot open the history database {self.path}: {exc}; "
                "set aintern.historyPath to a writable file"
            ) from exc
        self._conn = conn
        return conn

    @staticmethod
    def _migrate(conn: sqlite3.Connection) -> None:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise sqlite3.DatabaseError(
                f"schema version {version} is newer than this aintern-ls understands "
                f"({SCHEMA_VERSION})"
            )
        for number in range(version, SCHEMA_VERSION):
            conn.executescript(
                f"BEGIN; {_MIGRATIONS[number]} PRAGMA user_version = {number + 1}; COMMIT;"
            )

    @property
    def schema_version(self) -> int:
        with self._lock:
            return int(self._connect().execute("PRAGMA user_version").fetchone()[0])

    def record_run(
        self,
        *,
        command: str,
        status: str,
        document_uri: str | None = None,
        message_id: str | None = None,
        block_id: str | None = None,
        working_dir: str | None = None,
        output: str = "",
        exit_code: int | None = None,
        duration_ms: int | None = None,
    ) -> str:
        run_id = str(uuid.uuid4())
        # Redacted here too, whatever the caller passed: the file is read by other tools.
        command = redact_str(command)
        stored = truncate(
            redact_str(output),
            max_characters=STORED_OUTPUT_CHARACTERS,
            mode=TruncationMode.KEEP_BOTH,
        ).text
        with self._lock:
            self._connect().execute(
                "INSERT INTO command_executions VALUES (:id, :document_uri, :message_id,"
                " :block_id, :command, :working_dir, :output, :exit_code, :status,"
                " :executed_at, :duration)",
                {
                    "id": run_id,
                    "document_uri": document_uri,
                    "message_id": message_id,
                    "block_id": block_id,
                    "command": command,
                    "working_dir": working_dir,
                    "output": stored,
                    "exit_code": exit_code,
                    "status": status,
                    "executed_at": _now(),
                    "duration": duration_ms,
                },
            )
        return run_id

    def record_started(
        self,
        *,
        command: str,
        document_uri: str | None = None,
        message_id: str | None = None,
        block_id: str | None = None,
        working_dir: str | None = None,
    ) -> str:
        """Write the row of a run that starts now (status `executing`): a server killed
        mid-run still leaves it. `finish_run` fills in the outcome."""
        return self.record_run(
            command=command,
            status="executing",
            document_uri=document_uri,
            message_id=message_id,
            block_id=block_id,
            working_dir=working_dir,
        )

    def finish_run(self, run_id: str, result: CommandResult) -> None:
        """Complete a row written by `record_started` with the run's outcome."""
        stored = truncate(
            redact_str(result.output),
            max_characters=STORED_OUTPUT_CHARACTERS,
            mode=TruncationMode.KEEP_BOTH,
        ).text
        with self._lock:
            self._connect().execute(
                "UPDATE command_executions SET status = ?, output = ?, exit_code = ?,"
                " duration = ?, working_dir = COALESCE(?, working_dir) WHERE id = ?",
                (
                    result.status.value,
                    stored,
                    result.exit_code,
                    result.duration_ms,
                    result.cwd,
                    run_id,
                ),
            )

    def record_decision(
        self,
        *,
        command: str,
        level: str,
        rules: list[str],
        decision: str,
        document_uri: str | None = None,
        block_id: str | None = None,
    ) -> None:
        """`decision` is one of blocked, asked, confirmed, declined."""
        command = redact_str(command)
        with self._lock:
            self._connect().execute(
                "INSERT INTO decisions (document_uri, block_id, command, level, rules, decision,"
                " decided_at) VALUES (?,?,?,?,?,?,?)",
                (document_uri, block_id, command, level, ",".join(rules), decision, _now()),
            )

    def runs(self, document_uri: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        """Runs newest first, as camelCase dicts."""
        query = "SELECT * FROM command_executions"
        args: list[Any] = []
        if document_uri:
            query += " WHERE document_uri = ?"
            args.append(document_uri)
        query += " ORDER BY executed_at DESC, rowid DESC LIMIT ?"
        args.append(max(1, min(limit, 1000)))
        with self._lock:
            cur = self._connect().execute(query, args)
            names = [c[0] for c in cur.description]
            rows = cur.fetchall()
        return [_camel(dict(zip(names, row, strict=True))) for row in rows]

    def record_result(
        self, result: CommandResult, *, document_uri: str | None, message_id: str | None
    ) -> str:
        """Record a block's run as the editor saw it."""
        return self.record_run(
            command=result.command,
            status=result.status.value,
            document_uri=document_uri,
            message_id=message_id,
            block_id=result.block_id,
            working_dir=result.cwd,
            output=result.output,
            exit_code=result.exit_code,
            duration_ms=result.duration_ms,
        )

    def decisions(self, limit: int = 50) -> list[dict[str, Any]]:
        with self._lock:
            cur = self._connect().execute(
                "SELECT * FROM decisions ORDER BY id DESC LIMIT ?", (max(1, limit),)
            )
            names = [c[0] for c in cur.description]
            rows = cur.fetchall()
        return [_camel(dict(zip(names, row, strict=True))) for row in rows]

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def _camel(row: dict[str, Any]) -> dict[str, Any]:
    from aintern_ls.models import camel_case

    return {camel_case(k): v for k, v in row.items()}
