"""Tool operations and content fixes: the corpora through the Python API, plus table cases.

`roo-insert-content.jsonl` rows of kind `insert_groups` exercise an internal helper of Roo's
tool; the core's runner checks them, and Python runs the tool rows, which use it.
"""

from __future__ import annotations

from typing import Any, Optional

import pytest

import hunkloom
from conftest import load

# Documented Roo rules Python cannot check, with the reason.
SKIP = {
    "roo-insert-055": "the missing-`path` check happens in the tool before any file is read; "
    "the engine takes the file's text, not a path",
}


def test_cline_content_fixes(summary: list[str]) -> None:
    vectors = load("cline-content-fixes")
    failures = []
    for v in vectors:
        op, text = v["op"], v["text"]
        if op == "apply_model_content_fixes":
            got = hunkloom.apply_model_content_fixes(text, v["model_id"], v["file_path"])
        elif op == "strip_markdown_fences":
            got = hunkloom.strip_markdown_fences(text)
        elif op == "write_to_file_content":
            got = hunkloom.write(text, v["file_path"], v["model_id"]).new_content
        else:
            raise AssertionError(f"{v['id']}: unknown op {op}")
        if got != v["expect"]:
            failures.append(f"{v['id']} ({op}):\n  want {v['expect']!r}\n  got  {got!r}")
    line = f"cline-content-fixes: {len(vectors) - len(failures)}/{len(vectors)} passed"
    summary.append(line)
    assert not failures, line + "\n" + "\n".join(failures[:5])


def roo_tool(v: dict[str, Any]) -> Optional[str]:
    """None when the tool row holds, else why not."""
    expect = v["expect"]
    try:
        got = hunkloom.insert_content(v["original"], v["line"], v["content"])
    except hunkloom.HunkloomError as error:
        if expect["success"]:
            return f"raised {error.code}: {error}"
        if str(error) != expect["error"]:
            return f"message {str(error)!r}, want {expect['error']!r}"
        return None
    if not expect["success"]:
        return f"succeeded, want error {expect['error']!r}"
    if (got.new_content, got.edit_type) != (expect["content"], expect["edit_type"]):
        return f"got {(got.new_content, got.edit_type)!r}, want {expect!r}"
    # Roo's diff view re-adds a final newline the original had (a documented rule of the tool).
    view = expect.get("diff_view_final_content")
    if view is not None:
        shown = got.new_content
        if (v["original"] or "").endswith("\n") and not shown.endswith("\n"):
            shown += "\n"
        if shown != view:
            return f"diff view {shown!r}, want {view!r}"
    return None


def roo_rule(v: dict[str, Any]) -> Optional[str]:
    """Documented rules the engine can observe; any other rule id is a failure to look at."""
    if v["id"] == "roo-insert-054":
        # A non-integer native `line` that reaches the tool anyway is not rejected.
        hunkloom.insert_content(v["original"], v["line"], v["content"])
        return None
    return f"documented rule {v['id']} has no check and no skip reason"


def test_roo_insert_content(summary: list[str]) -> None:
    rows = load("roo-insert-content")
    failures, checked, skipped = [], 0, 0
    for v in rows:
        if v["id"] in SKIP:
            skipped += 1
            continue
        if v["kind"] == "insert_groups":
            continue  # counted as not run below
        why = roo_tool(v) if v["kind"] == "tool" else roo_rule(v)
        checked += 1
        if why:
            failures.append(f"{v['id']}: {why}")
    groups = sum(1 for v in rows if v["kind"] == "insert_groups")
    line = f"roo-insert-content: {checked - len(failures)}/{checked} passed, {skipped} skipped"
    summary.append(line)
    summary.extend(f"  skipped {k}: {why}" for k, why in SKIP.items())
    summary.append(
        f"  not run: {groups} insert_groups rows (Roo's internal array helper, not a Python API; "
        "the core's runner checks them)"
    )
    assert not failures, line + "\n" + "\n".join(failures[:5])


# --- str_replace -------------------------------------------------------------------------


def test_str_replace_exact_and_report() -> None:
    edit = hunkloom.str_replace("a\nb\nc\n", "b", "B")
    assert edit.new_content == "a\nB\nc\n"
    assert (edit.replacements, edit.normalizations, edit.first_edit) == (1, [], (2, 2))


def test_str_replace_curly_quotes_keep_the_files_style() -> None:
    edit = hunkloom.str_replace('print(“hi”)\n', 'print("hi")', 'print("bye")', path="a.py")
    assert edit.new_content == "print(“bye”)\n"
    assert edit.normalizations == ["curly_quotes"]


def test_str_replace_errors_have_codes_and_exact_messages() -> None:
    cases = [
        (("x", "a", "a"), hunkloom.InvalidEditError, "old_equals_new",
         "No changes to make: old_string and new_string are exactly the same."),
        (("x", "", "y"), hunkloom.InvalidEditError, "file_exists",
         "Cannot create new file - file already exists."),
        (("x", "nope", "y"), hunkloom.SearchNotFoundError, "not_found",
         "String to replace not found in file.\nString: nope"),
        (("aa aa", "aa", "b"), hunkloom.AmbiguousMatchError, "multiple_matches",
         "Found 2 matches of the string to replace, but replace_all is false. To replace all "
         "occurrences, set replace_all to true. To replace only one occurrence, please provide "
         "more context to uniquely identify the instance."),
    ]
    for args, cls, code, message in cases:
        with pytest.raises(cls) as info:
            hunkloom.str_replace(*args)
        assert (info.value.code, str(info.value)) == (code, message)


def test_str_replace_all_and_creation() -> None:
    edit = hunkloom.str_replace("aaa", "aa", "b", replace_all=True)
    assert (edit.new_content, edit.replacements) == ("ba", 1)
    assert hunkloom.str_replace(None, "", "new file\n").new_content == "new file\n"


def test_str_replace_trailing_whitespace_kept_only_in_markdown() -> None:
    assert hunkloom.str_replace("a\n", "a", "b  ", path="x.py").new_content == "b\n"
    assert hunkloom.str_replace("a\n", "a", "b  ", path="x.MD").new_content == "b  \n"


# --- insert ------------------------------------------------------------------------------


def test_insert_conventions_and_line_endings() -> None:
    assert hunkloom.insert("a\nb\n", 1, "x", "before").new_content == "x\na\nb\n"
    assert hunkloom.insert("a\r\nb\r\n", 1, "x", "after").new_content == "a\r\nx\r\nb\r\n"
    with pytest.raises(hunkloom.InvalidEditError) as info:
        hunkloom.insert("a\nb\n", 9, "x", "after")
    assert info.value.code == "invalid_line"
    with pytest.raises(hunkloom.InvalidOptionError) as option_info:
        hunkloom.insert("a\n", 1, "x", "sideways")  # type: ignore[arg-type]
    assert option_info.value.code == "invalid_convention"


def test_insert_content_line_argument_kinds() -> None:
    assert hunkloom.insert_content("a\nb", "2", "X").new_content == "a\nX\nb"
    assert hunkloom.insert_content("a\nb", 2, "X").new_content == "a\nX\nb"
    assert hunkloom.insert_content(None, 0, "X").edit_type == "create"
    for bad in (None, "abc", -1):
        with pytest.raises(hunkloom.InvalidEditError) as info:
            hunkloom.insert_content("a\nb", bad, "X")
        assert info.value.code == "invalid_line_number"
    with pytest.raises(TypeError):
        hunkloom.insert_content("a", True, "X")  # a bool is not a line number
    with pytest.raises(TypeError):
        hunkloom.insert_content("a", [1], "X")  # type: ignore[arg-type]


# --- write and fixes ---------------------------------------------------------------------


def test_write_reports_the_fixes_it_applied() -> None:
    written = hunkloom.write("```python\nx = 1\n```", "a.py", "claude-sonnet")
    assert written.new_content == "x = 1"
    assert written.fixes_applied == ["strip_markdown_fences"]
    assert hunkloom.write("x = 1\n").fixes_applied == []
    escaped = "if a &lt; b:\n"
    assert hunkloom.write(escaped, "a.py", "gpt-4").new_content == "if a < b:\n"
    kept = hunkloom.write(escaped, "a.py", "gpt-4", fixes=["strip_markdown_fences"])
    assert (kept.new_content, kept.fixes_applied) == (escaped, [])
    with pytest.raises(hunkloom.InvalidOptionError) as info:
        hunkloom.write("x", fixes=["no_such_fix"])  # type: ignore[list-item]
    assert info.value.code == "invalid_fix"


def test_reprs() -> None:
    assert repr(hunkloom.str_replace("a\n", "a", "b")) == (
        "Edit(new_content=<2 chars>, replacements=1, normalizations=[], first_edit=(1, 1))"
    )
    assert repr(hunkloom.write("```\nx\n```")) == (
        "Written(new_content=<1 chars>, fixes_applied=['strip_markdown_fences'])"
    )
    assert repr(hunkloom.insert_content(None, 0, "x")) == (
        "InsertedContent(new_content=<1 chars>, edit_type='create')"
    )


PLACEHOLDER_OLD = "def f():\n    a = 1\n    b = 2\n    c = 3\n    return a + b + c\n"
PLACEHOLDER_NEW = "def f():\n    # ... existing code ...\n    return 0\n"


def test_str_replace_omission_guard_refuses_a_placeholder_and_can_be_turned_off() -> None:
    content = "x = 0\n" + PLACEHOLDER_OLD
    with pytest.raises(hunkloom.InvalidEditError) as caught:
        hunkloom.str_replace(content, PLACEHOLDER_OLD, PLACEHOLDER_NEW)
    assert caught.value.code == "omission_placeholder"
    edit = hunkloom.str_replace(content, PLACEHOLDER_OLD, PLACEHOLDER_NEW, omission_guard=False)
    assert edit.new_content == "x = 0\n" + PLACEHOLDER_NEW
