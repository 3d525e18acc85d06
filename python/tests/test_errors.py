"""Exceptions: one hierarchy under HunkloomError(ValueError), a stable .code, exact messages."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

import hunkloom
from conftest import CLINE_CORPORA, load

RAISED: dict[str, type[BaseException]] = {}

NOT_FOUND_DIFF = "------- SEARCH\nmissing line\n=======\nnew\n+++++++ REPLACE\n"

FAMILY = {
    "search_not_found": hunkloom.SearchNotFoundError,
    "empty_search_nonempty_file": hunkloom.SearchNotFoundError,
    "match_before_previous_block": hunkloom.SearchNotFoundError,
    "malformed_block": hunkloom.MalformedDiffError,
    "invalid_state_transition": hunkloom.MalformedDiffError,
    "incomplete_at_finish": hunkloom.MalformedDiffError,
    "invalid_version": hunkloom.InvalidOptionError,
    "invalid_dialect": hunkloom.InvalidOptionError,
    "invalid_profile": hunkloom.InvalidOptionError,
    "invalid_input": hunkloom.InvalidOptionError,
    "already_finished": hunkloom.AlreadyFinishedError,
    "concurrent_use": hunkloom.ConcurrentUseError,
    "not_found": hunkloom.SearchNotFoundError,
    "multiple_matches": hunkloom.AmbiguousMatchError,
    "old_equals_new": hunkloom.InvalidEditError,
    "file_exists": hunkloom.InvalidEditError,
    "file_not_found": hunkloom.MissingFileError,
    "invalid_line": hunkloom.InvalidEditError,
    "omission_placeholder": hunkloom.InvalidEditError,
    "lazy_no_anchor": hunkloom.SearchNotFoundError,
    "lazy_ambiguous": hunkloom.AmbiguousMatchError,
    "lazy_silent_deletion": hunkloom.InvalidEditError,
    "lazy_conflict": hunkloom.InvalidEditError,
    "lazy_indentation": hunkloom.InvalidEditError,
    "invalid_language": hunkloom.InvalidOptionError,
    "invalid_line_number": hunkloom.InvalidEditError,
    "invalid_line_for_new_file": hunkloom.InvalidEditError,
    "invalid_convention": hunkloom.InvalidOptionError,
    "invalid_fix": hunkloom.InvalidOptionError,
    "invalid_policy": hunkloom.InvalidOptionError,
    "ambiguous_match": hunkloom.AmbiguousMatchError,
    "overlapping_blocks": hunkloom.MalformedDiffError,
    "path_outside_root": hunkloom.PathRefusedError,
    "unc_path": hunkloom.PathRefusedError,
    "path_ignored": hunkloom.PathRefusedError,
    "path_protected": hunkloom.PathRefusedError,
    "invalid_glob": hunkloom.InvalidOptionError,
    "notebook_not_supported": hunkloom.PathRefusedError,
    "not_read": hunkloom.StaleFileError,
    "stale_file": hunkloom.StaleFileError,
    "unsupported_encoding": hunkloom.UnsupportedFileError,
    "file_too_large": hunkloom.UnsupportedFileError,
    "unrepresentable_text": hunkloom.InvalidEditError,
    "suspected_truncation": hunkloom.InvalidEditError,
    "line_number_prefixes": hunkloom.InvalidEditError,
    "truncation_notice": hunkloom.InvalidEditError,
    "io_error": hunkloom.FileSystemError,
    "lock_timeout": hunkloom.FileSystemError,
    "nothing_to_undo": hunkloom.InvalidEditError,
    "conflicting_changes": hunkloom.InvalidEditError,
    "invalid_patch": hunkloom.MalformedDiffError,
    "invalid_patch_hunk": hunkloom.MalformedDiffError,
    "empty_patch": hunkloom.MalformedDiffError,
    "duplicate_patch_path": hunkloom.MalformedDiffError,
    "patch_file_not_found": hunkloom.MissingFileError,
    "patch_file_exists": hunkloom.InvalidEditError,
    "patch_empty_content": hunkloom.InvalidEditError,
    "patch_context_not_found": hunkloom.SearchNotFoundError,
    "internal_error": hunkloom.InternalError,
    "out_of_memory": hunkloom.OutOfMemoryError,
}

# Codes no Python call can raise, with the reason.
UNREACHABLE: dict[str, str] = {
    "out_of_memory": "needs a memory limit, set in a child process by test_out_of_memory.py",
    "io_error": "needs an operating-system failure the tests cannot provoke portably "
    "(as root, permissions do not stop writes)",
    "conflicting_changes": "only a multi-file commit touching one path twice raises it; "
    "each Workspace call commits one file",
    "patch_file_exists": "Cline's apply_patch loads only the files a patch updates or deletes, "
    "so an Add of an existing path is reported as a duplicate action (the core's parser "
    "runner checks it)",
}


THREE = "def a():\n    one()\n\ndef b():\n    two()\n\ndef c():\n    three()\n"
NESTED = "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n"

# One lazy edit per refusal code: no anchor, an ambiguous one, a definition dropped silently,
# segments out of order, indentation that maps to the file's in no consistent way, an unknown
# language.
LAZY_REFUSALS: list[Callable[[], object]] = [
    lambda: hunkloom.apply_lazy("# ...\nnowhere()\n# ...\n", THREE, path="a.py"),
    lambda: hunkloom.apply_lazy("# ...\nx = 1\nz = 3\n# ...\n", "x = 1\ny = 2\nx = 1\n", path="a.py"),
    lambda: hunkloom.apply_lazy("# ...\ndef a():\n    one()\n\ndef c():\n    three()\n", THREE, path="a.py"),
    lambda: hunkloom.apply_lazy(
        "# ...\ndef c():\n    three()\n# ...\ndef a():\n    one()\n# ...\n", THREE, path="a.py"
    ),
    lambda: hunkloom.apply_lazy(
        "# ...\n  def f(self):\n      return 10\n\n    def g(self):\n# ...\n", NESTED, path="a.py"
    ),
    lambda: hunkloom.apply_lazy("x", "y", lang="cobol"),
]


def unrepresentable(root: Path) -> object:
    """A character the cp1251 file ``ru.txt`` cannot hold."""
    ws = hunkloom.Workspace(root)
    ws.read("ru.txt")
    return ws.str_replace("ru.txt", "мир", "✓")


def damaged(root: Path, how: str, text: str) -> object:
    """A damaged call on a 20-line file ``long.py``: a cut-off write, or a ``str_replace`` of its
    first line by ``text``."""
    (root / "long.py").write_text("".join(f"line_{i} = {i}\n" for i in range(20)))
    ws = hunkloom.Workspace(root)
    ws.read("long.py")
    if how == "write":
        return ws.write("long.py", text)
    return ws.str_replace("long.py", "line_0 = 0\n", text)


def workspace_and_patch_errors(root: Path) -> list[Callable[[], object]]:
    """Calls that raise the file-layer and patch codes."""
    (root / "latin1.txt").write_bytes(b"caf\xe9\0\n")
    (root / "ru.txt").write_bytes("# Тестовый файл с кириллицей\nx = 'Привет, мир!'\n".encode("cp1251"))
    (root / ".hunkloomignore").write_text("ignored.txt\n")
    (root / "ignored.txt").write_text("x\n")
    (root / "big.txt").write_text("x" * 100)
    (root / "seen.txt").write_text("one\n")
    (root / "unread.txt").write_text("x\n")
    ws = hunkloom.Workspace(root, max_file_size=50)
    ws.read("seen.txt")
    (root / "seen.txt").write_text("two\n")
    begin, end = "*** Begin Patch\n", "*** End Patch\n"
    return [
        lambda: ws.read("../x"),
        lambda: ws.read("//server/share/x"),
        lambda: ws.read("ignored.txt"),
        lambda: ws.read("a.ipynb"),
        lambda: ws.write(".git/config", "[core]\n"),
        lambda: hunkloom.Workspace(root, protect=["keys/[z-a]"]),
        lambda: ws.read("latin1.txt"),
        lambda: unrepresentable(root),
        lambda: damaged(root, "write", "def f():\n    g("),
        lambda: damaged(root, "str_replace", "     1\tx\n     5\ty\n"),
        lambda: damaged(root, "str_replace", "[... 3 lines truncated ...]\n"),
        lambda: ws.read("big.txt"),
        lambda: ws.str_replace("unread.txt", "x", "y"),
        lambda: ws.str_replace("seen.txt", "one", "1"),
        lambda: ws.undo("ignored.txt"),
        lambda: ws.undo("seen.txt"),
        lambda: hunkloom.apply_patch("not a patch", {}),
        lambda: hunkloom.apply_patch(begin + "*** Frobnicate File: x\n" + end, {}),
        lambda: hunkloom.apply_patch(begin + end, {}),
        lambda: hunkloom.apply_patch(
            begin + "*** Add File: a\n+x\n*** Add File: a\n+y\n" + end, {}, dialect="cline"
        ),
        lambda: hunkloom.apply_patch(begin + "*** Update File: no\n@@\n-x\n+y\n" + end, {}),
        lambda: hunkloom.apply_patch(begin + "*** Add File: a\n" + end, {}, dialect="cline"),
        lambda: hunkloom.apply_patch(begin + "*** Update File: a\n@@\n-zz\n+y\n" + end, {"a": "x\n"}),
    ]


def provoke_lock_timeout(root: Path) -> hunkloom.HunkloomError:
    """An edit while another process-wide holder keeps the root's commit lock (an advisory
    lock on the root directory, as another hunkloom process would hold it)."""
    import fcntl
    import os

    ws = hunkloom.Workspace(root, lock_timeout=0.05)
    fd = os.open(root, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with pytest.raises(hunkloom.FileSystemError) as caught:
            ws.write("locked.txt", "x\n")
    finally:
        os.close(fd)
    assert caught.value.code == "lock_timeout"
    assert "nothing was written" in str(caught.value)
    assert not (root / "locked.txt").exists()
    ws.write("locked.txt", "x\n")
    return caught.value


def test_every_engine_code_has_a_family() -> None:
    assert set(hunkloom.ERROR_CODES) == set(FAMILY), "map new codes to a family here"
    for code, cls in FAMILY.items():
        assert hunkloom._native._error_class(code) is cls
        assert issubclass(cls, hunkloom.HunkloomError)
        assert cls is not hunkloom.HunkloomError
    assert hunkloom._native._error_class("no_such_code") is None
    assert issubclass(hunkloom.HunkloomError, ValueError)


def test_each_exception_documents_every_code_of_its_family() -> None:
    """The runtime docstring and the stub's docstring of each class name all its codes."""
    import ast

    stub = ast.parse((Path(hunkloom.__file__).parent / "_native.pyi").read_text())
    stub_docs = {
        node.name: ast.get_docstring(node) or ""
        for node in stub.body
        if isinstance(node, ast.ClassDef)
    }
    for code, cls in FAMILY.items():
        assert code in (cls.__doc__ or ""), f"{cls.__name__}.__doc__ does not name {code}"
        assert code in stub_docs[cls.__name__], f"the stub of {cls.__name__} does not name {code}"


def test_a_missing_file_is_a_file_not_found_error(tmp_path: Path) -> None:
    """Reading or editing a file that does not exist raises what `open()` would be caught as,
    and stays an InvalidEditError with its code."""
    ws = hunkloom.Workspace(tmp_path)
    for call in (lambda: ws.read("nope.txt"), lambda: ws.str_replace("nope.txt", "a", "b")):
        with pytest.raises(FileNotFoundError) as caught:
            call()
        error = caught.value
        assert isinstance(error, hunkloom.MissingFileError)
        assert isinstance(error, hunkloom.InvalidEditError)
        assert isinstance(error, ValueError)
        assert error.code == "file_not_found"
        assert "nope.txt" in str(error)
    assert issubclass(hunkloom.MissingFileError, hunkloom.InvalidEditError)
    assert type(error).__module__ == "hunkloom"
    with pytest.raises(FileNotFoundError) as patched:
        hunkloom.apply_patch("*** Begin Patch\n*** Update File: no\n@@\n-x\n+y\n*** End Patch\n", {})
    assert isinstance(patched.value, hunkloom.MissingFileError)
    assert patched.value.code == "patch_file_not_found"


def test_search_not_found_is_clines_message() -> None:
    with pytest.raises(hunkloom.SearchNotFoundError) as info:
        hunkloom.construct_new_file_content(NOT_FOUND_DIFF, "a\nb\n")
    error = info.value
    assert isinstance(error, hunkloom.HunkloomError)
    assert isinstance(error, ValueError)
    assert error.code == "search_not_found"
    assert str(error) == "The SEARCH block:\nmissing line\n...does not match anything in the file."
    assert type(error).__module__ == "hunkloom"


def test_invalid_version_and_dialect() -> None:
    with pytest.raises(hunkloom.InvalidOptionError) as info:
        hunkloom.construct_new_file_content("", "", True, "v3")  # type: ignore[arg-type]
    assert info.value.code == "invalid_version"
    RAISED.setdefault(info.value.code, type(info.value))
    with pytest.raises(hunkloom.InvalidOptionError) as info:
        hunkloom.StreamingApplier("", dialect="cline-v9")  # type: ignore[arg-type]
    assert info.value.code == "invalid_dialect"
    assert "cline-v9" in str(info.value)
    RAISED.setdefault(info.value.code, type(info.value))


def test_use_after_finish() -> None:
    applier = hunkloom.StreamingApplier("a\n")
    applier.push("------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n")
    assert applier.finish().new_content == "b\n"
    assert applier.finished
    assert "finished" in repr(applier)
    for use in (
        lambda: applier.push("x"),
        lambda: applier.finish(),
        lambda: applier.preview,
        lambda: applier.error,
    ):
        with pytest.raises(hunkloom.AlreadyFinishedError) as info:
            use()
        assert info.value.code == "already_finished"
    RAISED.setdefault(info.value.code, type(info.value))


def test_failed_finish_keeps_error_and_consumes() -> None:
    applier = hunkloom.StreamingApplier("a\nb\n")
    applier.push(NOT_FOUND_DIFF)
    assert isinstance(applier.error, hunkloom.SearchNotFoundError)
    with pytest.raises(hunkloom.SearchNotFoundError):
        applier.finish()
    with pytest.raises(hunkloom.AlreadyFinishedError):
        applier.finish()


def test_tentative_error_is_withdrawn() -> None:
    # While the SEARCH line is incomplete nothing is decided; completing it differently matters.
    applier = hunkloom.StreamingApplier("alpha\nbeta\n")
    applier.push("------- SEARCH\nbet")
    applier.push("a\n=======\nBETA\n+++++++ REPLACE\n")
    assert applier.error is None
    assert applier.finish().new_content == "alpha\nBETA\n"


def test_wrong_argument_types_are_type_errors() -> None:
    with pytest.raises(TypeError):
        hunkloom.construct_new_file_content(1, "x")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        hunkloom.construct_new_file_content("x", b"bytes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        hunkloom.construct_new_file_content("x", "y", "yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        hunkloom.StreamingApplier(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        hunkloom.StreamingApplier("x", "cline-v1")  # type: ignore[call-arg]
    applier = hunkloom.StreamingApplier("x")
    with pytest.raises(TypeError):
        applier.push(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        hunkloom.line_number_from_index("x", "0")  # type: ignore[arg-type]


def test_every_code_is_raised_for_real_with_its_class(tmp_path: Path) -> None:
    """The vectors (stateless), the cases above and a provoked concurrent call raise every code
    the engine defines, each with its family's class."""
    import test_threads

    for corpus in CLINE_CORPORA:
        for v in load(corpus):
            try:
                hunkloom.construct_new_file_content(
                    v["diff"], v["original"], v["is_final"], v["version"]
                )
            except hunkloom.HunkloomError as error:
                RAISED.setdefault(error.code, type(error))
    test_invalid_version_and_dialect()
    test_use_after_finish()
    for call in (
        lambda: hunkloom.str_replace("x", "a", "a"),
        lambda: hunkloom.str_replace("x", "", "y"),
        lambda: hunkloom.str_replace(None, "x", "y"),
        lambda: hunkloom.str_replace("x", "nope", "y"),
        lambda: hunkloom.str_replace("aa aa", "aa", "y"),
        lambda: hunkloom.insert("a\n", 5, "x", "after"),
        lambda: hunkloom.insert("a\n", 1, "x", "sideways"),  # type: ignore[arg-type]
        lambda: hunkloom.insert_content("a", "abc", "x"),
        lambda: hunkloom.insert_content(None, 3, "x"),
        lambda: hunkloom.write("x", fixes=["no_such_fix"]),  # type: ignore[list-item]
        lambda: hunkloom.apply_diff("", "", policy="x"),  # type: ignore[arg-type]
        lambda: hunkloom.apply_diff("------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n", "a\na\n"),
        lambda: hunkloom.apply_diff(
            "------- SEARCH\ndef f():\n    a = 1\n    b = 2\n    c = 3\n=======\ndef f():\n"
            "    # ... existing code ...\n+++++++ REPLACE\n",
            "def f():\n    a = 1\n    b = 2\n    c = 3\n",
        ),
        lambda: hunkloom.apply_diff(
            "------- SEARCH\na\nb\n=======\nx\n+++++++ REPLACE\n"
            "------- SEARCH\nb\nc\n=======\ny\n+++++++ REPLACE\n",
            "a\nb\nc\n",
        ),
        *LAZY_REFUSALS,
    ):
        try:
            call()
        except hunkloom.HunkloomError as error:
            RAISED.setdefault(error.code, type(error))
    editor = hunkloom.TextEditor(tmp_path)
    editor_calls: list[Callable[[], object]] = [
        lambda: hunkloom.TextEditor(tmp_path, profile="vim"),  # type: ignore[arg-type]
        lambda: editor.call(["view"]),  # type: ignore[arg-type]
    ]
    for editor_call in editor_calls:
        try:
            editor_call()
        except hunkloom.HunkloomError as error:
            RAISED.setdefault(error.code, type(error))
    for raising in workspace_and_patch_errors(tmp_path):
        try:
            raising()
        except hunkloom.HunkloomError as error:
            RAISED.setdefault(error.code, type(error))
    RAISED.setdefault("lock_timeout", type(provoke_lock_timeout(tmp_path)))
    concurrent = test_threads.provoke_concurrent_use()
    RAISED.setdefault(concurrent.code, type(concurrent))
    import test_panic

    internal = test_panic.provoke_internal_error()
    RAISED.setdefault(internal.code, type(internal))
    missing = set(hunkloom.ERROR_CODES) - set(RAISED) - set(UNREACHABLE)
    assert not missing, f"never raised: {sorted(missing)}"
    for code, cls in RAISED.items():
        assert cls is FAMILY[code], code
