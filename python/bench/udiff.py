"""Unified diffs side by side with the tools they replace, in one process.

- In memory: ``hunkloom.apply_diff(diff, original, dialect=...)`` (``udiff-strict``, read as
  ``git apply`` reads it, and ``udiff``, the native reading) against whatthepatch 1.0.7, the
  Python library (``parse_patch`` then ``apply_diff``, its lines joined into the new text).
- On disk: ``Workspace(root, durability="none").apply_patch(diff, dialect="udiff-strict")``
  against ``git apply`` run as a Python agent runs it (``subprocess.run``), neither of them
  syncing to disk; the file is put back (untimed) after each call.

One hunk near the end of files of 10 KB, 200 KB and 2 MB. The calls alternate between the two
sides and each cell is the median of its rounds (ratio = the peer's time / hunkloom's):

    python python/bench/udiff.py [seconds per cell]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import whatthepatch  # type: ignore[import-untyped, import-not-found, unused-ignore]

import hunkloom


def code(size: int) -> str:
    """Distinct lines up to ``size`` bytes."""
    lines: list[str] = []
    total = 0
    while total < size:
        line = f"    value_{len(lines)} = compute({len(lines)}, 'text')\n"
        lines.append(line)
        total += len(line)
    return "".join(lines)


def hunk_near_end(text: str, name: str) -> str:
    """A git diff changing one line 40 lines before the end, three lines of context."""
    lines = text.split("\n")[:-1]
    at = len(lines) - 40
    old = lines[at - 3 : at + 4]
    new = old[:3] + [old[3] + " + 1"] + old[4:]
    body = [" " + line for line in old[:3]] + ["-" + old[3], "+" + new[3]]
    body += [" " + line for line in old[4:]]
    return (
        f"diff --git a/{name} b/{name}\n--- a/{name}\n+++ b/{name}\n"
        f"@@ -{at - 2},7 +{at - 2},7 @@\n" + "\n".join(body) + "\n"
    )


def whatthepatch_apply(diff: str, original: str) -> str:
    parsed = next(iter(whatthepatch.parse_patch(diff)))
    lines: list[str] = whatthepatch.apply_diff(parsed, original)
    return "\n".join(lines) + "\n"


def median_pair(ours: Callable[[], object], theirs: Callable[[], object], budget: float,
                reset: Callable[[], None] = lambda: None) -> tuple[float, float]:
    """Median seconds per call of each side, alternating; ``reset`` (untimed) after each."""
    times: tuple[list[float], list[float]] = ([], [])
    deadline = time.perf_counter() + budget
    while len(times[0]) < 7 or (time.perf_counter() < deadline and len(times[0]) < 500):
        for side, work in enumerate((ours, theirs)):
            start = time.perf_counter()
            work()
            times[side].append(time.perf_counter() - start)
            reset()
    return statistics.median(times[0]), statistics.median(times[1])


def line(name: str, label: str, ours: float, theirs: float) -> None:
    print(f"  {name:<38} {label:>7} {ours * 1e6:>9.0f}µs {theirs * 1e6:>9.0f}µs  {theirs / ours:6.2f}x")


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    print("Unified diff, one hunk near the end, medians (ratio = peer / hunkloom):")
    print(f"  {'call':<38} {'size':>7} {'hunkloom':>11} {'peer':>11}   ratio")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for size, label in [(10_000, "10 KB"), (200_000, "200 KB"), (2_000_000, "2 MB")]:
            original = code(size)
            name = f"file_{size}.py"
            diff = hunk_near_end(original, name)
            expected = whatthepatch_apply(diff, original)
            for dialect in ("udiff-strict", "udiff"):
                got = hunkloom.apply_diff(diff, original, dialect=dialect).new_content
                assert got == expected, f"{dialect} and whatthepatch differ on {label}"
                ours, theirs = median_pair(
                    lambda d=dialect: hunkloom.apply_diff(diff, original, dialect=d),  # type: ignore[misc]
                    lambda: whatthepatch_apply(diff, original),
                    budget,
                )
                line(f"{dialect} in memory vs whatthepatch", label, ours, theirs)

            target = root / name
            patch_file = root / f"{name}.diff"
            patch_file.write_text(diff)

            def put_back() -> None:
                target.write_text(original)

            put_back()
            workspace = hunkloom.Workspace(root, durability="none")
            workspace.apply_patch(diff, dialect="udiff-strict")
            assert target.read_text() == expected
            put_back()
            subprocess.run(["git", "apply", patch_file.name], cwd=root, check=True)
            assert target.read_text() == expected
            put_back()

            def ours_on_disk() -> object:
                return hunkloom.Workspace(root, durability="none").apply_patch(
                    diff, dialect="udiff-strict"
                )

            def git_apply() -> object:
                return subprocess.run(["git", "apply", patch_file.name], cwd=root, check=True)

            ours, theirs = median_pair(ours_on_disk, git_apply, budget, put_back)
            line("udiff-strict on disk vs git apply", label, ours, theirs)


if __name__ == "__main__":
    main()
