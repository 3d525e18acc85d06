"""The text editor side by side with the tools it replaces, in one process.

``hunkloom.TextEditor(profile=..., durability="none")`` against stand-ins of the two editors
its profiles reproduce, written here from their observed behaviour (neither fsyncs, so
hunkloom runs without fsync too):

- ``anthropic``: the editor of Anthropic's computer-use demo (``str_replace_editor``): each
  call reads the whole file, expands tabs, works on Python strings and writes the file back
  with ``Path.write_text``.
- ``openhands``: OpenHands' ``OHEditor`` (openhands-aci): each call checks the path and the
  file (size, a binary sniff of its first KiB), counts the file's lines where a line number is
  checked, reads files line by line, finds ``old_str`` with ``re.finditer``, keeps its undo
  history as JSON files in a directory, writes through a temporary file for ``insert``, and
  cuts any output at 16,000 characters. Its encoding detection (``charset_normalizer``, cached
  per file) is left out, which makes the stand-in a little faster than the tool.

The ``native`` profile (its own rules: tiers, guards, damaged-call checks) runs against the
``anthropic`` stand-in, the editor a native user replaces.

The calls alternate between hunkloom and the stand-in on the same kind of file, and each cell
is the median of its rounds, so machine noise hits both sides alike:

    python python/bench/editor.py [seconds per cell] [anthropic] [openhands] [native]

Shapes: ``view`` of the whole file and of 40 lines, ``str_replace`` of one line (and back),
``insert`` of two lines followed by ``undo_edit``, on files of 10 KB, 200 KB and 2 MB.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Literal

import hunkloom

SNIPPET_LINES = 4


class AnthropicStandIn:
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


TRUNCATE_AFTER = 16_000


class OpenHandsStandIn:
    """OpenHands' editor, as it answers the calls measured here."""

    def __init__(self, history: Path) -> None:
        self.history = history
        history.mkdir(exist_ok=True)

    def call(self, args: dict[str, Any]) -> str:
        path = Path(args["path"])
        command = args["command"]
        if not path.is_absolute() or not path.exists() or path.is_dir():
            raise ValueError(path)
        self.check(path)
        if command == "view":
            if "view_range" not in args:
                return self.numbered(self.read(path), str(path), 1)
            start, end = args["view_range"]
            if not 1 <= start <= self.count_lines(path):
                raise ValueError(start)
            text = "\n".join(self.read(path, start, end).splitlines())
            return self.numbered(text, str(path), start)
        if command == "str_replace":
            old, new = args["old_str"], args["new_str"]
            content = self.read(path)
            found = [
                (content.count("\n", 0, m.start()) + 1, m.group(), m.start())
                for m in re.finditer(re.escape(old), content)
            ]
            if len(found) != 1:
                raise ValueError("old_str must occur once")
            line, matched, at = found[0]
            updated = content[:at] + new + content[at + len(matched) :]
            self.write(path, updated)
            self.push(path, content)
            first = max(0, line - SNIPPET_LINES)
            last = line + SNIPPET_LINES + new.count("\n")
            snippet = self.read(path, first + 1, last)
            return f"The file {path} has been edited. " + self.numbered(
                snippet, f"a snippet of {path}", first + 1
            )
        if command == "insert":
            at = args["insert_line"]
            count = self.count_lines(path)
            if not 0 <= at <= count:
                raise ValueError(at)
            added = args["new_str"].split("\n")
            kept: list[str] = []
            with tempfile.NamedTemporaryFile("w", delete=False, dir=path.parent) as out:
                with open(path) as f:
                    for i, row in enumerate(f, 1):
                        if i > at:
                            break
                        out.write(row)
                        kept.append(row)
                for row in added:
                    out.write(row + "\n")
                with open(path) as f:
                    for i, row in enumerate(f, 1):
                        if i > at:
                            out.write(row)
                            kept.append(row)
            shutil.move(out.name, path)
            first = max(0, at - SNIPPET_LINES)
            snippet = self.read(path, first + 1, min(count + len(added), at + SNIPPET_LINES + len(added)))
            self.push(path, "".join(kept))
            self.read(path)
            return f"The file {path} has been edited. " + self.numbered(
                snippet, "a snippet of the edited file", max(1, at - SNIPPET_LINES + 1)
            )
        if command == "undo_edit":
            self.read(path)
            previous = self.pop(path)
            self.write(path, previous)
            return f"Last edit to {path} undone successfully. " + self.numbered(
                previous, str(path), 1
            )
        raise ValueError(command)

    @staticmethod
    def check(path: Path) -> None:
        if os.path.getsize(path) > 10 * 1024 * 1024:
            raise ValueError("too large")
        with open(path, "rb") as f:
            if b"\0" in f.read(1024):
                raise ValueError("binary")

    @staticmethod
    def count_lines(path: Path) -> int:
        with open(path) as f:
            return sum(1 for _ in f)

    def read(self, path: Path, start: int | None = None, end: int | None = None) -> str:
        self.check(path)
        with open(path) as f:
            if start is None or end is None:
                return "".join(f)
            lines = []
            for i, line in enumerate(f, 1):
                if i > end:
                    break
                if i >= start:
                    lines.append(line)
            return "".join(lines)

    def write(self, path: Path, text: str) -> None:
        self.check(path)
        with open(path, "w") as f:
            f.write(text)

    def entry(self, key: str) -> Path:
        return self.history / (hashlib.sha256(key.encode()).hexdigest() + ".json")

    def load(self, key: str, default: Any) -> Any:
        try:
            return json.loads(self.entry(key).read_text())["value"]
        except FileNotFoundError:
            return default

    def store(self, key: str, value: Any) -> None:
        self.entry(key).write_text(json.dumps({"key": key, "value": value}))

    def push(self, path: Path, content: str) -> None:
        meta = self.load(f"{path}.metadata", {"entries": [], "counter": 0})
        self.store(f"{path}.{meta['counter']}", content)
        meta["entries"].append(meta["counter"])
        meta["counter"] += 1
        while len(meta["entries"]) > 5:
            self.entry(f"{path}.{meta['entries'].pop(0)}").unlink()
        self.store(f"{path}.metadata", meta)

    def pop(self, path: Path) -> str:
        meta = self.load(f"{path}.metadata", {"entries": [], "counter": 0})
        key = f"{path}.{meta['entries'].pop()}"
        content: str = self.load(key, None)
        self.entry(key).unlink()
        self.store(f"{path}.metadata", meta)
        return content

    @staticmethod
    def numbered(text: str, name: str, first: int) -> str:
        if len(text) > TRUNCATE_AFTER:
            text = text[:TRUNCATE_AFTER] + "<response clipped>"
        body = "\n".join(f"{i + first:6}\t{line}" for i, line in enumerate(text.split("\n")))
        return f"Here's the result of running `cat -n` on {name}:\n{body}\n"


StandIn = AnthropicStandIn | OpenHandsStandIn
Profile = Literal["anthropic", "openhands"]
#: The profiles run: each reference profile against its editor, and ``native`` (its own rules:
#: tiers, guards, damaged-call checks) against Anthropic's, the editor a native user replaces.
Run = tuple[Literal["anthropic", "openhands", "native"], Profile]
RUNS: list[Run] = [("anthropic", "anthropic"), ("openhands", "openhands"), ("native", "anthropic")]


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


def stand_in(profile: Profile, root: Path) -> StandIn:
    if profile == "anthropic":
        return AnthropicStandIn()
    shutil.rmtree(root / "history", ignore_errors=True)
    return OpenHandsStandIn(root / "history")


def cells_for(root: Path, size: int, run: Run) -> tuple[Cells, Callable[[], None]]:
    profile, against = run
    text = code(size)
    ours_file, theirs_file = root / f"ours_{size}.py", root / f"theirs_{size}.py"
    ours_file.write_text(text)
    theirs_file.write_text(text)
    def editor() -> hunkloom.TextEditor:
        made = hunkloom.TextEditor(root, profile=profile, durability="none")
        if profile == "native":
            # The native profile edits only files the model has viewed (untimed).
            made.call({"command": "view", "path": str(ours_file), "view_range": [1, 1]})
        return made

    sides: list[hunkloom.TextEditor | StandIn] = [editor(), stand_in(against, root)]

    def reset() -> None:
        sides[0] = editor()
        sides[1] = stand_in(against, root)

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
            theirs = sides[1]
            assert not isinstance(theirs, hunkloom.TextEditor)
            return theirs.call({**args, "path": str(theirs_file)})

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
    for run in RUNS:
        profile, against = run
        if sys.argv[2:] and profile not in sys.argv[2:]:
            continue
        print(f"TextEditor ({profile}, durability none) vs the {against} editor (stand-in), medians:")
        print(f"  {'call':<22} {'size':>7} {'hunkloom':>10} {'stand-in':>10}  ratio")
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            for size, label in [(10_000, "10 KB"), (200_000, "200 KB"), (2_000_000, "2 MB")]:
                cells, reset = cells_for(root, size, run)
                for name, (ours, theirs) in rounds(cells, reset, budget).items():
                    print(
                        f"  {name:<22} {label:>7} {ours * 1e6:>8.0f}µs {theirs * 1e6:>8.0f}µs"
                        f"  {theirs / ours:5.2f}x"
                    )


if __name__ == "__main__":
    main()
