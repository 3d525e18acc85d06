#!/usr/bin/env python3
"""Seed corpora from the conformance vectors: writes fuzz/seeds/<target>/<n> files, one per
vector input, for `make fuzz` and `make fuzz-long` to pass to libFuzzer as a second (read-only)
corpus directory. The targets decode their input with `arbitrary`, so a seed is the vector's
texts laid end to end: libFuzzer keeps what reaches new code and mutates from there.

Usage: python3 fuzz/seed.py  (from the repository root; standard library only)."""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "tests" / "vectors"
SEEDS = ROOT / "fuzz" / "seeds"
LIMIT = 300  # seeds per target: enough variety, small enough to start fast


def jsonl(name: str) -> list[dict]:
    path = VECTORS / name
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().split("\n") if line.strip()]


def texts(record: dict, keys: tuple[str, ...]) -> bytes:
    parts = []
    for k in keys:
        v = record.get(k)
        if isinstance(v, str):
            parts.append(v)
        elif isinstance(v, list):
            parts.append("\n".join(x for x in v if isinstance(x, str)))
        elif isinstance(v, dict):
            parts.append(json.dumps(v))
    return "\x00".join(parts).encode()


def write(target: str, seeds: list[bytes]) -> int:
    out = SEEDS / target
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for s in seeds[:LIMIT]:
        if s:
            (out / hashlib.sha1(s).hexdigest()).write_bytes(s)
            n += 1
    return n


def main() -> int:
    diffs = [texts(r, ("diff", "original")) for r in jsonl("robustness.jsonl")]
    diffs += [texts(r, ("diff", "original")) for r in jsonl("robustness-v2.jsonl")]
    cline = [texts(r, ("diff", "original")) for r in jsonl("cline-unit.jsonl")]
    cline += [texts(r, ("diff", "original")) for r in jsonl("cline-diff-differential.jsonl")[:200]]
    patches = [texts(r, ("lines", "patch", "files")) for r in jsonl("cline-apply-patch.jsonl")]
    for d in sorted((VECTORS / "patch" / "scenarios").glob("*/patch.txt")):
        patches.append(d.read_bytes())
    editor = []
    for name in sorted((VECTORS / "text-editor").glob("*.jsonl")):
        for r in jsonl(f"text-editor/{name.name}"):
            for call in r.get("calls", []):
                editor.append(json.dumps(call.get("input", {})).encode())
    ops = [texts(r, ("original", "content", "old", "new", "text")) for r in jsonl("cline-content-fixes.jsonl")]
    counts = {
        "native_apply": write("native_apply", diffs),
        "cline_stream": write("cline_stream", cline),
        "patch_plan": write("patch_plan", patches),
        "ops": write("ops", ops or diffs),
        "c_abi": write("c_abi", diffs[:150] + cline[:150]),
        "fs_ops": write("fs_ops", patches + diffs[:100]),
        "text_editor": write("text_editor", editor),
        "mcp": write("mcp", editor[:150] + patches[:150]),
    }
    for target, n in counts.items():
        print(f"seeds {target}: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
