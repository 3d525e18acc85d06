"""`hunkloom mcp` driven by a real MCP client: the official Python SDK (`mcp`) over stdio.

The server binary is built by `make test-python` (which exports ``HUNKLOOM_BIN``); run by
hand, the test falls back to ``target/<host>/release/hunkloom`` (where `make` builds it),
``target/release/hunkloom`` or ``target/debug/hunkloom`` and is skipped when none exists. Files
are checked on disk byte for byte.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client, types

ROOT = Path(__file__).resolve().parents[2]
CURRENT_REVISION = "2025-11-25"
TOOLS = [
    "str_replace_based_edit_tool",
    "apply_diff",
    "apply_lazy",
    "apply_patch",
    "read_file",
    "undo_edit",
]


def hunkloom_bin() -> Path:
    """The `hunkloom` binary under test."""
    given = os.environ.get("HUNKLOOM_BIN")
    if given:
        path = Path(given)
        assert path.is_file(), f"HUNKLOOM_BIN={given} does not exist"
        return path
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for path in [*target.glob("*/release/hunkloom"), target / "release" / "hunkloom", target / "debug" / "hunkloom"]:
        if path.is_file():
            return path
    pytest.skip("no hunkloom binary: run `make test-python` or set HUNKLOOM_BIN")


@asynccontextmanager
async def server(root: Path, *args: str) -> AsyncIterator[ClientSession]:
    """A session with `hunkloom mcp --root ROOT ARGS`, initialized."""
    params = StdioServerParameters(
        command=str(hunkloom_bin()),
        args=["mcp", "--root", str(root), *args],
        env={"HUNKLOOM_LOG": "warn"},
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.protocol_version == CURRENT_REVISION
            assert init.server_info.name == "hunkloom"
            yield session


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), timeout=60))


def text_of(result: types.CallToolResult) -> str:
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


async def ok(session: ClientSession, tool: str, arguments: dict[str, Any]) -> str:
    result = await session.call_tool(tool, arguments)
    assert isinstance(result, types.CallToolResult)
    assert not result.is_error, text_of(result)
    return text_of(result)


async def refused(session: ClientSession, tool: str, arguments: dict[str, Any], code: str) -> str:
    result = await session.call_tool(tool, arguments)
    assert isinstance(result, types.CallToolResult)
    assert result.is_error, text_of(result)
    meta = result.meta or {}
    assert meta.get("hunkloom/code") == code, (meta, text_of(result))
    return text_of(result)


def block(search: str, replace: str) -> str:
    return f"<<<<<<< SEARCH\n{search}=======\n{replace}>>>>>>> REPLACE\n"


def test_tools_are_listed_with_valid_json_schemas(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with server(tmp_path) as session:
            listed = await session.list_tools()
            assert [t.name for t in listed.tools] == TOOLS
            for tool in listed.tools:
                jsonschema.Draft202012Validator.check_schema(tool.input_schema)
                assert tool.input_schema["type"] == "object"
                assert tool.description and str(tmp_path.resolve()) in tool.description
        async with server(tmp_path, "--read-only") as session:
            listed = await session.list_tools()
            assert [t.name for t in listed.tools] == ["read_file"]

    run(scenario)


def test_read_edit_refuse_a_stale_edit_patch_and_undo(tmp_path: Path) -> None:
    app = tmp_path / "src" / "app.py"
    app.parent.mkdir()
    app.write_bytes(b"def greet():\r\n    print('hi')\r\n")
    (tmp_path / "src" / "util.py").write_bytes(b"A = 1\nB = 2\n")
    (tmp_path / "old.txt").write_bytes(b"gone\n")

    async def scenario() -> None:
        async with server(tmp_path) as session:
            # Read, then edit: the CRLF file keeps its line endings.
            assert await ok(session, "read_file", {"path": "src/app.py"}) == (
                "     1\tdef greet():\n     2\t    print('hi')\n"
            )
            text = await ok(
                session,
                "apply_diff",
                {"path": "src/app.py", "diff": block("    print('hi')\n", "    print('hello')\n")},
            )
            assert "block 1: replaced line 2 (strategy: exact)" in text
            assert app.read_bytes() == b"def greet():\r\n    print('hello')\r\n"

            # The file changes behind the server's back: the next edit is refused, untouched.
            app.write_bytes(b"def greet():\r\n    print('HEY')\r\n")
            text = await refused(
                session,
                "apply_diff",
                {"path": "src/app.py", "diff": block("def greet():\n", "def welcome():\n")},
                "stale_file",
            )
            assert "read_file" in text
            assert app.read_bytes() == b"def greet():\r\n    print('HEY')\r\n"
            await ok(session, "read_file", {"path": "src/app.py"})
            await ok(
                session,
                "apply_diff",
                {"path": "src/app.py", "diff": block("def greet():\n", "def welcome():\n")},
            )
            assert app.read_bytes() == b"def welcome():\r\n    print('HEY')\r\n"

            # A multi-file patch: update, add, delete, move; all or none.
            patch = (
                "*** Begin Patch\n"
                "*** Update File: src/app.py\n"
                "@@ def welcome():\n"
                "-    print('HEY')\n"
                "+    print('hey')\n"
                "*** Add File: docs/notes.md\n"
                "+notes\n"
                "*** Delete File: old.txt\n"
                "*** Update File: src/util.py\n"
                "*** Move to: src/helpers.py\n"
                "@@\n"
                " A = 1\n"
                "-B = 2\n"
                "+B = 3\n"
                "*** End Patch\n"
            )
            failing = patch.replace("-B = 2\n", "-B = 9\n")
            await refused(session, "apply_patch", {"patch": failing}, "patch_context_not_found")
            assert app.read_bytes() == b"def welcome():\r\n    print('HEY')\r\n"
            assert (tmp_path / "old.txt").read_bytes() == b"gone\n"
            assert not (tmp_path / "docs").exists()

            text = await ok(session, "apply_patch", {"patch": patch})
            assert text.startswith("Patch applied: 4 files changed.")
            assert app.read_bytes() == b"def welcome():\r\n    print('hey')\r\n"
            assert (tmp_path / "docs" / "notes.md").read_bytes() == b"notes\n"
            assert not (tmp_path / "old.txt").exists()
            assert not (tmp_path / "src" / "util.py").exists()
            assert (tmp_path / "src" / "helpers.py").read_bytes() == b"A = 1\nB = 3\n"

            # Undo, file by file.
            await ok(session, "undo_edit", {"path": "src/app.py"})
            assert app.read_bytes() == b"def welcome():\r\n    print('HEY')\r\n"
            await ok(session, "undo_edit", {"path": "old.txt"})
            assert (tmp_path / "old.txt").read_bytes() == b"gone\n"
            await refused(session, "undo_edit", {"path": "README.md"}, "nothing_to_undo")

            # A lazy edit: merged where its unchanged lines are unique, or refused untouched.
            helpers = tmp_path / "src" / "helpers.py"
            await ok(session, "read_file", {"path": "src/helpers.py"})
            lazy = "# ... existing code ...\nB = 3\nC = 4\n"
            text = await ok(session, "apply_lazy", {"path": "src/helpers.py", "snippet": lazy})
            assert text.startswith("Merged the snippet into src/helpers.py")
            assert helpers.read_bytes() == b"A = 1\nB = 3\nC = 4\n"
            floating = "# ... existing code ...\nD = 5\n# ... existing code ...\n"
            await refused(
                session, "apply_lazy", {"path": "src/helpers.py", "snippet": floating}, "lazy_no_anchor"
            )
            assert helpers.read_bytes() == b"A = 1\nB = 3\nC = 4\n"

            # Paths stay inside the root.
            await refused(session, "read_file", {"path": "../outside.txt"}, "path_outside_root")

    run(scenario)


def test_the_text_editor_tool(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"alpha\r\nbeta\r\n")

    async def scenario() -> None:
        async with server(tmp_path) as session:
            tool = "str_replace_based_edit_tool"
            edit = {"command": "str_replace", "path": "a.txt", "old_str": "beta", "new_str": "BETA"}
            await refused(session, tool, edit, "not_read")
            view = await ok(session, tool, {"command": "view", "path": "a.txt"})
            assert "     1\talpha\n     2\tbeta" in view
            await ok(session, tool, edit)
            assert (tmp_path / "a.txt").read_bytes() == b"alpha\r\nBETA\r\n"
            await ok(session, tool, {"command": "undo_edit", "path": "a.txt"})
            assert (tmp_path / "a.txt").read_bytes() == b"alpha\r\nbeta\r\n"

    run(scenario)


def test_concurrent_requests_while_the_users_editor_saves(tmp_path: Path) -> None:
    """16 `apply_diff` requests at once (asyncio.gather over one session) while the user's editor
    saves 6 other lines 30 times by renaming a temporary file over the file: every edit lands
    (re-read and retried on `stale_file`, as a model would), and no save of the user's is lost."""
    import threading
    import time

    body = "".join(f"def f{i}(x):\n    return x * {i}\n\n" for i in range(240))
    path = tmp_path / "m.py"
    path.write_text(body)
    picks = [k * 15 + 3 for k in range(16)]
    user_lines = [k * 40 + 20 for k in range(6)]
    rounds = 30

    def line(i: int, who: str | None = None) -> str:
        return f"    return x * {i}\n" if who is None else f"    return x * {i}  # {who}\n"

    def user() -> None:
        temp = tmp_path / ".m.py.user"
        for r in range(rounds):
            prev = [line(i) if r == 0 else line(i, f"user {r - 1}") for i in user_lines]
            started = time.monotonic()
            while True:  # a commit's swap-back restores a save within microseconds
                seen = path.read_text()
                if all(p in seen for p in prev):
                    break
                assert time.monotonic() - started < 2, "a save of the user's was lost"
                time.sleep(0.001)
            for i, p in zip(user_lines, prev):
                seen = seen.replace(p, line(i, f"user {r}"))
            temp.write_text(seen)
            os.replace(temp, path)

    async def scenario() -> None:
        async with server(tmp_path) as session:
            await ok(session, "read_file", {"path": "m.py"})

            async def edit(i: int) -> None:
                diff = f"<<<<<<< SEARCH\n{line(i)}=======\n{line(i, 'agent')}>>>>>>> REPLACE\n"
                for _ in range(50):
                    result = await session.call_tool("apply_diff", {"path": "m.py", "diff": diff})
                    if not result.is_error:
                        return
                    code = (result.meta or {}).get("hunkloom/code")
                    assert code == "stale_file", text_of(result)
                    await ok(session, "read_file", {"path": "m.py"})
                raise AssertionError("no progress")

            saver = threading.Thread(target=user)
            saver.start()
            await asyncio.gather(*(edit(i) for i in picks))
            saver.join()

    run(scenario)
    after = path.read_text()
    for i in user_lines:
        assert line(i, f"user {rounds - 1}") in after, i
    print(f"parallel mcp agents + user saving: 16/16 edits answered ok, {rounds}/{rounds} user saves kept, lost: 0")
