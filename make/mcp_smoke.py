"""Starts an MCP server with the command after ``--`` (plus ``--root ROOT``), as an agent host's
config starts it, and drives it with the official MCP Python SDK: initialize (the server's
version must be VERSION), list the tools, read a file and edit it. Exit status 0 when all of
it worked. Used by make/test-dist.sh for each way the README's configs start the server.

Usage: python make/mcp_smoke.py VERSION [--cwd DIR] -- COMMAND [ARG ...]
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

from mcp import ClientSession, StdioServerParameters, stdio_client, types


async def drive(command: list[str], version: str, cwd: str | None) -> None:
    root = Path(tempfile.mkdtemp(prefix="hunkloom-mcp-smoke-"))
    (root / "app.py").write_text("def greet():\n    print('hi')\n")
    params = StdioServerParameters(
        command=command[0],
        args=[*command[1:], "--root", str(root)],
        env={**os.environ, "HUNKLOOM_LOG": "warn"},
        cwd=cwd,
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.server_info.name == "hunkloom", init.server_info
            assert init.server_info.version == version, init.server_info
            names = {t.name for t in (await session.list_tools()).tools}
            assert {"read_file", "apply_diff", "apply_lazy", "apply_patch", "undo_edit"} <= names, names
            read = await session.call_tool("read_file", {"path": "app.py"})
            assert not read.is_error, read
            diff = "<<<<<<< SEARCH\n    print('hi')\n=======\n    print('hello')\n>>>>>>> REPLACE\n"
            edit = await session.call_tool("apply_diff", {"path": "app.py", "diff": diff})
            assert isinstance(edit, types.CallToolResult) and not edit.is_error, edit
    assert (root / "app.py").read_text() == "def greet():\n    print('hello')\n"
    print(f"{' '.join(command)}: initialize, tools/list, read_file, apply_diff: ok")


def main() -> None:
    args = sys.argv[1:]
    version, rest = args[0], args[1:]
    cwd = None
    if rest[:1] == ["--cwd"]:
        cwd, rest = rest[1], rest[2:]
    assert rest[:1] == ["--"], "usage: mcp_smoke.py VERSION [--cwd DIR] -- COMMAND [ARG ...]"
    asyncio.run(asyncio.wait_for(drive(rest[1:], version, cwd), timeout=120))


if __name__ == "__main__":
    main()
