"""Memory: a call that needs more memory than the process may have raises ``MemoryError``
(``hunkloom.OutOfMemoryError``, code ``out_of_memory``) and the process goes on, instead of
being aborted by the allocator. Run in a child process whose address space is limited to what
it uses plus 128 MB."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CHILD = r"""
import resource, sys
import hunkloom

root = sys.argv[1]
status = open("/proc/self/status").read()
vm_kib = int(next(l for l in status.splitlines() if l.startswith("VmSize:")).split()[1])
limit = (vm_kib + 128 * 1024) * 1024
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
ws = hunkloom.Workspace(root, max_file_size=1 << 30)
try:
    ws.read("big.txt")
except MemoryError as error:
    assert isinstance(error, hunkloom.OutOfMemoryError), type(error)
    assert isinstance(error, hunkloom.HunkloomError)
    assert error.code == "out_of_memory", error.code
    print("raised:", error)
else:
    raise SystemExit("no MemoryError")
# The process goes on: a small file still reads, a diff still applies.
assert ws.read("small.txt") == "a\n"
print("went on")
"""


def test_a_file_beyond_the_memory_limit_raises_memory_error(tmp_path: Path) -> None:
    with open(tmp_path / "big.txt", "wb") as f:
        f.truncate(512 << 20)  # sparse: no disk used
    (tmp_path / "small.txt").write_text("a\n")
    run = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "raised: Out of memory: reading the file" in run.stdout, run.stdout
    assert "went on" in run.stdout
