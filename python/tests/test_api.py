"""The Python surface: str indices, the streaming splices, large inputs, reprs, typing."""

from __future__ import annotations

import pytest

import hunkloom

DIFF = "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n"


def test_match_indices_are_str_indices_after_astral_characters() -> None:
    original = "😀🚀 emoji\nb\n"
    result = hunkloom.construct_new_file_content(DIFF, original)
    assert result.new_content == "😀🚀 emoji\nB\n"
    [index] = result.match_indices
    assert original[index:].startswith("b\n")
    assert index == 9  # 11 in JavaScript's UTF-16 units, 13 in UTF-8 bytes
    assert result.match_lines == [2]

    applier = hunkloom.StreamingApplier(original)
    applier.push(DIFF)
    outcome = applier.finish()
    assert outcome.match_indices == [9]
    [block] = outcome.blocks
    assert (block.index, block.status, block.strategy) == (0, "applied", "exact")
    assert original[block.start : block.end] == "b\n"
    assert (block.start_line, block.end_line) == (2, 2)


def test_updates_rebuild_the_preview_in_str_units() -> None:
    original = "😀\nalpha\nbeta\n"
    applier = hunkloom.StreamingApplier(original, dialect="cline-v1")
    view = ""
    diff = "------- SEARCH\nbeta\n=======\nBETA 🚀\n+++++++ REPLACE\n"
    completed = []
    for ch in diff:
        update = applier.push(ch)
        assert update.start <= len(view) and update.start + update.removed <= len(view)
        view = view[: update.start] + update.inserted + view[update.start + update.removed :]
        assert view == applier.preview
        completed.extend(update.completed)
    assert [b.strategy for b in completed] == ["exact"]
    assert applier.blocks_completed == 1
    assert applier.finish().new_content == "😀\nalpha\nBETA 🚀\n"


def test_preview_is_converted_once_per_change() -> None:
    """Reads between two pushes return the identical ``str``; a push that changes the preview
    makes the next read convert anew, one that leaves it as it was (an empty splice) does not."""
    original = "alpha\nbeta\ngamma\n"

    def is_empty(update: hunkloom.Update) -> bool:
        return (update.removed, update.inserted) == (0, "")

    cline = hunkloom.StreamingApplier(original)
    cline.push("------- SEARCH\nbeta\n=======\nBETA\n")
    first = cline.preview
    assert first == "alpha\nBETA\n\n"  # Cline's partial view, with its trailing line
    assert cline.preview is first
    assert not is_empty(cline.push("+++++++"))
    second = cline.preview
    assert second is not first and second == "alpha\nBETA\n"
    assert cline.preview is second
    assert is_empty(cline.push(" REPLACE\n"))
    assert cline.preview is second
    assert cline.finish().new_content == "alpha\nBETA\ngamma\n"
    with pytest.raises(hunkloom.AlreadyFinishedError):
        cline.preview

    native = hunkloom.StreamingApplier(original, dialect="native")
    whole = native.preview
    assert whole == original
    assert is_empty(native.push("------- SEARCH\nbe"))
    assert native.preview is whole
    assert not is_empty(native.push("ta\n=======\nBETA\n"))
    changed = native.preview
    assert changed is not whole and changed == "alpha\nBETA\ngamma\n"
    assert native.preview is changed


def test_partial_call_matches_clines_streaming_view() -> None:
    original = "one\ntwo\nthree\n"
    applier = hunkloom.StreamingApplier(original)
    pushed = ""
    # Cline reports a block's match index once its REPLACE part is closed.
    for piece, indices in [("------- SEARCH\ntwo\n=======\nTW", []), ("O\n+++++++ REPLACE\n", [4])]:
        applier.push(piece)
        pushed += piece
        partial = hunkloom.construct_new_file_content(pushed, original, is_final=False)
        assert applier.preview == partial.new_content
        assert applier.match_indices == partial.match_indices == indices
    assert partial.new_content == "one\nTWO\n"


def test_v2_dialect() -> None:
    result = hunkloom.construct_new_file_content(DIFF, "a\nb\n", True, "v2")
    assert result.new_content == "a\nB\n"
    assert result.match_indices == []  # Cline v2 reports none
    applier = hunkloom.StreamingApplier("a\nb\n", dialect="cline-v2")
    assert applier.dialect == "cline-v2"
    applier.push(DIFF)
    assert applier.finish().new_content == "a\nB\n"


def test_two_hundred_thousand_lines() -> None:
    lines = [f"line {i}\n" for i in range(200_000)]
    original = "".join(lines)
    diff = "------- SEARCH\nline 150000\nline 150001\n=======\nchanged\n+++++++ REPLACE\n"
    expected = "".join(lines[:150_000]) + "changed\n" + "".join(lines[150_002:])
    result = hunkloom.construct_new_file_content(diff, original)
    assert result.new_content == expected
    assert result.match_lines == [150_001]
    assert original[result.match_indices[0] :].startswith("line 150000\n")

    applier = hunkloom.StreamingApplier(original)
    for i in range(0, len(diff), 4):
        applier.push(diff[i : i + 4])
    assert applier.finish().new_content == expected


def test_line_number_from_index() -> None:
    content = "😀\nb\nc"
    assert [hunkloom.line_number_from_index(content, i) for i in range(len(content) + 2)] == [
        1, 1, 2, 2, 3, 3, 3,
    ]


def test_reprs_are_informative() -> None:
    applier = hunkloom.StreamingApplier("a\n")
    assert repr(applier) == (
        "StreamingApplier(dialect='cline-v1', blocks_completed=0, preview=<0 chars>, error=None)"
    )
    update = applier.push("------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n")
    assert repr(update).startswith("Update(start=0, removed=0, inserted='b\\n'")
    outcome = applier.finish()
    assert repr(outcome) == "Outcome(new_content=<2 chars>, match_indices=[0], blocks=<1 blocks>)"
    assert repr(outcome.blocks[0]) == (
        "BlockReport(index=0, status='applied', strategy='exact', start=0, end=2, start_line=1, "
        "end_line=1, candidates=1, normalizations=[])"
    )
    assert repr(applier) == "StreamingApplier(dialect='cline-v1', finished)"


def test_version_and_exports() -> None:
    assert hunkloom.__version__.count(".") == 2
    for name in hunkloom.__all__:
        assert hasattr(hunkloom, name), name


def test_the_stub_literals_equal_the_names_the_core_lists() -> None:
    """The `Literal`s of the stub are checked against the core's own lists, so a renamed or
    added strategy, normalization or status fails here rather than passing unnoticed."""
    import ast
    from pathlib import Path

    stub = ast.parse((Path(hunkloom.__file__).parent / "_native.pyi").read_text())
    literals: dict[str, tuple[str, ...]] = {}
    for node in stub.body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Subscript)
        ):
            elements = node.value.slice
            items = elements.elts if isinstance(elements, ast.Tuple) else [elements]
            literals[node.targets[0].id] = tuple(
                e.value for e in items if isinstance(e, ast.Constant) and isinstance(e.value, str)
            )
    assert literals["_Strategy"] == hunkloom.STRATEGIES
    assert literals["_Normalization"] == hunkloom.NORMALIZATIONS
    assert literals["_BlockStatus"] == hunkloom.BLOCK_STATUSES
    assert "indentation" in hunkloom.STRATEGIES and "unmatched" in hunkloom.STRATEGIES
    # And the names options accept: every input Literal of the stub comes from a core list.
    inputs = {
        "_Dialect": hunkloom.DIALECTS,
        "_PatchDialect": hunkloom.PATCH_DIALECTS,
        "_Policy": hunkloom.POLICIES,
        "_FixName": hunkloom.FIXES,
        "_Convention": hunkloom.CONVENTIONS,
        "_V4aMode": hunkloom.V4A_MODES,
        "_Profile": hunkloom.PROFILES,
        "_ToolsetProfile": hunkloom.TOOLSET_PROFILES,
        "_Semantics": hunkloom.SEMANTICS,
        "_Durability": hunkloom.DURABILITIES,
    }
    for alias, names in inputs.items():
        assert literals[alias] == names, alias
