"""Shared by the tests: the conformance vectors, chunkings, and the summary lines.

Each vector run records ``<corpus> <mode>: <passed>/<total> passed``; the lines are printed in
pytest's terminal summary so they show in ``make test`` output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

import hunkloom

VECTORS = Path(__file__).resolve().parents[2] / "tests" / "vectors"
CLINE_CORPORA = ("cline-unit", "cline-diff-differential", "cline-diff-streaming-exhaustive")
RANDOM_SEED = 0x5EED

SUMMARY: list[str] = []


@pytest.fixture
def resume_cache_capacity() -> Iterator[None]:
    """Restores the resume cache's capacity after a test that changes it."""
    before = hunkloom.resume_cache_stats().capacity
    try:
        yield
    finally:
        hunkloom.set_resume_cache_capacity(before)


def load(corpus: str) -> list[dict[str, Any]]:
    """The vectors of one corpus (see tests/vectors/README.md)."""
    with open(VECTORS / f"{corpus}.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def utf16_to_str_index(text: str, utf16_index: int) -> int:
    """The Python ``str`` index of a JavaScript (UTF-16) index into ``text``."""
    units = 0
    for i, ch in enumerate(text):
        if units >= utf16_index:
            return i
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(text)


class SplitMix64:
    """The same deterministic generator as the Rust runner, so random splits match."""

    MASK = (1 << 64) - 1

    def __init__(self, seed: int) -> None:
        self.state = seed & self.MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.MASK
        return z ^ (z >> 31)


def split(text: str, mode: str, seed: int = RANDOM_SEED) -> Iterator[str]:
    """The pieces of ``text`` for a chunking mode: whole, line, char or random (from ``seed``)."""
    if mode == "whole":
        yield text
    elif mode == "line":
        # Only "\n" ends a line here (str.splitlines would also split at "\r", U+2028, ...).
        *lines, last = text.split("\n")
        for line in lines:
            yield line + "\n"
        if last:
            yield last
    elif mode == "char":
        yield from text
    elif mode == "random":
        rng = SplitMix64(seed ^ len(text.encode("utf-8")))
        at = 0
        while at < len(text):
            step = 1 + rng.next() % 16
            yield text[at : at + step]
            at += step
    else:
        raise ValueError(mode)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if SUMMARY:
        terminalreporter.section("conformance vectors (Python)")
        for line in SUMMARY:
            terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def summary() -> list[str]:
    return SUMMARY
