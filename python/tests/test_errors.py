"""Exceptions: one hierarchy under PatchloomError(ValueError), a stable .code, exact messages."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

import patchloom
from conftest import CLINE_CORPORA, load

RAISED: dict[str, type[BaseException]] = {}

NOT_FOUND_DIFF = "------- SEARCH\nmissing line\n=======\nnew\n+++++++ REPLACE\n"

FAMILY = {
    "search_not_found": patchloom.SearchNotFoundError,
    "empty_search_nonempty_file": patchloom.SearchNotFoundError,
    "match_before_previous_block": patchloom.SearchNotFoundError,
    "malformed_block": patchloom.MalformedDiffError,
    "invalid_state_transition": patchloom.MalformedDiffError,
    "incomplete_at_finish": patchloom.MalformedDiffError,
    "invalid_version": patchloom.InvalidOptionError,
    "invalid_dialect": patchloom.InvalidOptionError,
    "already_finished": patchloom.AlreadyFinishedError,
    "concurrent_use": patchloom.ConcurrentUseError,
    "not_found": patchloom.SearchNotFoundError,
    "multiple_matches": patchloom.AmbiguousMatchError,
    "old_equals_new": patchloom.InvalidEditError,
    "file_exists": patchloom.InvalidEditError,
    "file_not_found": patchloom.InvalidEditError,
    "invalid_line": patchloom.InvalidEditError,
    "invalid_line_number": patchloom.InvalidEditError,
    "invalid_line_for_new_file": patchloom.InvalidEditError,
    "invalid_convention": patchloom.InvalidOptionError,
    "invalid_fix": patchloom.InvalidOptionError,
    "invalid_policy": patchloom.InvalidOptionError,
    "ambiguous_match": patchloom.AmbiguousMatchError,
    "overlapping_blocks": patchloom.MalformedDiffError,
    "path_outside_root": patchloom.PathRefusedError,
    "unc_path": patchloom.PathRefusedError,
    "path_ignored": patchloom.PathRefusedError,
    "notebook_not_supported": patchloom.PathRefusedError,
    "not_read": patchloom.StaleFileError,
    "stale_file": patchloom.StaleFileError,
    "unsupported_encoding": patchloom.UnsupportedFileError,
    "file_too_large": patchloom.UnsupportedFileError,
    "io_error": patchloom.FileSystemError,
    "nothing_to_undo": patchloom.InvalidEditError,
    "conflicting_changes": patchloom.InvalidEditError,
    "invalid_patch": patchloom.MalformedDiffError,
    "invalid_patch_hunk": patchloom.MalformedDiffError,
    "empty_patch": patchloom.MalformedDiffError,
    "duplicate_patch_path": patchloom.MalformedDiffError,
    "patch_file_not_found": patchloom.InvalidEditError,
    "patch_file_exists": patchloom.InvalidEditError,
    "patch_empty_content": patchloom.InvalidEditError,
    "patch_context_not_found": patchloom.SearchNotFoundError,
}

# Codes no Python call can raise, with the reason.
UNREACHABLE: dict[str, str] = {
    "io_error": "needs an operating-system failure the tests cannot provoke portably "
    "(as root, permissions do not stop writes)",
    "conflicting_changes": "only a multi-file commit touching one path twice raises it; "
    "each Workspace call commits one file",
    "patch_file_exists": "Cline's apply_patch loads only the files a patch updates or deletes, "
    "so an Add of an existing path is reported as a duplicate action (the core's parser "
    "runner checks it)",
}


def workspace_and_patch_errors(root: Path) -> list[Callable[[], object]]:
    """Calls that raise the file-layer and patch codes."""
    (root / "latin1.txt").write_bytes(b"caf\xe9\n")
    (root / ".patchloomignore").write_text("ignored.txt\n")
    (root / "ignored.txt").write_text("x\n")
    (root / "big.txt").write_text("x" * 100)
    (root / "seen.txt").write_text("one\n")
    (root / "unread.txt").write_text("x\n")
    ws = patchloom.Workspace(root, max_file_size=50)
    ws.read("seen.txt")
    (root / "seen.txt").write_text("two\n")
    begin, end = "*** Begin Patch\n", "*** End Patch\n"
    return [
        lambda: ws.read("../x"),
        lambda: ws.read("//server/share/x"),
        lambda: ws.read("ignored.txt"),
        lambda: ws.read("a.ipynb"),
        lambda: ws.read("latin1.txt"),
        lambda: ws.read("big.txt"),
        lambda: ws.str_replace("unread.txt", "x", "y"),
        lambda: ws.str_replace("seen.txt", "one", "1"),
        lambda: ws.undo("ignored.txt"),
        lambda: ws.undo("seen.txt"),
        lambda: patchloom.apply_patch("not a patch", {}),
        lambda: patchloom.apply_patch(begin + "*** Frobnicate File: x\n" + end, {}),
        lambda: patchloom.apply_patch(begin + end, {}),
        lambda: patchloom.apply_patch(
            begin + "*** Add File: a\n+x\n*** Add File: a\n+y\n" + end, {}, dialect="cline"
        ),
        lambda: patchloom.apply_patch(begin + "*** Update File: no\n@@\n-x\n+y\n" + end, {}),
        lambda: patchloom.apply_patch(begin + "*** Add File: a\n" + end, {}, dialect="cline"),
        lambda: patchloom.apply_patch(begin + "*** Update File: a\n@@\n-zz\n+y\n" + end, {"a": "x\n"}),
    ]


def test_every_engine_code_has_a_family() -> None:
    assert set(patchloom.ERROR_CODES) == set(FAMILY), "map new codes to a family here"
    for code, cls in FAMILY.items():
        assert patchloom._native._error_class(code) is cls
        assert issubclass(cls, patchloom.PatchloomError)
        assert cls is not patchloom.PatchloomError
    assert patchloom._native._error_class("no_such_code") is None
    assert issubclass(patchloom.PatchloomError, ValueError)


def test_search_not_found_is_clines_message() -> None:
    with pytest.raises(patchloom.SearchNotFoundError) as info:
        patchloom.construct_new_file_content(NOT_FOUND_DIFF, "a\nb\n")
    error = info.value
    assert isinstance(error, patchloom.PatchloomError)
    assert isinstance(error, ValueError)
    assert error.code == "search_not_found"
    assert str(error) == "The SEARCH block:\nmissing line\n...does not match anything in the file."
    assert type(error).__module__ == "patchloom"


def test_invalid_version_and_dialect() -> None:
    with pytest.raises(patchloom.InvalidOptionError) as info:
        patchloom.construct_new_file_content("", "", True, "v3")  # type: ignore[arg-type]
    assert info.value.code == "invalid_version"
    RAISED.setdefault(info.value.code, type(info.value))
    with pytest.raises(patchloom.InvalidOptionError) as info:
        patchloom.StreamingApplier("", dialect="cline-v9")  # type: ignore[arg-type]
    assert info.value.code == "invalid_dialect"
    assert "cline-v9" in str(info.value)
    RAISED.setdefault(info.value.code, type(info.value))


def test_use_after_finish() -> None:
    applier = patchloom.StreamingApplier("a\n")
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
        with pytest.raises(patchloom.AlreadyFinishedError) as info:
            use()
        assert info.value.code == "already_finished"
    RAISED.setdefault(info.value.code, type(info.value))


def test_failed_finish_keeps_error_and_consumes() -> None:
    applier = patchloom.StreamingApplier("a\nb\n")
    applier.push(NOT_FOUND_DIFF)
    assert isinstance(applier.error, patchloom.SearchNotFoundError)
    with pytest.raises(patchloom.SearchNotFoundError):
        applier.finish()
    with pytest.raises(patchloom.AlreadyFinishedError):
        applier.finish()


def test_tentative_error_is_withdrawn() -> None:
    # While the SEARCH line is incomplete nothing is decided; completing it differently matters.
    applier = patchloom.StreamingApplier("alpha\nbeta\n")
    applier.push("------- SEARCH\nbet")
    applier.push("a\n=======\nBETA\n+++++++ REPLACE\n")
    assert applier.error is None
    assert applier.finish().new_content == "alpha\nBETA\n"


def test_wrong_argument_types_are_type_errors() -> None:
    with pytest.raises(TypeError):
        patchloom.construct_new_file_content(1, "x")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        patchloom.construct_new_file_content("x", b"bytes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        patchloom.construct_new_file_content("x", "y", "yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        patchloom.StreamingApplier(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        patchloom.StreamingApplier("x", "cline-v1")  # type: ignore[call-arg]
    applier = patchloom.StreamingApplier("x")
    with pytest.raises(TypeError):
        applier.push(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        patchloom.line_number_from_index("x", "0")  # type: ignore[arg-type]


def test_every_code_is_raised_for_real_with_its_class(tmp_path: Path) -> None:
    """The vectors (stateless), the cases above and a provoked concurrent call raise every code
    the engine defines, each with its family's class."""
    import test_threads

    for corpus in CLINE_CORPORA:
        for v in load(corpus):
            try:
                patchloom.construct_new_file_content(
                    v["diff"], v["original"], v["is_final"], v["version"]
                )
            except patchloom.PatchloomError as error:
                RAISED.setdefault(error.code, type(error))
    test_invalid_version_and_dialect()
    test_use_after_finish()
    for call in (
        lambda: patchloom.str_replace("x", "a", "a"),
        lambda: patchloom.str_replace("x", "", "y"),
        lambda: patchloom.str_replace(None, "x", "y"),
        lambda: patchloom.str_replace("x", "nope", "y"),
        lambda: patchloom.str_replace("aa aa", "aa", "y"),
        lambda: patchloom.insert("a\n", 5, "x", "after"),
        lambda: patchloom.insert("a\n", 1, "x", "sideways"),  # type: ignore[arg-type]
        lambda: patchloom.insert_content("a", "abc", "x"),
        lambda: patchloom.insert_content(None, 3, "x"),
        lambda: patchloom.write("x", fixes=["no_such_fix"]),  # type: ignore[list-item]
        lambda: patchloom.apply_diff("", "", policy="x"),  # type: ignore[arg-type]
        lambda: patchloom.apply_diff("------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n", "a\na\n"),
        lambda: patchloom.apply_diff(
            "------- SEARCH\na\nb\n=======\nx\n+++++++ REPLACE\n"
            "------- SEARCH\nb\nc\n=======\ny\n+++++++ REPLACE\n",
            "a\nb\nc\n",
        ),
    ):
        try:
            call()
        except patchloom.PatchloomError as error:
            RAISED.setdefault(error.code, type(error))
    for raising in workspace_and_patch_errors(tmp_path):
        try:
            raising()
        except patchloom.PatchloomError as error:
            RAISED.setdefault(error.code, type(error))
    concurrent = test_threads.provoke_concurrent_use()
    RAISED.setdefault(concurrent.code, type(concurrent))
    missing = set(patchloom.ERROR_CODES) - set(RAISED) - set(UNREACHABLE)
    assert not missing, f"never raised: {sorted(missing)}"
    for code, cls in RAISED.items():
        assert cls is FAMILY[code], code
