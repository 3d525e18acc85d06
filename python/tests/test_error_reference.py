"""docs/error-codes.md's family table names the exception class each code raises in Python."""

from __future__ import annotations

import re
from pathlib import Path

import hunkloom
from hunkloom import _native

ROOT = Path(__file__).resolve().parents[2]


def table(title: str) -> list[list[str]]:
    text = (ROOT / "docs" / "error-codes.md").read_text(encoding="utf-8")
    section = text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|") and not line.startswith("|---")]
    return [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows[1:]]


def test_each_documented_code_raises_its_familys_documented_class() -> None:
    classes = {family: python.strip("`") for family, python, _ in table("Families")}
    codes = table("Codes")
    assert len(codes) > 40
    for code, family, *_ in codes:
        cls = _native._error_class(code.strip("`"))
        assert cls is not None, code
        family_class = getattr(hunkloom, classes[family])
        # A code may raise a subclass of its family's class (MissingFileError, which is also a
        # FileNotFoundError).
        assert issubclass(cls, family_class), (code, family)
        assert getattr(hunkloom, cls.__name__) is cls
        assert issubclass(cls, hunkloom.HunkloomError)
        assert re.fullmatch(r"[a-z_]+", code.strip("`"))
