"""The page's own files (``ui/board_assets``): what a component draws with."""

from __future__ import annotations

from pathlib import Path

__all__ = ["asset_text"]

_ASSETS = Path(__file__).with_name("board_assets")


def asset_text(*names: str) -> str:
    """The files ``names`` of ``ui/board_assets`` one after the other, as a component's
    ``js`` or ``css`` (a component's script is one module: a shared file such as
    ``say_alone.js`` or ``voice.js`` goes before the one that calls it)."""
    return "\n".join((_ASSETS / name).read_text(encoding="utf-8") for name in names)
