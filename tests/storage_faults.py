"""Helpers (no tests here): a SQLite file made truly unwritable, and a damaged page.

Unwritable: ``chattr +i`` (immutable), which even root cannot write (the suite runs as
root, for whom ``chmod 444`` changes nothing). The WAL is checkpointed into the file
first and the engines' pools are emptied, so every new connection opens the file
again and SQLite falls back to read-only: writes fail with "attempt to write a
readonly database", reads still work (a reload shows what was saved).
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa


def checkpoint(path: Path) -> None:
    """Every committed page into the main file (the WAL emptied)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


@contextmanager
def unwritable(path: Path, engines: Sequence[sa.Engine] = ()) -> Iterator[None]:
    """The database file cannot be written inside the block (then it can again)."""
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed")
    for engine in engines:
        engine.dispose()
    checkpoint(path)
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"chattr +i refused here: {done.stderr.decode().strip()}")
    try:
        for engine in engines:
            engine.dispose()
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)
        for engine in engines:
            engine.dispose()


def damage_table(path: Path, table: str, engines: Sequence[sa.Engine] = ()) -> None:
    """Overwrite the first page of ``table``'s b-tree with garbage, as a failing disk
    would: reading that table then says "database disk image is malformed"."""
    for engine in engines:
        engine.dispose()
    checkpoint(path)
    conn = sqlite3.connect(path)
    try:
        (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
                               (table,)).fetchone()
        (size,) = conn.execute("PRAGMA page_size").fetchone()
    finally:
        conn.close()
    with open(path, "r+b") as f:
        f.seek((root - 1) * size)
        f.write(b"\x0d\xff\xff\xff" + b"\xa5" * (size - 4))
