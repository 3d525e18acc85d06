"""Toolset: the toolset corpora (``tests/vectors/toolsets/``, format in its README) through the
Python API, as the Rust runner ``crates/hunkloom-tools/tests/toolset_vectors.rs`` replays them:
each case in a fresh private parent ``P`` with the root ``P/work``, one toolset, and after every
call the output (placeholders put back), the error flag, the files under the root, its empty
directories and the files outside it compared. Crash sets: the call the reference crashed on must
be an error result that changes nothing."""

from __future__ import annotations

import base64
import functools
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Optional

import pytest

import hunkloom
from conftest import VECTORS

Tree = dict[str, bytes]
CORPORA = (
    "openai",
    "openai-crashes",
    "codex",
    "codex-shell-passthrough",
    "gemini",
    "gemini-differences",
    "copilot",
    "copilot-differences",
)


@functools.lru_cache(maxsize=None)
def load(name: str) -> list[dict[str, Any]]:
    with open(VECTORS / "toolsets" / f"{name}.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def parse_tree(tree: dict[str, Any]) -> Tree:
    return {
        path: content.encode("utf-8") if isinstance(content, str) else base64.b64decode(content["base64"])
        for path, content in tree.items()
    }


def read_tree(root: str) -> Tree:
    out: Tree = {}
    for directory, _dirs, files in os.walk(root):
        for name in files:
            path = os.path.join(directory, name)
            if not os.path.islink(path):
                out[os.path.relpath(path, root).replace(os.sep, "/")] = Path(path).read_bytes()
    return out


def empty_dirs(root: str) -> list[str]:
    out = []
    for directory, dirs, files in os.walk(root):
        if directory != root and not dirs and not files:
            out.append(os.path.relpath(directory, root).replace(os.sep, "/"))
    return sorted(out)


def with_root(value: Any, root: str) -> Any:
    if isinstance(value, str):
        return value.replace("{root}", root)
    if isinstance(value, list):
        return [with_root(v, root) for v in value]
    if isinstance(value, dict):
        return {k: with_root(v, root) for k, v in value.items()}
    return value


VOLATILE = {"{project_temp}": r"\S+", "{wall_time}": r"[0-9]+(\.[0-9]+)?", "{chunk_id}": r"[0-9a-f]+"}


def matches(recorded: str, actual: str) -> bool:
    pattern = "".join(
        VOLATILE.get(piece, re.escape(piece))
        for piece in re.split(r"(\{project_temp\}|\{wall_time\}|\{chunk_id\})", recorded)
    )
    return re.fullmatch(pattern, actual, re.S) is not None


def deviation(case: dict[str, Any], call: dict[str, Any], before: dict[str, bytes]) -> Optional[str]:
    """The documented deviation a call meets (as hunkloom_testkit::toolsets::deviation):
    ``not_run`` (a shell command left to the host), ``outside_root`` (a path outside the root
    refused), ``move_onto_itself`` (the file kept), ``not_utf8_kept`` (a file that is not UTF-8
    not rewritten), or None. ``before`` is the tree before the call."""
    if case["profile"] == "gemini" and call["tool"] in ("replace", "write_file"):
        rel = call["input"].get("file_path", "")
        rel = rel.removeprefix("{root}/").removeprefix("./")
        try:
            before.get(rel, b"").decode("utf-8")
        except UnicodeDecodeError:
            return "not_utf8_kept"
        return None
    if case["profile"] != "codex":
        return None
    if "Process exited with code" in (call["output"] or ""):
        return "not_run"
    if call["tool"] == "apply_patch_json":
        return None
    text = json.dumps(call["input"])
    if call.get("outside") or "{root}/.." in text or "../" in text:
        return "outside_root"
    for rest in text.split("*** Update File: ")[1:]:
        lines = rest.split("\\n")
        if len(lines) > 1 and lines[1] == f"*** Move to: {lines[0]}":
            return "move_onto_itself"
    return None


def run_case(case: dict[str, Any]) -> Optional[str]:
    with tempfile.TemporaryDirectory(prefix="hunkloom-ts-") as holder:
        parent = os.path.realpath(holder)
        root = os.path.join(parent, "work")
        os.mkdir(root)
        before = parse_tree(case["tree"])
        for rel, data in before.items():
            Path(root, rel).parent.mkdir(parents=True, exist_ok=True)
            Path(root, rel).write_bytes(data)
        toolset = hunkloom.Toolset(root, case["profile"])
        crash = case.get("reference_crash", {}).get("call")
        for i, call in enumerate(case["calls"]):
            at = f"#{i} ({call['kind']})"
            result = toolset.call(call["tool"], with_root(call["input"], root))
            output = result.output.replace(root, "{root}").replace(parent + "/", "{root_parent}/")
            tree = read_tree(root)
            kind = deviation(case, call, before)
            if kind is not None:
                outside = {p: b for p, b in read_tree(parent).items() if not p.startswith("work/")}
                nothing_written = tree == before and not outside
                fine = {
                    "not_run": result.is_error and result.code == "not_an_edit" and nothing_written,
                    "outside_root": result.is_error and result.code == "path_outside_root" and nothing_written,
                    "move_onto_itself": not result.is_error and sorted(tree) == sorted(before),
                    "not_utf8_kept": result.is_error
                    and result.code == "unsupported_encoding"
                    and nothing_written,
                }[kind]
                return None if fine else f"{at}: deviation {kind} not met: {output!r}"
            if i == crash:
                if not result.is_error or not output:
                    return f"{at}: not an error result: {output!r}"
                return None if tree == before else f"{at}: the tree changed"
            if not matches(call["output"], output):
                return f"{at}: output\n  want {call['output']!r}\n  got  {output!r}"
            if result.is_error != call["is_error"]:
                return f"{at}: is_error {result.is_error}"
            if result.is_error == (result.code == ""):
                return f"{at}: code {result.code!r} does not fit is_error {result.is_error}"
            if tree != parse_tree(call["tree"]):
                return f"{at}: tree differs"
            if empty_dirs(root) != call.get("empty_dirs", []):
                return f"{at}: empty dirs {empty_dirs(root)}"
            outside = {p: b for p, b in read_tree(parent).items() if not p.startswith("work/")}
            if outside != parse_tree(call.get("outside", {})):
                return f"{at}: files outside the root"
            before = tree
    return None


@pytest.mark.parametrize("corpus", CORPORA)
def test_toolset_vectors(corpus: str, summary: list[str]) -> None:
    cases = load(corpus)
    assert cases, corpus
    failures = [f"{case['id']} {why}" for case in cases if (why := run_case(case)) is not None]
    summary.append(f"toolset-{corpus}: {len(cases) - len(failures)}/{len(cases)} passed")
    assert not failures, f"{len(failures)} failures; first:\n" + "\n".join(failures[:5])


def test_tools_and_unknown_names(tmp_path: Path) -> None:
    toolset = hunkloom.Toolset(tmp_path, "openai")
    assert toolset.profile == "openai"
    assert [t["name"] for t in toolset.tools()] == ["apply_patch"]
    assert toolset.tools()[0]["input_schema"]["required"] == ["operation"]
    result = toolset.call("write_file", {"file_path": "x"})
    assert (result.is_error, result.code) == (True, "unknown_tool")
    assert "apply_patch" in result.output
    native = hunkloom.Toolset(tmp_path, "native")
    assert [t["name"] for t in native.tools()] == [
        "str_replace_based_edit_tool", "apply_diff", "apply_lazy", "apply_patch", "read_file", "undo_edit",
    ]
    assert [t["read_only"] for t in native.tools()] == [False, False, False, False, True, False]
    assert native.tools()[4]["title"] == "Read a file"
    created = native.call("str_replace_based_edit_tool", {"command": "create", "path": "a.txt", "file_text": "x\n"})
    assert not created.is_error
    assert native.call("read_file", {"path": "a.txt"}).output == "     1\tx\n"
    reader = hunkloom.Toolset(tmp_path, read_only=True)
    assert [t["name"] for t in reader.tools()] == ["read_file"]
    refused = reader.call("apply_diff", {"path": "a.txt", "diff": ""})
    assert (refused.is_error, refused.code) == (True, "read_only")
    assert toolset.tools()[0]["title"] is None
    with pytest.raises(hunkloom.InvalidOptionError) as info:
        hunkloom.Toolset(tmp_path, "gpt")  # type: ignore[arg-type]
    assert info.value.code == "invalid_profile"
    with pytest.raises(hunkloom.InvalidOptionError):
        toolset.call("apply_patch", "not a dict")  # type: ignore[arg-type]


def test_an_openai_patch_call_round_trip(tmp_path: Path) -> None:
    toolset = hunkloom.Toolset(tmp_path, "openai")
    created = toolset.call("apply_patch", {"operation": {"type": "create_file", "path": "app.py", "diff": "+x = 1\n+y = 2\n"}})
    assert (created.output, created.is_error) == ("Created app.py", False)
    assert (tmp_path / "app.py").read_text() == "x = 1\ny = 2"  # the SDK writes no final newline
    updated = toolset.call("apply_patch", {"operation": {"type": "update_file", "path": "app.py", "diff": "@@\n x = 1\n-y = 2\n+y = 3\n"}})
    assert (updated.output, updated.is_error) == ("Updated app.py", False)
    assert (tmp_path / "app.py").read_text() == "x = 1\ny = 3"


def test_the_anthropic_toolset_also_answers_str_replace_based_edit_tool(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    (root / "a.txt").write_text("abcdef\nghijkl\n")
    tools = hunkloom.Toolset(root, "anthropic", max_characters=10)
    assert [t["name"] for t in tools.tools()] == ["str_replace_editor", "str_replace_based_edit_tool"]
    view = tools.call("str_replace_based_edit_tool", {"command": "view", "path": str(root / "a.txt")})
    assert view.output.startswith(f"Here's the result of running `cat -n` on {root / 'a.txt'}:\n     1\tabcdef\n     2\tghi<response clipped>")
    undo = tools.call("str_replace_based_edit_tool", {"command": "undo_edit", "path": str(root / "a.txt")})
    assert (undo.is_error, undo.code) == (True, "unknown_command")


def test_the_claude_code_toolset_reads_then_edits(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    tools = hunkloom.Toolset(tmp_path, "claude-code")
    assert [t["name"] for t in tools.tools()] == ["Read", "Write", "Edit", "MultiEdit"]
    unread = tools.call("Edit", {"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 2"})
    assert (unread.is_error, unread.code) == (True, "not_read")
    assert tools.call("Read", {"file_path": "a.py"}).output == "     1→x = 1\n"
    edited = tools.call("Edit", {"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 2"})
    assert not edited.is_error, edited.output
    assert (tmp_path / "a.py").read_text() == "x = 2\n"


def test_native_semantics_under_the_openai_schema(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\ny = 2\nx = 1\ny = 2\n")
    op = {"operation": {"type": "update_file", "path": "a.py", "diff": " x = 1\n-y = 2\n+y = 3\n"}}
    # The Agents SDK's reading takes the first copy; the native one refuses, naming both.
    reference = hunkloom.Toolset(tmp_path, "openai").call("apply_patch", op)
    assert (reference.output, reference.is_error) == ("Updated a.py", False)
    (tmp_path / "a.py").write_text("x = 1\ny = 2\nx = 1\ny = 2\n")
    native = hunkloom.Toolset(tmp_path, "openai", semantics="native")
    refused = native.call("apply_patch", op)
    assert refused.is_error and "at lines 1 and 3" in refused.output
    assert (tmp_path / "a.py").read_text() == "x = 1\ny = 2\nx = 1\ny = 2\n"
    # Gemini's replace and Copilot's replacements: refused in two places, placed by whole lines.
    gemini = hunkloom.Toolset(tmp_path, "gemini", semantics="native")
    replace = {"file_path": "a.py", "instruction": "y", "old_string": "y = 2", "new_string": "y = 3"}
    twice = gemini.call("replace", replace)
    assert (twice.is_error, twice.code) == (True, "multiple_matches")
    assert "starting at lines 2, 4" in twice.output
    (tmp_path / "b.py").write_text("class A:\n    def f(self):\n        return 1\n")
    copilot = hunkloom.Toolset(tmp_path, "copilot", semantics="native")
    item = {
        "filePath": str((tmp_path / "b.py").resolve()),
        "oldString": "def f(self):\n    return 1",
        "newString": "def f(self):\n    return 2",
    }
    placed = copilot.call("replace_string_in_file", item)
    assert not placed.is_error, placed.output
    assert (tmp_path / "b.py").read_text() == "class A:\n    def f(self):\n        return 2\n"


def test_a_toolset_call_streams(tmp_path: Path) -> None:
    """Toolset.stream(name): the editor tool and the native apply_diff preview, the others run
    at finish, and each gives what call gives."""
    (tmp_path / "a.py").write_text("x = 1\ny = 2\n")
    tools = hunkloom.Toolset(tmp_path, "anthropic")
    path = str((tmp_path / "a.py").resolve())
    text = json.dumps({"command": "str_replace", "path": path, "old_str": "y = 2", "new_str": "y = 3"})
    stream = tools.stream("str_replace_based_edit_tool")
    shown = ""
    for i in range(0, len(text), 3):
        shown = stream.push(text[i : i + 3]).apply_to(shown)
    assert shown == stream.preview == "x = 1\ny = 3\n"
    assert stream.command == "str_replace" and stream.path == path
    assert not stream.finish().is_error
    assert (tmp_path / "a.py").read_text() == "x = 1\ny = 3\n"

    native = hunkloom.Toolset(tmp_path)
    native.call("read_file", {"path": "a.py"})
    stream = native.stream("apply_diff")
    text = json.dumps({"path": "a.py", "diff": "<<<<<<< SEARCH\nx = 1\n=======\nx = 0\n>>>>>>> REPLACE\n"})
    shown, seen = "", []
    for piece in text:
        shown = stream.push(piece).apply_to(shown)
        assert (stream.preview or "") == shown
        seen.append(stream.preview)
    # The file once the path is complete, then the block applied as it streams.
    assert "x = 1\ny = 3\n" in seen and seen[-1] == "x = 0\ny = 3\n"
    result = stream.finish()
    assert not result.is_error, result.output
    assert result.new_content == (tmp_path / "a.py").read_text() == "x = 0\ny = 3\n"
    stream = native.stream("read_file")
    stream.push(json.dumps({"path": "a.py"}))
    assert stream.preview is None and not stream.finish().is_error
    broken = native.stream("apply_diff")
    broken.push('{"path": ')
    assert broken.finish().code == "invalid_arguments"


def test_an_openai_operation_streams_section_by_section(tmp_path: Path) -> None:
    """The openai set's apply_patch: the operation's V4A diff previewed as each section is
    placed, as the call reads it (the SDK's reading, and the native one)."""
    original = "def a():\n    return 1\n\ndef b():\n    return 2\n"
    first = "def a():\n    return 10\n\ndef b():\n    return 2\n"
    both = "def a():\n    return 10\n\ndef b():\n    return 20\n"
    diff = "@@ def a():\n-    return 1\n+    return 10\n@@ def b():\n-    return 2\n+    return 20\n"
    for semantics in ("reference", "native"):
        (tmp_path / "m.py").write_text(original)
        tools = hunkloom.Toolset(tmp_path, "openai", semantics=semantics)
        stream = tools.stream("apply_patch")
        text = json.dumps({"operation": {"type": "update_file", "path": "m.py", "diff": diff}})
        shown = ""
        seen: list[str] = []
        for piece in text:
            shown = stream.push(piece).apply_to(shown)
            assert (stream.preview or "") == shown
            if stream.preview is not None and (not seen or seen[-1] != stream.preview):
                seen.append(stream.preview)
        assert seen == [original, first, both], semantics
        assert stream.command == "update_file" and stream.path == "m.py"
        result = stream.finish()
        assert not result.is_error, result.output
        assert result.old_content == original
        assert result.new_content == (tmp_path / "m.py").read_text() == both


def test_a_native_apply_patch_streams_file_by_file(tmp_path: Path) -> None:
    """The native set's apply_patch: its *** Begin Patch envelope previewed one file after the
    other; path names the file shown."""
    (tmp_path / "m.py").write_text("a = 1\n")
    (tmp_path / "n.py").write_text("b = 2\n")
    tools = hunkloom.Toolset(tmp_path)
    for name in ("m.py", "n.py"):
        tools.call("read_file", {"path": name})
    patch = (
        "*** Begin Patch\n*** Update File: m.py\n@@\n-a = 1\n+a = 10\n"
        "*** Update File: n.py\n@@\n-b = 2\n+b = 20\n*** End Patch\n"
    )
    stream = tools.stream("apply_patch")
    shown = ""
    seen: list[tuple[Optional[str], Optional[str]]] = []
    for piece in json.dumps({"patch": patch}):
        shown = stream.push(piece).apply_to(shown)
        assert (stream.preview or "") == shown
        if not seen or seen[-1] != (stream.path, stream.preview):
            seen.append((stream.path, stream.preview))
    assert seen == [(None, None), ("m.py", "a = 1\n"), ("n.py", "b = 2\n"), ("n.py", "b = 20\n"), (None, None)]
    result = stream.finish()
    assert not result.is_error, result.output
    assert (tmp_path / "m.py").read_text() == "a = 10\n" and (tmp_path / "n.py").read_text() == "b = 20\n"


def test_a_codex_apply_patch_streams_and_settles_on_what_it_writes(tmp_path: Path) -> None:
    """The codex set's apply_patch: its input envelope previewed as it streams; complete, the
    preview is the text Codex's reading writes."""
    (tmp_path / "m.py").write_text("a = 1\nb = 2\n")
    tools = hunkloom.Toolset(tmp_path, "codex")
    patch = "*** Begin Patch\n*** Update File: m.py\n@@\n a = 1\n-b = 2\n+b = 3\n*** End Patch\n"
    stream = tools.stream("apply_patch")
    shown = ""
    for piece in json.dumps({"input": patch}):
        shown = stream.push(piece).apply_to(shown)
        assert (stream.preview or "") == shown
    assert stream.preview == "a = 1\nb = 3\n"
    result = stream.finish()
    assert not result.is_error, result.output
    assert result.new_content == (tmp_path / "m.py").read_text() == "a = 1\nb = 3\n"
