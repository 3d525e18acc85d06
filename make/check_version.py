"""One version everywhere: every place that states hunkloom's version must state the workspace's.

Run by `make check-version` (part of `make test-dist`). The runtime versions (`hl_version()`,
`hunkloom.__version__`, the installed npm packages) are checked by make/test-dist.sh on the
installed artifacts.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    cargo = tomllib.loads((ROOT / "Cargo.toml").read_text())
    version = cargo["workspace"]["package"]["version"]
    found: list[tuple[str, str | None]] = []

    for name, dep in cargo["workspace"]["dependencies"].items():
        if name.startswith("hunkloom") and isinstance(dep, dict) and "version" in dep:
            found.append((f"Cargo.toml [workspace.dependencies] {name}", dep["version"]))
    for member in cargo["workspace"]["members"]:
        package = tomllib.loads((ROOT / member / "Cargo.toml").read_text())["package"]
        stated = package.get("version")
        found.append((f"{member}/Cargo.toml", version if stated == {"workspace": True} else stated))

    project = tomllib.loads((ROOT / "python" / "pyproject.toml").read_text())["project"]
    # maturin takes a dynamic version from the binding crate, i.e. the workspace.
    found.append(
        (
            "python/pyproject.toml",
            version if "version" in project.get("dynamic", []) else project.get("version"),
        )
    )

    for path in [ROOT / "node" / "package.json", *sorted((ROOT / "node" / "npm").glob("*/package.json"))]:
        found.append((str(path.relative_to(ROOT)), json.loads(path.read_text())["version"]))
    lock = json.loads((ROOT / "node" / "package-lock.json").read_text())
    found.append(("node/package-lock.json", lock["version"]))
    found.append(("node/package-lock.json (root package)", lock["packages"][""]["version"]))

    loader = (ROOT / "node" / "index.js").read_text()
    checks = re.findall(r"bindingPackageVersion !== '([^']*)'", loader)
    found.append(("node/index.js (platform package check)", checks[0] if checks else None))
    found += [("node/index.js (platform package check)", v) for v in checks[1:] if v != checks[0]]

    header = (ROOT / "include" / "hunkloom.h").read_text()
    parts = [re.search(rf"#define HL_VERSION_{p} (\d+)", header) for p in ("MAJOR", "MINOR", "PATCH")]
    found.append(("include/hunkloom.h", ".".join(m.group(1) for m in parts) if all(parts) else None))

    changelog = (ROOT / "CHANGELOG.md").read_text()
    heading = re.search(r"^## (\S+)", changelog, re.M)
    found.append(("CHANGELOG.md (latest entry)", heading.group(1) if heading else None))

    wrong = [(where, stated) for where, stated in found if stated != version]
    for where, stated in wrong:
        print(f"{where}: version {stated!r}, but the workspace's is {version!r}")
    print(f"check-version {version}: {len(found) - len(wrong)} passed, {len(wrong)} failed")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
