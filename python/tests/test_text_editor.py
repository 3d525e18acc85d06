"""TextEditor: the text-editor conformance vectors through the Python API, and what the
boundary adds (dict inputs converted to JSON, the non-dict input, schemas, threads, panics).

The runner replays ``tests/vectors/text-editor/`` (format in its README) as the Rust runner
``crates/hunkloom-tools/tests/text_editor_vectors.rs`` does: each case's tree is written into a
fresh root, its calls are made in order on one editor with ``{root}`` substituted in ``path``,
and after every call the output (with the root written ``{root}`` again), the error flag and
the whole tree (every regular file, hidden ones included) are compared. Main sets: exact, every
call. ``*-crashes``: the calls before the one the reference crashed on are exact; that call must
give an error result and leave the tree as it was. The ``*-differences`` sets document where
hunkloom keeps bytes a reference rewrites; the Rust runner checks that behaviour, and this one
only covers what crosses the Python boundary.

The streamed runs make every call through ``TextEditor.stream()`` instead: the call's JSON
(``json.dumps``, ``ensure_ascii`` on and off) pushed whole, one character at a time or in the
runners' seeded random pieces; the splices must rebuild the preview, the preview before
``finish`` must be the text the call leaves (None for a failure, ``view`` and ``undo_edit``), and
``finish()`` must give what ``call`` gives. Each case is streamed in one of the six forms, in
turn; ``HUNKLOOM_TE_STREAM=all`` streams every case in all six.
"""

from __future__ import annotations

import base64
import functools
import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Any, Optional

import pytest

import hunkloom
from conftest import VECTORS, split

Tree = dict[str, bytes]

MAIN_SETS = ("anthropic", "openhands")
CORPORA = ("anthropic", "anthropic-crashes", "openhands", "openhands-crashes", "openhands-non-utf8")


@functools.lru_cache(maxsize=None)
def load_corpus(name: str) -> list[dict[str, Any]]:
    with open(VECTORS / "text-editor" / f"{name}.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def parse_tree(tree: dict[str, Any]) -> Tree:
    """A tree of the corpus: strings are UTF-8 content, ``{"base64": ...}`` raw bytes."""
    return {
        path: content.encode("utf-8")
        if isinstance(content, str)
        else base64.b64decode(content["base64"])
        for path, content in tree.items()
    }


def fresh_root() -> tuple[tempfile.TemporaryDirectory[str], str]:
    """An absolute real root without a component starting with ``.`` (which would hide
    everything from the Anthropic listing) and without spaces, as the vectors' README asks."""
    holder = tempfile.TemporaryDirectory(prefix="hunkloom-te-")
    root = os.path.realpath(holder.name)
    assert "/." not in root and " " not in root, f"unsuitable root {root}; set TMPDIR"
    return holder, root


def materialize(root: str, tree: Tree) -> None:
    for rel, data in tree.items():
        path = Path(root, rel)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def read_tree(root: str) -> Tree:
    """Every regular file under ``root``, hidden ones included, symbolic links not followed."""
    out: Tree = {}
    for directory, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(directory, name)
            if not os.path.islink(path) and os.path.isfile(path):
                out[os.path.relpath(path, root).replace(os.sep, "/")] = Path(path).read_bytes()
    return out


def tree_difference(want: Tree, got: Tree) -> Optional[str]:
    for path, data in want.items():
        if path not in got:
            return f"{path} is missing"
        if got[path] != data:
            return f"{path}:\n  want {data!r}\n  got  {got[path]!r}"
    extra = sorted(set(got) - set(want))
    return f"{extra[0]} should not exist" if extra else None


def with_root(tool_input: dict[str, Any], root: str) -> dict[str, Any]:
    tool_input = dict(tool_input)
    if isinstance(tool_input.get("path"), str):
        tool_input["path"] = tool_input["path"].replace("{root}", root)
    return tool_input


STREAM_FORMS = [(mode, ascii) for mode in ("whole", "char", "random") for ascii in (False, True)]


class StreamMismatch(Exception):
    """A streamed call whose preview does not hold what it should."""


def streamed(editor: hunkloom.TextEditor, tool_input: dict[str, Any], form: tuple[str, bool]) -> Any:
    """The call made through ``editor.stream()`` in ``form``, its preview checked."""
    mode, ascii = form
    stream = editor.stream()
    rebuilt = ""
    for piece in split(json.dumps(tool_input, ensure_ascii=ascii), mode):
        rebuilt = stream.push(piece).apply_to(rebuilt)
    preview = stream.preview
    if (preview or "") != rebuilt:
        raise StreamMismatch(f"the splices give {rebuilt!r}, the preview is {preview!r}")
    result = stream.finish()
    if result.is_error or tool_input.get("command") not in ("create", "str_replace", "insert"):
        left = None
    elif result.new_content is not None:
        left = result.new_content
    else:
        left = Path(tool_input["path"]).read_text(encoding="utf-8")
    if preview != left:
        raise StreamMismatch(f"the preview before finish is {preview!r}, the call left {left!r}")
    return result


def run_case(case: dict[str, Any], form: Optional[tuple[str, bool]] = None) -> Optional[str]:
    """None if every call gives what the case records, else why not (at the first mismatch).
    ``form``: stream each call in it instead of calling."""
    holder, root = fresh_root()
    with holder:
        before = parse_tree(case["tree"])
        materialize(root, before)
        editor = hunkloom.TextEditor(root, profile=case["profile"])
        crash_call = case.get("reference_crash", {}).get("call")
        for i, expected in enumerate(case["calls"]):
            at = f"#{i} ({expected['kind']})"
            tool_input = with_root(expected["input"], root)
            try:
                result = editor.call(tool_input) if form is None else streamed(editor, tool_input, form)
            except StreamMismatch as e:
                return f"{at} streamed {form}: {e}"

            output = result.output.replace(root, "{root}")
            tree = read_tree(root)
            if i == crash_call:
                if not result.is_error or not output:
                    return f"{at}: not an error result: {output!r}"
                diff = tree_difference(before, tree)
                return f"{at}: the tree changed: {diff}" if diff else None
            if output != expected["output"]:
                return f"{at}: output\n  want {expected['output']!r}\n  got  {output!r}"
            if result.is_error != expected["is_error"]:
                return f"{at}: is_error: want {expected['is_error']}, got {result.is_error}"
            if result.is_error == (result.code == ""):
                return f"{at}: code {result.code!r} does not fit is_error {result.is_error}"
            diff = tree_difference(parse_tree(expected["tree"]), tree)
            if diff:
                return f"{at}: tree: {diff}"
            before = tree
    return None


@pytest.mark.parametrize("corpus", CORPORA)
def test_text_editor_vectors(corpus: str, summary: list[str]) -> None:
    cases = load_corpus(corpus)
    assert cases, corpus
    failures = [f"{case['id']} {why}" for case in cases if (why := run_case(case)) is not None]
    summary.append(f"text-editor-{corpus}: {len(cases) - len(failures)}/{len(cases)} passed")
    assert not failures, f"{len(failures)} failures; first:\n" + "\n".join(failures[:5])


@pytest.mark.parametrize("corpus", CORPORA)
def test_text_editor_vectors_streamed(corpus: str, summary: list[str]) -> None:
    cases = load_corpus(corpus)
    every = os.environ.get("HUNKLOOM_TE_STREAM") == "all"
    runs = [
        (case, form)
        for n, case in enumerate(cases)
        for form in (STREAM_FORMS if every else [STREAM_FORMS[n % len(STREAM_FORMS)]])
    ]
    failures = [f"{case['id']} {why}" for case, form in runs if (why := run_case(case, form)) is not None]
    summary.append(f"text-editor-{corpus} streamed: {len(runs) - len(failures)}/{len(runs)} passed")
    assert not failures, f"{len(failures)} failures; first:\n" + "\n".join(failures[:5])


# --- The boundary ---------------------------------------------------------------------------


def test_a_call_round_trip(tmp_path: Path) -> None:
    editor = hunkloom.TextEditor(tmp_path, profile="anthropic")
    assert editor.profile == "anthropic"
    assert editor.root == tmp_path.resolve()
    assert editor.require_read is False
    path = str(editor.root / "app.py")

    created = editor.call({"command": "create", "path": path, "file_text": "x = 1\n"})
    assert (created.is_error, created.code, created.path) == (False, "", path)
    assert created.output == f"File created successfully at: {path}"
    assert (created.old_content, created.new_content) == (None, "x = 1\n")

    edit = {"command": "str_replace", "path": path, "old_str": "x = 1", "new_str": "x = 2"}
    edited = editor.call(edit)
    assert (edited.old_content, edited.new_content) == ("x = 1\n", "x = 2\n")
    assert (tmp_path / "app.py").read_text() == "x = 2\n"

    missing = editor.call({"command": "str_replace", "path": path, "old_str": "y"})
    assert (missing.is_error, missing.code) == (True, "not_found")
    assert missing.output == (
        f"No replacement was performed, old_str `y` did not appear verbatim in {path}."
    )
    assert repr(missing) == (
        f"ToolResult(is_error=True, code='not_found', path={path!r}, "
        f"output=<{len(missing.output)} chars>, old_content=None, new_content=None)"
    )
    with pytest.raises(AttributeError):
        missing.output = "changed"  # type: ignore[misc]

    assert editor.call({"command": "undo_edit", "path": path}).is_error is False
    assert (tmp_path / "app.py").read_text() == "x = 1\n"
    assert repr(editor) == f"TextEditor({str(editor.root)!r}, profile='anthropic')"


def test_native_is_the_default_and_needs_a_view_first(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes("say \u201chi\u201d\r\n".encode())
    editor = hunkloom.TextEditor(tmp_path)
    assert (editor.profile, editor.require_read) == ("native", True)
    edit = {"command": "str_replace", "path": "a.txt", "old_str": '"hi"', "new_str": '"bye"'}
    assert editor.call(edit).code == "not_read"
    assert not editor.call({"command": "view", "path": "a.txt"}).is_error
    assert not editor.call(edit).is_error
    # Straight quotes matched the curly ones, which are kept; so is the CRLF ending.
    assert (tmp_path / "a.txt").read_bytes() == "say \u201cbye\u201d\r\n".encode()
    assert hunkloom.TextEditor(tmp_path, require_read=False).require_read is False


def test_model_mistakes_are_results_never_exceptions(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    editor = hunkloom.TextEditor(tmp_path, profile="openhands")
    a = str(editor.root / "a.txt")
    cases: list[tuple[dict[str, Any], str]] = [
        ({}, "missing_parameter"),
        ({"command": "view"}, "missing_parameter"),
        ({"command": "fly", "path": a}, "unknown_command"),
        ({"command": "view", "path": 7}, "invalid_parameter"),
        ({"command": "view", "path": "a.txt"}, "relative_path"),
        ({"command": "insert", "path": a, "insert_line": "2", "new_str": "x"}, "invalid_parameter"),
        ({"command": "insert", "path": a, "insert_line": -1, "new_str": "x"}, "invalid_line"),
        ({"command": "insert", "path": a, "insert_line": 10**30, "new_str": ""},
         "invalid_parameter"),
        ({"command": "view", "path": a, "view_range": (1, 2.5)}, "invalid_view_range"),
        ({"command": "view", "path": str(editor.root / "nope")}, "file_not_found"),
        ({"command": "view", "path": "/etc/passwd"}, "path_outside_root"),
    ]
    for tool_input, code in cases:
        result = editor.call(tool_input)
        assert result.is_error, tool_input
        assert result.code == code, (tool_input, result.output)
        assert result.output
    assert (tmp_path / "a.txt").read_text() == "one\ntwo\n"


def test_json_values_cross_as_json(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("1\n2\n3\n4\n")
    editor = hunkloom.TextEditor(tmp_path, profile="anthropic")
    a = str(editor.root / "a.txt")
    # A tuple is a JSON array; a bool is not mistaken for an int by the conversion (the
    # reference, in Python, then counts True as 1); None is a parameter left out.
    ranged = editor.call({"command": "view", "path": a, "view_range": (2, 3)})
    assert ranged.output.endswith("     2\t2\n     3\t3\n")
    assert editor.call({"command": "view", "path": a, "view_range": [True, 1]}).output.endswith(
        "     1\t1\n"
    )
    assert editor.call({"command": "view", "path": a, "view_range": None}).output.count("\n") == 6
    # Keys the tool does not know are ignored.
    assert not editor.call({"command": "view", "path": a, "extra": {"k": [1.5, None]}}).is_error


@pytest.mark.parametrize(
    "bad, where",
    [
        (["view"], "not an array"),
        ("view", "not a string"),
        (None, "not null"),
        ({"command": "view", "path": {1, 2}}, "input['path']"),
        ({"command": "view", "path": b"/bytes"}, "input['path']"),
        ({"command": "view", "view_range": [1, float("nan")]}, "input['view_range'][1]"),
        ({"command": "view", 3: "x"}, "keys must be str"),
        ({"command": "insert", "insert_line": 10**400}, "too large"),
    ],
)
def test_an_input_that_is_not_a_dict_of_json_values_raises(
    tmp_path: Path, bad: Any, where: str
) -> None:
    editor = hunkloom.TextEditor(tmp_path)
    with pytest.raises(hunkloom.InvalidOptionError) as info:
        editor.call(bad)
    assert info.value.code == "invalid_input"
    assert where in str(info.value), str(info.value)
    assert info.value.matches is None


def test_deeply_nested_input_raises_instead_of_overflowing(tmp_path: Path) -> None:
    deep: list[Any] = []
    for _ in range(10_000):
        deep = [deep]
    editor = hunkloom.TextEditor(tmp_path)
    with pytest.raises(hunkloom.InvalidOptionError, match="nested more than"):
        editor.call({"command": "view", "path": "x", "view_range": deep})
    cyclic: dict[str, Any] = {"command": "view"}
    cyclic["self"] = cyclic
    with pytest.raises(hunkloom.InvalidOptionError, match="nested more than"):
        editor.call(cyclic)


def test_unknown_profile_and_missing_root(tmp_path: Path) -> None:
    with pytest.raises(hunkloom.InvalidOptionError) as info:
        hunkloom.TextEditor(tmp_path, profile="vim")  # type: ignore[arg-type]
    assert info.value.code == "invalid_profile"
    assert "anthropic, openhands, native" in str(info.value)
    with pytest.raises(hunkloom.InvalidOptionError):
        hunkloom.TextEditor.schema("vim")  # type: ignore[arg-type]
    with pytest.raises(hunkloom.FileSystemError) as missing:
        hunkloom.TextEditor(tmp_path / "nope")
    assert missing.value.code == "io_error"
    with pytest.raises(TypeError):
        hunkloom.TextEditor(tmp_path, "native", True)  # type: ignore[call-arg]


def test_max_file_size(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("x" * 100)
    editor = hunkloom.TextEditor(tmp_path, max_file_size=50)
    result = editor.call({"command": "view", "path": "big.txt"})
    assert (result.is_error, result.code) == (True, "file_too_large")


def test_profiles_and_the_stub_literal() -> None:
    import ast

    assert hunkloom.PROFILES == ("anthropic", "openhands", "native")
    stub = ast.parse((Path(hunkloom.__file__).parent / "_native.pyi").read_text())
    [literal] = [
        node.value
        for node in stub.body
        if isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id == "_Profile"
    ]
    assert isinstance(literal, ast.Subscript) and isinstance(literal.slice, ast.Tuple)
    names = tuple(e.value for e in literal.slice.elts if isinstance(e, ast.Constant))
    assert names == hunkloom.PROFILES


def test_schema_per_profile() -> None:
    def commands(schema: dict[str, Any]) -> list[str]:
        return list(schema["input_schema"]["properties"]["command"]["enum"])

    native = hunkloom.TextEditor.schema()
    assert native == hunkloom.TextEditor.schema("native")
    assert native["name"] == "str_replace_based_edit_tool"
    assert native["input_schema"]["required"] == ["command", "path"]
    assert native["input_schema"]["properties"]["insert_line"]["type"] == "integer"
    assert isinstance(native["description"], str) and native["description"]
    for profile in hunkloom.PROFILES:
        schema = hunkloom.TextEditor.schema(profile)
        assert commands(schema) == ["view", "create", "str_replace", "insert", "undo_edit"]
        assert json.loads(json.dumps(schema)) == schema  # plain JSON types only
    assert hunkloom.TextEditor.schema("anthropic")["name"] == "str_replace_editor"
    assert hunkloom.TextEditor.schema("openhands")["name"] == "str_replace_editor"
    newest = hunkloom.TextEditor.schema("anthropic", name="str_replace_based_edit_tool")
    assert newest["name"] == "str_replace_based_edit_tool"
    assert "undo_edit" not in commands(newest)
    renamed = hunkloom.TextEditor.schema("openhands", "edit_file")
    assert renamed["name"] == "edit_file" and "undo_edit" in commands(renamed)


def test_ambiguous_errors_carry_their_matches() -> None:
    content = "😀 aa\nbb\naa\n"
    with pytest.raises(hunkloom.AmbiguousMatchError) as info:
        hunkloom.str_replace(content, "aa", "x")
    assert info.value.code == "multiple_matches"
    matches = info.value.matches
    assert matches is not None
    spans = [(m.start, m.end, m.start_line, m.end_line) for m in matches]
    assert spans == [(2, 4, 1, 1), (8, 10, 3, 3)]
    assert all(content[m.start : m.end] == "aa" for m in matches)
    assert repr(matches[0]) == "Match(start=2, end=4, start_line=1, end_line=1)"
    assert matches[0] == matches[0] and matches[0] != matches[1]
    assert len({matches[0], matches[0], matches[1]}) == 2

    original = "x = 1\ny = 2\nx = 1\n"
    with pytest.raises(hunkloom.AmbiguousMatchError) as diff_info:
        hunkloom.apply_diff("------- SEARCH\nx = 1\n=======\nx = 3\n+++++++ REPLACE\n", original)
    assert diff_info.value.code == "ambiguous_match"
    assert diff_info.value.matches is not None
    # A match ending with its newline covers its own line only.
    assert [(m.start, m.end, m.start_line, m.end_line) for m in diff_info.value.matches] == [
        (0, 6, 1, 1),
        (12, 18, 3, 3),
    ]

    with pytest.raises(hunkloom.SearchNotFoundError) as other:
        hunkloom.str_replace("a", "b", "c")
    assert other.value.matches is None


# --- Threads and panics ---------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def big_text() -> str:
    """About 40 MB of distinct lines: a failed search over it keeps a call busy for a while."""
    return "".join(f"    value_{i} = compute({i}) + {i % 7}\n" for i in range(1_000_000))


def test_a_long_call_does_not_hold_up_calls_on_other_files(tmp_path: Path) -> None:
    """While another thread is inside a long call on one file, calls on other files through the
    same editor run and answer (no refusal for running beside it)."""
    (tmp_path / "big.py").write_text(big_text())
    (tmp_path / "small.txt").write_text("x\n")
    slow = {"command": "str_replace", "path": "big.py", "old_str": "not there", "new_str": "x"}
    editor = hunkloom.TextEditor(tmp_path, require_read=False)
    for _ in range(10):
        worker = threading.Thread(target=editor.call, args=(slow,))
        worker.start()
        answered = 0
        while worker.is_alive():
            result = editor.call({"command": "view", "path": "small.txt"})
            assert not result.is_error, result.output
            answered += 1
        worker.join()
        if answered > 1:
            return
    raise AssertionError("no call on another file was answered during 10 long calls")


def test_editors_in_many_threads(tmp_path: Path) -> None:
    """Independent editors in parallel threads each get their own answer."""
    results: list[str] = []

    def work(i: int) -> None:
        editor = hunkloom.TextEditor(tmp_path)
        editor.call({"command": "create", "path": f"f{i}.txt", "file_text": f"line {i}\n"})
        edit = {"command": "str_replace", "path": f"f{i}.txt", "old_str": "line", "new_str": "LINE"}
        editor.call(edit)
        results.append((tmp_path / f"f{i}.txt").read_text())

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == sorted(f"LINE {i}\n" for i in range(8))


@pytest.mark.skipif(
    not hasattr(hunkloom.TextEditor, "_inject_panic"),
    reason="built without the fault-injection feature (use make test-python)",
)
def test_a_panic_retires_that_editor_only(tmp_path: Path) -> None:
    broken = hunkloom.TextEditor(tmp_path)
    healthy = hunkloom.TextEditor(tmp_path)
    getattr(broken, "_inject_panic")()
    with pytest.raises(hunkloom.InternalError) as info:
        broken.call({"command": "view", "path": "."})
    assert info.value.code == "internal_error"
    assert "this text editor stopped" in str(info.value)
    with pytest.raises(hunkloom.InternalError):
        broken.call({"command": "view", "path": "."})
    assert "<stopped>" in repr(broken)
    assert broken.profile == "native"
    assert not healthy.call({"command": "view", "path": "."}).is_error


# --- Streamed calls ---------------------------------------------------------------------------


def test_a_streamed_call_previews_then_runs(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\ny = 2\n")
    path = str((tmp_path / "a.py").resolve())
    editor = hunkloom.TextEditor(tmp_path, profile="anthropic")
    stream = editor.stream()
    assert isinstance(stream, hunkloom.EditStream)
    head = json.dumps({"command": "str_replace", "path": path, "old_str": "y = 2"})[:-1]
    shown = ""
    for piece in [head, ', "new_str": "y = \\u00e9', "\\ud83d", "\\ude00", '"}']:
        shown = stream.push(piece).apply_to(shown)
        assert shown == (stream.preview or "")
        if piece.startswith(", "):
            # new_str streams into the place of old_str, in `str` indices.
            assert stream.preview == "x = 1\ny = \u00e9\n"
    assert stream.command == "str_replace" and stream.path == path
    assert stream.preview == "x = 1\ny = \u00e9\U0001f600\n"
    assert (tmp_path / "a.py").read_text() == "x = 1\ny = 2\n"  # nothing written yet
    result = stream.finish()
    assert not result.is_error and result.new_content == "x = 1\ny = \u00e9\U0001f600\n"
    assert (tmp_path / "a.py").read_text(encoding="utf-8") == "x = 1\ny = \u00e9\U0001f600\n"
    with pytest.raises(hunkloom.AlreadyFinishedError):
        stream.push("x")
    with pytest.raises(hunkloom.AlreadyFinishedError):
        stream.finish()
    assert "finished" in repr(stream)


def test_streamed_json_that_is_not_an_object_is_an_error_result(tmp_path: Path) -> None:
    editor = hunkloom.TextEditor(tmp_path, profile="native")
    for text in ['{"command": "view", "path": "a', "[1]", '{"command": "view"} x', ""]:
        stream = editor.stream()
        if text:
            stream.push(text)
        assert stream.preview is None
        result = stream.finish()
        assert result.is_error and result.code == "invalid_arguments", text
        assert result.output.startswith("The tool call's arguments")


def test_streamed_results_equal_call_for_every_split_of_escapes(tmp_path: Path) -> None:
    new = 'caf\u00e9 \U0001f600 "q" back\\slash\ttab\nline'
    for ascii in (False, True):
        (tmp_path / "a.txt").write_text("keep\nold\n")
        editor = hunkloom.TextEditor(tmp_path, profile="openhands")
        text = json.dumps(
            {"command": "str_replace", "path": str((tmp_path / "a.txt").resolve()), "old_str": "old", "new_str": new},
            ensure_ascii=ascii,
        )
        for cut in range(1, len(text)):
            stream = editor.stream()
            stream.push(text[:cut])
            stream.push(text[cut:])
            assert stream.preview == "keep\n" + new + "\n", (ascii, cut)
        stream = editor.stream()
        stream.push(text)
        assert stream.finish().new_content == "keep\n" + new + "\n"


def test_one_stream_pushed_from_two_threads_is_concurrent_use(tmp_path: Path) -> None:
    """A push that plans a large create releases the GIL; this thread, reading the stream
    meanwhile, is refused with ConcurrentUseError (never a race), and the stream stays usable."""
    editor = hunkloom.TextEditor(tmp_path, profile="openhands")
    big = "x" * 4_000_000
    refused = 0
    for _ in range(50):
        stream = editor.stream()
        stream.push(json.dumps({"command": "create", "path": str(tmp_path.resolve() / "big.txt"), "file_text": big})[:-1])
        t = threading.Thread(target=stream.push, args=("}",))
        t.start()
        while t.is_alive() and not refused:
            try:
                stream.command
            except hunkloom.ConcurrentUseError:
                refused += 1
        t.join()
        assert stream.preview is not None and len(stream.preview) == len(big)
        if refused:
            break
    assert refused, "no read overlapped the planning push in 50 tries"
