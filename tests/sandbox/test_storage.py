"""The database file: reused as it is, and set aside when it is of another schema."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tui.sandbox import SandboxConfig, create_app


def count(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT count(*) FROM shipments").fetchone()[0])


def test_an_existing_database_is_not_reseeded(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    create_app(SandboxConfig(db_path=path, shipments=30)).close()
    create_app(SandboxConfig(db_path=path, shipments=80)).close()
    assert count(path) == 30


def test_a_database_of_another_schema_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    create_app(SandboxConfig(db_path=path, shipments=30)).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = '0' WHERE key = 'schema'")
    conn.close()
    create_app(SandboxConfig(db_path=path, shipments=12)).close()
    assert count(path) == 12
    assert count(tmp_path / "s.sqlite3.v0.old") == 30


def test_an_interrupted_seeding_starts_over(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    create_app(SandboxConfig(db_path=path, shipments=30)).close()
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM meta WHERE key = 'seeded'")
    conn.close()
    create_app(SandboxConfig(db_path=path, shipments=30)).close()
    assert count(path) == 30
