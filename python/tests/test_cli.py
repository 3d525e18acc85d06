"""The ``hunkloom`` command of the Python package: the ``hunkloom`` script pip installs and
``python -m hunkloom``, both running the command through the extension (what ``uvx hunkloom``
and ``pipx run hunkloom`` start), including the MCP server driven by the official SDK."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from mcp import ClientSession, StdioServerParameters, stdio_client, types

import hunkloom

SCRIPT = Path(sys.executable).parent / "hunkloom"
FORMS = [[str(SCRIPT)], [sys.executable, "-m", "hunkloom"]]


def run(args: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=60, **kw)  # type: ignore[call-overload,no-any-return]


def test_version_and_help_in_both_forms() -> None:
    assert SCRIPT.is_file(), "pip installs the hunkloom script next to python"
    for form in FORMS:
        done = run([*form, "--version"])
        assert (done.returncode, done.stdout) == (0, f"hunkloom {hunkloom.__version__}\n"), done
        done = run([*form, "--help"])
        assert done.returncode == 0 and "mcp" in done.stdout and "apply" in done.stdout, done
        done = run([*form, "frobnicate"])
        assert done.returncode == 2 and "frobnicate" in done.stderr, done


def test_apply_through_the_script(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    diff = "------- SEARCH\n    return 1\n=======\n    return 2\n+++++++ REPLACE\n"
    done = run([str(SCRIPT), "apply", "--diff", "-", "a.py"], input=diff, cwd=tmp_path)
    assert done.returncode == 0, done
    assert (tmp_path / "a.py").read_text() == "def f():\n    return 2\n"
    missing = "------- SEARCH\n    return 9\n=======\n    return 3\n+++++++ REPLACE\n"
    done = run([str(SCRIPT), "apply", "--diff", "-", "a.py"], input=missing, cwd=tmp_path)
    assert done.returncode == 1 and "hunkloom:" in done.stderr, done
    assert (tmp_path / "a.py").read_text() == "def f():\n    return 2\n"


def test_the_mcp_server_through_the_script(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("x = 1\n")

    async def scenario() -> None:
        params = StdioServerParameters(command=str(SCRIPT), args=["mcp", "--root", str(tmp_path)])
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                assert init.server_info.name == "hunkloom"
                assert init.server_info.version == hunkloom.__version__
                names = {t.name for t in (await session.list_tools()).tools}
                assert {"read_file", "apply_diff", "apply_patch"} <= names
                seen = await session.call_tool("read_file", {"path": "app.py"})
                assert not seen.is_error
                diff = "<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
                edit = await session.call_tool("apply_diff", {"path": "app.py", "diff": diff})
                assert isinstance(edit, types.CallToolResult) and not edit.is_error

    asyncio.run(asyncio.wait_for(scenario(), timeout=60))
    assert (tmp_path / "app.py").read_text() == "x = 2\n"
