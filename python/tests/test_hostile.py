"""Hostile files and inputs through the Python API: each raises a ``HunkloomError`` with a
stable ``code`` and leaves every file byte-identical, or succeeds; none hangs (each call runs
under a deadline), none crashes the interpreter. Prints ``hostile <input> python <op>: <code>``
lines, the Python rows of RELIABILITY.md's table (``pytest -s`` shows them)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

import pytest

import hunkloom

DIFF = "------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n"
DEADLINE = 30.0

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs, devices and chattr are POSIX")


def snapshot(root: Path) -> dict[str, object]:
    """Every entry under ``root``: bytes of small regular files, type and size of the rest."""
    out: dict[str, object] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st = os.lstat(p)
            if os.path.isfile(p) and not os.path.islink(p) and st.st_size <= 1 << 20:
                out[str(p)] = p.read_bytes()
            else:
                out[str(p)] = (st.st_mode, st.st_size, st.st_mtime_ns)
    return out


def bounded(what: str, f: Callable[[], object], deadline: float = DEADLINE) -> object:
    """``f()`` on a thread, failing the test if it outlives the deadline."""
    result: list[object] = []
    error: list[BaseException] = []

    def run() -> None:
        try:
            result.append(f())
        except BaseException as e:  # re-raised below, on the test's thread
            error.append(e)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(deadline)
    assert not t.is_alive(), f"{what}: still running after {deadline} s"
    if error:
        raise error[0]
    return result[0] if result else None


def code_of(what: str, f: Callable[[], object]) -> str:
    try:
        bounded(what, f)
        return "ok"
    except hunkloom.HunkloomError as e:
        return e.code


def every_op(root: Path, name: str, label: str) -> dict[str, str]:
    """The code of each Workspace op on ``name`` (reading first where the op needs it), with
    the tree byte-identical after every refusal."""

    def read_then(op: Callable[[hunkloom.Workspace], object]) -> Callable[[hunkloom.Workspace], object]:
        def run(ws: hunkloom.Workspace) -> object:
            try:
                ws.read(name)
            except hunkloom.HunkloomError:
                pass
            return op(ws)

        return run

    patch = f"*** Begin Patch\n*** Update File: {name}\n@@\n-x\n+y\n*** End Patch\n"
    ops: dict[str, Callable[[hunkloom.Workspace], object]] = {
        "read": lambda ws: ws.read(name),
        "str_replace": read_then(lambda ws: ws.str_replace(name, "x", "y")),
        "apply_diff": read_then(lambda ws: ws.apply_diff(name, DIFF)),
        "write": read_then(lambda ws: ws.write(name, "new\n")),
        "apply_patch": lambda ws: ws.apply_patch(patch),
        "undo": lambda ws: ws.undo(name),
    }
    codes = {}
    for op, f in ops.items():
        before = snapshot(root)
        c = code_of(f"{label} {op}", lambda: f(hunkloom.Workspace(root)))
        if c != "ok":
            assert snapshot(root) == before, f"{label} {op} ({c}) changed files"
        done = "files unchanged" if c != "ok" else "read" if op == "read" else "applied"
        print(f"hostile {label} python {op}: {c}, {done}")
        codes[op] = c
    return codes


def refused(codes: dict[str, str], *allowed: str) -> None:
    for op, c in codes.items():
        assert c in allowed or (op == "undo" and c == "nothing_to_undo"), (op, c)


def sh(*args: str) -> bool:
    exe = shutil.which(args[0])
    return exe is not None and subprocess.run([exe, *args[1:]], capture_output=True).returncode == 0


def test_fifo_device_directory_symlink_loop(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "sub").mkdir()
    os.symlink("loop2", tmp_path / "loop1")
    os.symlink("loop1", tmp_path / "loop2")
    refused(every_op(tmp_path, "fifo", "fifo"), "io_error")
    refused(every_op(tmp_path, "sub", "directory"), "io_error")
    refused(every_op(tmp_path, "loop1", "symlink-loop"), "io_error")
    if sh("mknod", str(tmp_path / "null"), "c", "1", "3"):
        refused(every_op(tmp_path, "null", "device"), "io_error")
    else:
        print("hostile device python: skipped (mknod needs root)")


def test_empty_sparse_and_non_utf8(tmp_path: Path) -> None:
    (tmp_path / "empty").write_bytes(b"")
    codes = every_op(tmp_path, "empty", "0-byte")
    assert codes["read"] == "ok" and codes["write"] == "ok"
    with open(tmp_path / "sparse", "wb") as f:
        f.truncate(2 << 30)
    start = time.monotonic()
    refused(every_op(tmp_path, "sparse", "sparse-2GiB"), "file_too_large")
    assert time.monotonic() - start < 10
    (tmp_path / "binary.txt").write_bytes(b"caf\xe9\0 x\n")
    refused(every_op(tmp_path, "binary.txt", "invalid-UTF-8-binary-content"), "unsupported_encoding")


def test_immutable_file(tmp_path: Path) -> None:
    target = tmp_path / "a.txt"
    target.write_bytes(b"x\n")
    if not sh("chattr", "+i", str(target)):
        pytest.skip("chattr +i is not supported here (permission bits do not stop root)")
    try:
        codes = every_op(tmp_path, "a.txt", "immutable-file")
    finally:
        assert sh("chattr", "-i", str(target))
    assert codes.pop("read") == "ok"
    refused(codes, "io_error")


def test_names_and_texts_with_odd_bytes(tmp_path: Path) -> None:
    # A file name that is not UTF-8, as Python spells it (surrogateescape).
    name = os.fsdecode(b"bad-\xff.txt")
    (tmp_path / name).write_bytes(b"x\n")
    ws = hunkloom.Workspace(tmp_path)
    ws.read(name)
    ws.str_replace(name, "x", "y")
    assert (tmp_path / name).read_bytes() == b"y\n"
    print("hostile non-UTF-8-name python str_replace: ok, applied")
    before = snapshot(tmp_path)
    # A text that cannot be UTF-8 (a lone surrogate, as json.loads makes from "\\udcff") is
    # refused with a stable code before anything is done, by every entry point that takes text.
    diff = "------- SEARCH\ny\n=======\n\udcff\n+++++++ REPLACE\n"
    calls: dict[str, Callable[[], object]] = {
        "Workspace.str_replace": lambda: ws.str_replace(name, "y", "\udcff"),
        "Workspace.write": lambda: ws.write(name, "\udcff"),
        "Workspace.apply_diff": lambda: ws.apply_diff(name, diff),
        "Workspace.apply_patch": lambda: ws.apply_patch(f"*** Begin Patch\n*** Add File: n.txt\n+\udcff\n*** End Patch"),
        "apply_diff": lambda: hunkloom.apply_diff(diff, "y\n"),
        "construct_new_file_content": lambda: hunkloom.construct_new_file_content(diff, "y\n"),
        "str_replace": lambda: hunkloom.str_replace("y\n", "y", "\udcff"),
        "apply_patch": lambda: hunkloom.apply_patch("*** Begin Patch\n*** End Patch", {"\udcff": "y"}),
        "apply_v4a": lambda: hunkloom.apply_v4a("y\n", "-y\n+\udcff\n"),
        "apply_lazy": lambda: hunkloom.apply_lazy("\udcff", "y\n", lang="python"),
        "StreamingApplier.push": lambda: hunkloom.StreamingApplier("y\n").push(diff),
    }
    for entry, call in calls.items():
        with pytest.raises(hunkloom.UnsupportedFileError) as err:
            call()
        assert err.value.code == "unsupported_encoding", entry
        assert "lone surrogate, U+DCFF" in str(err.value), (entry, str(err.value))
    editor = hunkloom.TextEditor(tmp_path)
    with pytest.raises(hunkloom.InvalidOptionError) as refused:
        editor.call({"command": "create", "path": str(tmp_path / "s.txt"), "file_text": "\udcff"})
    assert refused.value.code == "invalid_input" and "lone surrogate" in str(refused.value)
    print("hostile invalid-UTF-8-diff python apply_diff: unsupported_encoding, files unchanged")
    # A NUL in a path: a clear refusal, before any system call.
    with pytest.raises((hunkloom.HunkloomError, ValueError)) as nul:
        ws.read("a\0b")
    print(f"hostile NUL-in-path python read: {getattr(nul.value, 'code', type(nul.value).__name__)}, files unchanged")
    assert snapshot(tmp_path) == before
    # NUL bytes in text are text.
    (tmp_path / "nul.txt").write_bytes(b"a\0b\n")
    ws.read("nul.txt")
    ws.str_replace("nul.txt", "a\0b", "c\0d")
    assert (tmp_path / "nul.txt").read_bytes() == b"c\0d\n"
    print("hostile NUL-in-content python str_replace: ok, applied")


def test_a_file_growing_while_edited(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    log.write_bytes(b"x\n")
    stop = threading.Event()

    def append() -> None:
        # Bounded, so the test's cost and disk use do not depend on the machine's speed: bursts
        # with a pause between them, and at most 100,000 lines (about 1.3 MB) in all.
        with open(log, "ab") as f:
            n = 0
            while not stop.is_set() and n < 100_000:
                f.write(b"line %d\n" % n)
                f.flush()
                n += 1
                if n % 64 == 0:
                    time.sleep(0.0002)

    writer = threading.Thread(target=append)
    writer.start()
    codes: dict[str, int] = {}
    try:
        for _ in range(30):
            def edit() -> object:
                ws = hunkloom.Workspace(tmp_path)
                assert ws.read("log.txt").startswith("x\n")
                return ws.str_replace("log.txt", "x\n", "X\n")

            c = code_of("growing", edit)
            codes[c] = codes.get(c, 0) + 1
            data = log.read_bytes()
            if c == "ok":
                assert data.startswith(b"X\n")
            log.write_bytes(b"x\n" + data[2:])
    finally:
        stop.set()
        writer.join()
    print(f"hostile growing-file python str_replace: {codes} over 30 rounds")
    assert set(codes) <= {"ok", "stale_file"}


def test_100_mb_single_line(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"a" * (100 << 20) + b"END")
    start = time.monotonic()

    def edit() -> None:
        ws = hunkloom.Workspace(tmp_path)
        ws.read("big.txt")
        ws.str_replace("big.txt", "aEND", "aFIN")

    bounded("100 MB line", edit)
    took = time.monotonic() - start
    assert big.stat().st_size == (100 << 20) + 3
    with open(big, "rb") as f:
        f.seek(-4, os.SEEK_END)
        assert f.read() == b"aFIN"
    print(f"hostile 100MB-line python str_replace: ok, applied in {took:.1f} s")


def test_a_million_blocks_in_one_diff(tmp_path: Path) -> None:
    n = 1_000_000
    original = "".join(f"let v{i} = f({i});\n" for i in range(n))
    diff = "".join(
        f"------- SEARCH\nlet v{i} = f({i});\n=======\nlet v{i} = g({i});\n+++++++ REPLACE\n" for i in range(n)
    )
    (tmp_path / "m.rs").write_text(original)
    start = time.monotonic()
    cpu = time.process_time()

    def edit() -> None:
        ws = hunkloom.Workspace(tmp_path)
        ws.read("m.rs")
        ws.apply_diff("m.rs", diff)

    # (About 5 s of CPU; the deadline leaves room for a machine shared with other builds.)
    bounded("10^6 blocks", edit, deadline=180.0)
    took, cpu = time.monotonic() - start, time.process_time() - cpu
    assert (tmp_path / "m.rs").read_text() == original.replace("= f(", "= g(")
    print(f"hostile 10^6-blocks python apply_diff: ok, applied in {took:.1f} s ({cpu:.1f} s CPU)")

