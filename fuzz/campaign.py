#!/usr/bin/env python3
"""Totals the fuzzing campaign log (fuzz/campaign.log, one line per target and run, appended
by `make fuzz` and `make fuzz-long`) into the figures RELIABILITY.md and fuzz/README.md
quote: per target the inputs run, seconds, runs, the last corpus size and coverage, and the
crashes; then `total inputs fuzzed: N`. Numbers are printed with thousands separators.

Usage: python3 fuzz/campaign.py [--write | --check] [fuzz/campaign.log]

--write puts the table and the total between the `<!-- campaign:begin -->` and
`<!-- campaign:end -->` markers of fuzz/README.md and RELIABILITY.md; --check (in `make lint`)
fails if either shows other figures than the log."""

from __future__ import annotations

import sys
from collections import OrderedDict
from pathlib import Path


def parse(line: str) -> dict[str, str]:
    fields = {}
    for part in line.split():
        if "=" in part:
            k, v = part.split("=", 1)
            fields[k] = v
    return fields


def figures(path: Path) -> str:
    totals: "OrderedDict[str, dict[str, int]]" = OrderedDict()
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        f = parse(line)
        t = totals.setdefault(f["target"], {"inputs": 0, "seconds": 0, "runs": 0, "crashes": 0, "corpus": 0, "cov": 0})
        t["inputs"] += int(f.get("inputs", 0))
        t["seconds"] += int(f.get("seconds", 0))
        t["runs"] += 1
        t["crashes"] += int(f.get("crashes", 0))
        t["corpus"] = int(f.get("corpus", t["corpus"]))
        t["cov"] = max(t["cov"], int(f.get("cov", 0)))
    out = [
        "| target | inputs | seconds (budget) | runs | corpus (last) | coverage (cov, best) | crashes |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for target, t in totals.items():
        out.append(
            f"| {target} | {t['inputs']:,} | {t['seconds']:,} | {t['runs']:,} | {t['corpus']:,} | "
            f"{t['cov']:,} | {t['crashes']:,} |"
        )
    out.append("")
    out.append(f"total inputs fuzzed: {sum(t['inputs'] for t in totals.values()):,}")
    return "\n".join(out) + "\n"


BEGIN = "<!-- campaign:begin -->\n"
END = "<!-- campaign:end -->"
DOCS = ("fuzz/README.md", "RELIABILITY.md")


def with_figures(doc: str, table: str) -> str:
    start = doc.index(BEGIN) + len(BEGIN)
    return doc[:start] + "\n" + table + "\n" + doc[doc.index(END, start):]


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    mode = next((a for a in sys.argv[1:] if a.startswith("--")), "")
    here = Path(__file__).resolve().parent
    table = figures(Path(args[0]) if args else here / "campaign.log")
    if not mode:
        print(table, end="")
        return 0
    stale = []
    for name in DOCS:
        doc_path = here.parent / name
        doc = doc_path.read_text()
        fresh = with_figures(doc, table)
        if mode == "--write":
            doc_path.write_text(fresh)
        elif fresh != doc:
            stale.append(name)
    if stale:
        print(f"{', '.join(stale)}: the fuzzing figures differ from fuzz/campaign.log; run "
              "`python3 fuzz/campaign.py --write`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
