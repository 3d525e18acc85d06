"""The text editor side by side with the tool it replaces, in one process.

``hunkloom.TextEditor(profile="anthropic", durability="none")`` against a stand-in of the
editor in Anthropic's computer-use demo (``str_replace_editor``), written here from its
observed behaviour: each call reads the whole file, expands tabs, works on Python strings and
writes the file back with ``Path.write_text`` (no fsync, so hunkloom runs without fsync too).
The calls alternate between the two on the same kind of file, and each cell is the median of
its rounds, so machine noise hits both sides alike:

    python python/bench/editor.py

Shapes: ``view`` of the whole file and of 40 lines, ``str_replace`` of one line (and back),
``insert`` of two lines followed by ``undo_edit``, on files of 10 KB, 200 KB and 2 MB.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable

import hunkloom

SNIPPET_LINES = 4


class StandIn:
    """Anthropic's demo editor, as it answers the calls measured here."""

    def __init__(self) -> None:
        self.history: defaultdict[Path, list[str]] = defaultdict(list)

    def call(self, args: dict[str, Any]) -> str:
        path = Path(args["path"])
        command = args["command"]
        if command == "view":
            text = path.read_text()
            first = 1
            if "view_range" in args:
                start, end = args["view_range"]
                lines = text.split("\n")
                text = "\n".join(lines[start - 1 : end])
                first = start
            return self.numbered(text, str(path), first)
        if command == "str_replace":
            text = path.read_text().expandtabs()
            old = args["old_str"].expandtabs()
            new = args["new_str"].expandtabs()
            if text.count(old) != 1:
                raise ValueError("old_str must occur once")
            updated = text.replace(old, new)
            path.write_text(updated)
            self.history[path].append(text)
            line = text.split(old)[0].count("\n")
            start = max(0, line - SNIPPET_LINES)
            end = line + SNIPPET_LINES + new.count("\n")
            snippet = "\n".join(updated.split("\n")[start : end + 1])
            return self.numbered(snippet, f"a snippet of {path}", start + 1)
        if command == "insert":
            text = path.read_text().expandtabs()
            at = args["insert_line"]
            lines = text.split("\n")
            added = args["new_str"].expandtabs().split("\n")
            updated = "\n".join(lines[:at] + added + lines[at:])
            path.write_text(updated)
            self.history[path].append(text)
            start = max(0, at - SNIPPET_LINES)
            snippet = "\n".join(
                lines[start:at] + added + lines[at : at + SNIPPET_LINES]
            )
            return self.numbered(snippet, "a snippet of the edited file", start + 1)
        if command == "undo_edit":
            previous = self.history[path].pop()
            path.write_text(previous)
            return self.numbered(previous, str(path), 1)
        raise ValueError(command)

    @staticmethod
    def numbered(text: str, name: str, first: int) -> str:
        body = "\n".join(
            f"{i + first:6}\t{line}" for i, line in enumerate(text.expandtabs().split("\n"))
        )
        return f"Here's the result of running `cat -n` on {name}:\n{body}\n"


def code(size: int) -> str:
    """Distinct functions up to ``size`` bytes."""
    parts: list[str] = []
    total, n = 0, 0
    while total < size:
        part = f"def handler_{n}(request):\n    value = compute({n}, request)\n    return value\n\n"
        parts.append(part)
        total += len(part)
        n += 1
    return "".join(parts)


Cells = dict[str, tuple[Callable[[], object], Callable[[], object]]]


def rounds(cells: Cells, reset: Callable[[], None], budget: float) -> dict[str, tuple[float, float]]:
    """Median seconds per call of each side of each cell, the sides alternating; ``reset``
    (untimed) after each round drops the undo histories the edits grow."""
    out: dict[str, tuple[float, float]] = {}
    for name, (ours, theirs) in cells.items():
        ours()
        theirs()
        times: tuple[list[float], list[float]] = ([], [])
        deadline = time.perf_counter() + budget
        while len(times[0]) < 7 or (time.perf_counter() < deadline and len(times[0]) < 400):
            for side, work in enumerate((ours, theirs)):
                start = time.perf_counter()
                work()
                times[side].append(time.perf_counter() - start)
            reset()
        out[name] = (statistics.median(times[0]), statistics.median(times[1]))
    return out


def cells_for(root: Path, size: int) -> tuple[Cells, Callable[[], None]]:
    text = code(size)
    ours_file, theirs_file = root / f"ours_{size}.py", root / f"theirs_{size}.py"
    ours_file.write_text(text)
    theirs_file.write_text(text)
    sides = [hunkloom.TextEditor(root, profile="anthropic", durability="none"), StandIn()]

    def reset() -> None:
        sides[0] = hunkloom.TextEditor(root, profile="anthropic", durability="none")
        sides[1] = StandIn()

    lines = text.count("\n")
    k = lines // 4 * 3 // 4  # a function three quarters down
    before = f"    value = compute({k}, request)\n"
    after = f"    value = compute({k}, request) + 1\n"
    middle = lines // 2

    def both(args: dict[str, Any]) -> tuple[Callable[[], object], Callable[[], object]]:
        def ours() -> object:
            editor = sides[0]
            assert isinstance(editor, hunkloom.TextEditor)
            result = editor.call({**args, "path": str(ours_file)})
            assert not result.is_error, result.output
            return result

        def theirs() -> object:
            stand_in = sides[1]
            assert isinstance(stand_in, StandIn)
            return stand_in.call({**args, "path": str(theirs_file)})

        return ours, theirs

    def replace_and_back(
        call: Callable[[dict[str, Any]], object],
    ) -> Callable[[], object]:
        def run() -> object:
            call({"command": "str_replace", "old_str": before, "new_str": after})
            return call({"command": "str_replace", "old_str": after, "new_str": before})

        return run

    def insert_and_undo(call: Callable[[dict[str, Any]], object]) -> Callable[[], object]:
        def run() -> object:
            call({"command": "insert", "insert_line": middle, "new_str": "x = 1\ny = 2"})
            return call({"command": "undo_edit"})

        return run

    view_all = both({"command": "view"})
    view_range = both({"command": "view", "view_range": [middle, middle + 39]})
    ours_call = lambda a: both(a)[0]()  # noqa: E731
    theirs_call = lambda a: both(a)[1]()  # noqa: E731
    cells: Cells = {
        "view, whole file": view_all,
        "view, 40 lines": view_range,
        "str_replace and back": (replace_and_back(ours_call), replace_and_back(theirs_call)),
        "insert + undo_edit": (insert_and_undo(ours_call), insert_and_undo(theirs_call)),
    }
    return cells, reset


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    print("TextEditor (anthropic, durability none) vs Anthropic's editor (stand-in), medians:")
    print(f"  {'call':<22} {'size':>7} {'hunkloom':>10} {'stand-in':>10}  ratio")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for size, label in [(10_000, "10 KB"), (200_000, "200 KB"), (2_000_000, "2 MB")]:
            cells, reset = cells_for(root, size)
            for name, (ours, theirs) in rounds(cells, reset, budget).items():
                print(
                    f"  {name:<22} {label:>7} {ours * 1e6:>8.0f}µs {theirs * 1e6:>8.0f}µs"
                    f"  {theirs / ours:5.2f}x"
                )


if __name__ == "__main__":
    main()
