"""Workspace: read before edit, staleness, bytes kept, paths refused, undo, through Python."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

import pytest

import hunkloom


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path


def test_read_edit_stale_undo(root: Path) -> None:
    (root / "app.py").write_bytes(b"def greet():\r\n    print('hi')\r\n")
    ws = hunkloom.Workspace(root)
    assert ws.root == root.resolve()

    with pytest.raises(hunkloom.HunkloomError) as info:
        ws.str_replace("app.py", "'hi'", "'hello'")
    assert info.value.code == "not_read"
    assert (root / "app.py").read_bytes() == b"def greet():\r\n    print('hi')\r\n"

    assert ws.read("app.py") == "def greet():\r\n    print('hi')\r\n"
    outcome = ws.str_replace("app.py", "greet():\n    print('hi')", "greet():\n    print('hello')")
    assert (outcome.kind, outcome.changed, outcome.encoding) == ("update", True, "utf-8")
    assert isinstance(outcome.report, hunkloom.Edit) and outcome.report.replacements == 1
    assert outcome.moved_from is None
    assert outcome.path == (root / "app.py").resolve()
    # The model's LF text matched; the file keeps its CRLF endings.
    assert (root / "app.py").read_bytes() == b"def greet():\r\n    print('hello')\r\n"

    # Someone else changes the file: the next edit is refused, and undo too.
    (root / "app.py").write_bytes(b"def greet():\r\n    print('hey')\r\n")
    with pytest.raises(hunkloom.StaleFileError) as stale:
        ws.str_replace("app.py", "'hey'", "'yo'")
    assert stale.value.code == "stale_file"
    with pytest.raises(hunkloom.StaleFileError):
        ws.undo("app.py")
    assert (root / "app.py").read_bytes() == b"def greet():\r\n    print('hey')\r\n"

    # Read again, edit, then undo restores the bytes before the edit.
    ws.read("app.py")
    diffed = ws.apply_diff("app.py", "<<<<<<< SEARCH\nprint('hey')\n=======\nprint('yo')\n>>>>>>> REPLACE\n")
    assert isinstance(diffed.report, hunkloom.Outcome)
    assert [b.strategy for b in diffed.report.blocks] == ["indentation"]
    assert (root / "app.py").read_bytes() == b"def greet():\r\n    print('yo')\r\n"
    ws.undo("app.py")
    assert (root / "app.py").read_bytes() == b"def greet():\r\n    print('hey')\r\n"
    # The edit before that one (hi -> hello) was overwritten from outside: refused, not undone.
    with pytest.raises(hunkloom.StaleFileError):
        ws.undo("app.py")
    (root / "other.txt").write_text("x\n")
    with pytest.raises(hunkloom.InvalidEditError) as nothing:
        ws.undo("other.txt")
    assert nothing.value.code == "nothing_to_undo"


def test_encodings_survive_an_edit(root: Path) -> None:
    cases = {
        "bom.txt": b"\xef\xbb\xbfa\r\nb\r\n",
        "utf16le.txt": "\ufeffa\nb\n".encode("utf-16-le"),
        "utf16be.txt": "\ufeffa\nb\n".encode("utf-16-be"),
        "mixed.txt": b"a\r\nb\nc",
    }
    for name, data in cases.items():
        (root / name).write_bytes(data)
    ws = hunkloom.Workspace(root)
    encodings = {}
    for name, data in cases.items():
        ws.read(name)
        encodings[name] = ws.str_replace(name, "b", "B").encoding
        assert (root / name).read_bytes() == data.replace(b"b", b"B").replace(
            "b".encode("utf-16-le"), "B".encode("utf-16-le")
        ).replace("b".encode("utf-16-be"), "B".encode("utf-16-be")), name
    assert encodings == {
        "bom.txt": "utf-8-bom",
        "utf16le.txt": "utf-16le",
        "utf16be.txt": "utf-16be",
        "mixed.txt": "utf-8",
    }


def test_refusals_leave_disk_untouched(root: Path) -> None:
    (root / "binary.txt").write_bytes(b"caf\xe9\0\n")
    (root / "ru.txt").write_bytes("# Тестовый файл с кириллицей\nx = 'Привет, мир!'\n".encode("cp1251"))
    (root / ".hunkloomignore").write_text("secret/\n")
    (root / "secret").mkdir()
    (root / "secret" / "key.txt").write_text("k\n")
    (root / "nb.ipynb").write_text("{}")
    (root / "big.txt").write_text("x" * 100)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}

    ws = hunkloom.Workspace(root, max_file_size=50)
    unlimited = hunkloom.Workspace(root)
    unlimited.read("ru.txt")
    cases: list[tuple[Callable[[], object], type[hunkloom.HunkloomError], str]] = [
        (lambda: ws.read("../outside.txt"), hunkloom.PathRefusedError, "path_outside_root"),
        (lambda: ws.read("//server/share/x.txt"), hunkloom.PathRefusedError, "unc_path"),
        (lambda: ws.read("secret/key.txt"), hunkloom.PathRefusedError, "path_ignored"),
        (lambda: ws.read("nb.ipynb"), hunkloom.PathRefusedError, "notebook_not_supported"),
        (lambda: ws.read("binary.txt"), hunkloom.UnsupportedFileError, "unsupported_encoding"),
        (lambda: unlimited.str_replace("ru.txt", "мир", "✓"), hunkloom.InvalidEditError, "unrepresentable_text"),
        (lambda: ws.read("big.txt"), hunkloom.UnsupportedFileError, "file_too_large"),
        (lambda: ws.str_replace("missing.txt", "a", "b"), hunkloom.InvalidEditError, "file_not_found"),
    ]
    for call, cls, code in cases:
        with pytest.raises(cls) as info:
            call()
        assert info.value.code == code, code
    with pytest.raises(hunkloom.UnsupportedFileError) as strict:
        hunkloom.Workspace(root, legacy_encodings=False).read("ru.txt")
    assert strict.value.code == "unsupported_encoding"
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert after == before


def test_damaged_calls_never_reach_disk(root: Path) -> None:
    body = "def main():\n" + "".join(f"    step_{i}()\n" for i in range(30))
    (root / "app.py").write_text(body)
    ws = hunkloom.Workspace(root)
    ws.read("app.py")
    with pytest.raises(hunkloom.InvalidEditError) as cut:
        ws.write("app.py", "def main():\n    step_0(")
    assert cut.value.code == "suspected_truncation"
    with pytest.raises(hunkloom.InvalidEditError) as numbered:
        ws.str_replace("app.py", "    step_1()\n", "     2\t    a()\n     9\t    b()\n")
    assert numbered.value.code == "line_number_prefixes"
    with pytest.raises(hunkloom.InvalidEditError) as clipped:
        ws.insert("app.py", 1, "<response clipped>\n", "after")
    assert clipped.value.code == "truncation_notice"
    assert (root / "app.py").read_text() == body
    stripped = ws.str_replace("app.py", "    step_1()\n", "     2\t    step_1(x=1)\n")
    assert isinstance(stripped.report, hunkloom.Edit)
    assert "view_prefixes" in stripped.report.normalizations
    again = ws.str_replace("app.py", "    step_1()\n", "    step_1(x=1)\n")
    assert not again.changed
    assert isinstance(again.report, hunkloom.Edit)
    assert again.report.normalizations == ["already_applied"]
    assert again.report.replacements == 0
    ws.write("app.py", "x = 1", allow_shrink=True)
    assert (root / "app.py").read_text() == "x = 1"


def test_create_and_insert(root: Path) -> None:
    ws = hunkloom.Workspace(os.fspath(root))
    created = ws.write("new/notes.md", "# Notes\n")
    assert (created.kind, created.new_content, created.report) == ("create", "# Notes\n", None)
    assert (root / "new" / "notes.md").read_text() == "# Notes\n"
    ws.insert("new/notes.md", 1, "first line", "after")
    assert (root / "new" / "notes.md").read_text() == "# Notes\nfirst line\n"
    assert ws.str_replace("fresh.txt", "", "hello\n").kind == "create"


def test_a_second_workspace_sees_the_first_ones_edit_as_stale(root: Path) -> None:
    (root / "f.txt").write_text("one\n")
    first, second = hunkloom.Workspace(root), hunkloom.Workspace(root)
    first.read("f.txt")
    second.read("f.txt")
    first.str_replace("f.txt", "one", "two")
    with pytest.raises(hunkloom.StaleFileError):
        second.str_replace("f.txt", "one", "three")
    assert (root / "f.txt").read_text() == "two\n"


def test_apply_patch_on_disk_all_or_nothing(root: Path) -> None:
    (root / "a.txt").write_bytes(b"\xef\xbb\xbfone\r\ntwo\r\n")
    (root / "b.txt").write_text("keep\n")
    ws = hunkloom.Workspace(root)
    failing = (
        "*** Begin Patch\n*** Add File: c.txt\n+new\n"
        "*** Update File: b.txt\n@@\n-missing\n+x\n*** End Patch\n"
    )
    with pytest.raises(hunkloom.SearchNotFoundError):
        ws.apply_patch(failing)
    assert not (root / "c.txt").exists() and (root / "b.txt").read_text() == "keep\n"

    partial = ws.apply_patch(failing, policy="partial")
    assert isinstance(partial.failure, hunkloom.SearchNotFoundError)
    assert [f.kind for f in partial.files] == ["create"]
    assert (root / "c.txt").read_text() == "new\n"

    outcome = ws.apply_patch(
        "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n"
        "*** Delete File: b.txt\n*** End Patch\n"
    )
    assert [(f.kind, f.encoding) for f in outcome.files] == [("update", "utf-8-bom"), ("delete", "utf-8")]
    assert (root / "a.txt").read_bytes() == b"\xef\xbb\xbfone\r\nTWO\r\n"
    assert not (root / "b.txt").exists()
    moved = ws.apply_patch(
        "*** Begin Patch\n*** Update File: c.txt\n*** Move to: d.txt\n@@\n-new\n+newer\n*** End Patch\n"
    )
    assert [(f.kind, f.moved_from, f.path.name) for f in moved.files] == [("move", "c.txt", "d.txt")]
    with pytest.raises(hunkloom.PathRefusedError):
        ws.apply_patch("*** Begin Patch\n*** Add File: ../escape.txt\n+x\n*** End Patch\n")
    assert not (root.parent / "escape.txt").exists()


def test_an_edit_merges_around_lines_changed_since_the_read(root: Path) -> None:
    lines = [f"line {i}\n" for i in range(1, 11)]
    (root / "a.txt").write_text("".join(lines))
    ws = hunkloom.Workspace(root)
    ws.read("a.txt")
    # Someone else changes line 2 after the read; the edit touches line 8 only.
    changed = lines.copy()
    changed[1] = "line two, edited elsewhere\n"
    (root / "a.txt").write_text("".join(changed))
    outcome = ws.str_replace("a.txt", "line 8\n", "line eight\n")
    changed[7] = "line eight\n"
    assert (root / "a.txt").read_text() == "".join(changed)
    [external] = outcome.external_changes
    assert (external.start, external.count, external.read_start, external.read_count) == (2, 1, 2, 1)
    # A change next to the edited line is refused, naming the lines.
    ws.read("a.txt")
    changed[2] = "line three, edited elsewhere\n"
    (root / "a.txt").write_text("".join(changed))
    with pytest.raises(hunkloom.StaleFileError, match="line 3"):
        ws.str_replace("a.txt", "line 4\n", "line four\n")
    assert (root / "a.txt").read_text() == "".join(changed)


def test_omission_guard_is_on_by_default_and_can_be_turned_off(tmp_path: Path) -> None:
    old = "def f():\n    a = 1\n    b = 2\n    c = 3\n    return a + b + c\n"
    new = "def f():\n    # ... existing code ...\n    return 0\n"
    (tmp_path / "f.py").write_text(old)
    guarded = hunkloom.Workspace(tmp_path)
    guarded.read("f.py")
    with pytest.raises(hunkloom.InvalidEditError) as caught:
        guarded.write("f.py", new)
    assert caught.value.code == "omission_placeholder"
    with pytest.raises(hunkloom.InvalidEditError) as caught:
        guarded.str_replace("f.py", old, new)
    assert caught.value.code == "omission_placeholder"
    assert (tmp_path / "f.py").read_text() == old
    unguarded = hunkloom.Workspace(tmp_path, omission_guard=False)
    unguarded.read("f.py")
    unguarded.write("f.py", new)
    assert (tmp_path / "f.py").read_text() == new


def test_durability_is_an_option_of_every_writer(tmp_path: Path) -> None:
    """durability="none" writes the same files (no flush); another name is refused."""
    (tmp_path / "a.txt").write_text("one\n")
    ws = hunkloom.Workspace(tmp_path, durability="none")
    ws.read("a.txt")
    ws.str_replace("a.txt", "one", "two")
    assert (tmp_path / "a.txt").read_text() == "two\n"
    editor = hunkloom.TextEditor(tmp_path, "openhands", durability="none")
    assert not editor.call({"command": "create", "path": str(tmp_path.resolve() / "b.txt"), "file_text": "b\n"}).is_error
    tools = hunkloom.Toolset(tmp_path, durability="full")
    read = tools.call("read_file", {"path": "b.txt"})
    assert not read.is_error and "b" in read.output
    for make in (
        lambda: hunkloom.Workspace(tmp_path, durability="fast"),  # type: ignore[arg-type]
        lambda: hunkloom.TextEditor(tmp_path, durability="fast"),  # type: ignore[arg-type]
        lambda: hunkloom.Toolset(tmp_path, durability="fast"),  # type: ignore[arg-type]
    ):
        with pytest.raises(hunkloom.InvalidOptionError) as raised:
            make()
        assert raised.value.code == "invalid_input"
        assert "unknown durability 'fast'" in str(raised.value)
