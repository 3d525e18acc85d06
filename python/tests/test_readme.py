"""The READMEs' Python examples run as written (the repository's and the package's own)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, re.S)


def repository_readme_python_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]


@pytest.mark.parametrize(
    "where, text",
    [
        ("README.md (## Python)", repository_readme_python_section()),
        ("python/README.md", (ROOT / "python" / "README.md").read_text(encoding="utf-8")),
    ],
)
def test_readme_python_examples_run(where: str, text: str) -> None:
    blocks = python_blocks(text)
    assert blocks, f"{where} has no ```python block"
    for block in blocks:
        exec(compile(block, where, "exec"), {"__name__": "readme"})
