#!/usr/bin/env bash
# make test-dist: installs each release artifact of DIST the way a user installs it, in a clean
# environment (a new venv, a new npm project, an unpacked tarball) in a temporary directory
# outside the source tree, with no Rust toolchain on PATH, then runs the README's examples and
# the examples/ programs against it. Prints one line per check and `dist: N passed, M failed`.
#
# Usage: bash make/test-dist.sh DIST VERSION   (AUDITWHEEL=path/to/auditwheel)

set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
DIST=$(cd "$1" && pwd)
VERSION=$2
TRIPLE=x86_64-unknown-linux-gnu
PLATFORM=linux-x64-gnu
AUDITWHEEL=${AUDITWHEEL:-auditwheel}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/hunkloom-dist-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
passed=0
failed=0

# `check NAME COMMAND...`: runs COMMAND (output to $WORK/log/NAME), counts it, shows a failure.
mkdir -p "$WORK/log"
check() {
    local name=$1 log
    shift
    log="$WORK/log/${name//[^A-Za-z0-9_.-]/_}"
    if "$@" >"$log" 2>&1; then
        passed=$((passed + 1))
        echo "ok    $name"
    else
        failed=$((failed + 1))
        echo "FAIL  $name"
        sed 's/^/      /' "$log" | tail -40
    fi
}

# The ```LANG blocks of the README section titled TITLE (or of a whole file when TITLE is
# empty), written to DIR/PREFIX-N.EXT; prints how many.
extract() {
    local file=$1 title=$2 lang=$3 dir=$4 prefix=$5 ext=$6
    awk -v title="$title" -v lang="$lang" -v dir="$dir" -v prefix="$prefix" -v ext="$ext" '
        /^## / { in_section = (title == "" || $0 == "## " title) }
        (in_section || title == "") && $0 == "```" lang { n++; out = dir "/" prefix "-" n "." ext; printf "" > out; code = 1; next }
        code && /^```$/ { code = 0; close(out); next }
        code { print > out }
        END { print n + 0 }
    ' "$file"
}

# Whether FILE needs no glibc symbol version newer than 2.17 (manylinux2014).
glibc_2_17() {
    local newest
    newest=$(objdump -T "$1" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1)
    echo "newest glibc symbol version: $newest"
    [[ -n $newest && $(printf '%s\n' "$newest" 2.17 | sort -V | tail -n 1) == 2.17 ]]
}

# Whether FILE is stripped (no symbol table, no debug information) and smaller than 8 MB.
stripped() {
    ls -l "$1"
    # No symbol table or debug sections, and a size a stripped build has: the extension and the
    # addon carry the engine, the CLI with its MCP server, and the legacy-encoding tables
    # (encoding_rs, chardetng), about 8.2 MB; an unstripped build is several times larger.
    ! readelf -S "$1" | grep -E '\.symtab|\.debug_' && [[ $(stat -c %s "$1") -lt 10000000 ]]
}
export -f stripped

# No Rust: PATH without any directory holding cargo or rustc, and no cargo environment.
CLEAN_PATH=
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
    [[ -z $d || -e $d/cargo || -e $d/rustc || -e $d/rustup ]] && continue
    CLEAN_PATH=${CLEAN_PATH:+$CLEAN_PATH:}$d
done
no_rust() {
    env -u CARGO_HOME -u RUSTUP_HOME -u CARGO_TARGET_DIR -u VIRTUAL_ENV -u PYTHONPATH \
        -u NODE_PATH PATH="$CLEAN_PATH" "$@"
}
check "no Rust toolchain on the test PATH" no_rust bash -c '! command -v cargo && ! command -v rustc'
check "versions agree across the sources" python3 "$REPO/make/check_version.py"

# ---- Python: a fresh venv, the wheel from dist/ only, the README's examples from $WORK ----------
WHEEL=$(ls "$DIST"/hunkloom-"$VERSION"-*.whl)
check "wheel is abi3 for Python >= 3.9, tagged manylinux2014" \
    bash -c "[[ \$(basename '$WHEEL') == hunkloom-$VERSION-cp39-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl ]]"
check "auditwheel: the wheel is consistent with manylinux_2_17_x86_64" \
    bash -c "'$AUDITWHEEL' show '$WHEEL' | tr -s ' \n' ' ' | grep -q 'consistent with the following platform tag: \"manylinux_2_17_x86_64\"'"
check "sdist holds the workspace, the lock file and the package" \
    bash -c "tar tzf '$DIST/hunkloom-$VERSION.tar.gz' | grep -qx 'hunkloom-$VERSION/Cargo.lock' &&
             tar tzf '$DIST/hunkloom-$VERSION.tar.gz' | grep -qx 'hunkloom-$VERSION/crates/hunkloom/src/lib.rs' &&
             tar tzf '$DIST/hunkloom-$VERSION.tar.gz' | grep -qx 'hunkloom-$VERSION/hunkloom/__init__.py'"
mkdir -p "$WORK/python"
cd "$WORK/python" || exit 1
PY="$WORK/python/venv/bin/python"
check "pip install --no-index the wheel into a new venv" \
    no_rust bash -c "python3 -m venv venv && venv/bin/pip install -q --no-index --no-cache-dir --disable-pip-version-check '$WHEEL'"
check "hunkloom.__version__ is $VERSION, imported from the venv" \
    no_rust "$PY" -c "import hunkloom, sys; assert hunkloom.__version__ == '$VERSION', hunkloom.__version__; assert hunkloom.__file__.startswith(sys.prefix), hunkloom.__file__"
check "the extension is stripped, without the test builds' fault injection" \
    bash -c "stripped venv/lib/python*/site-packages/hunkloom/_native.abi3.so &&
        venv/bin/python -c \"import hunkloom; assert not hasattr(hunkloom.StreamingApplier, '_inject_panic')\""
n=$(extract "$REPO/README.md" Python python "$WORK/python" readme py)
m=$(extract "$REPO/python/README.md" "" python "$WORK/python" package-readme py)
for f in $(seq 1 "$n" | sed 's/^/readme-/') $(seq 1 "$m" | sed 's/^/package-readme-/'); do
    check "python $f.py (README example)" no_rust "$PY" "$f.py"
done
check "the wheel puts a hunkloom command on PATH; hunkloom --version and python -m hunkloom --version" \
    no_rust bash -c "[[ \$(venv/bin/hunkloom --version) == 'hunkloom $VERSION' &&
        \$(venv/bin/python -m hunkloom --version) == 'hunkloom $VERSION' ]]"
# The MCP server started as the README's configs start it, driven by the official SDK (from the
# dev venv, which has it): `uvx hunkloom mcp` (offline, from the wheel), and the installed script
# (`pipx run`'s form).
SMOKE="$REPO/.venv/bin/python $REPO/make/mcp_smoke.py $VERSION"
export UV_CACHE_DIR="$WORK/uv-cache" UV_TOOL_DIR="$WORK/uv-tools" UV_NO_CONFIG=1 UV_PYTHON_DOWNLOADS=never
check "uvx --from the wheel: hunkloom --version" \
    no_rust bash -c "[[ \$('$REPO/.venv/bin/uvx' --offline --from '$WHEEL' hunkloom --version) == 'hunkloom $VERSION' ]]"
check "uvx --from the wheel hunkloom mcp, driven by the MCP Python SDK" \
    no_rust $SMOKE -- "$REPO/.venv/bin/uvx" --offline --from "$WHEEL" hunkloom mcp
check "venv/bin/hunkloom mcp, driven by the MCP Python SDK" \
    no_rust $SMOKE -- "$WORK/python/venv/bin/hunkloom" mcp
check "python examples/python/edit_file.py" \
    no_rust bash -c "'$PY' '$REPO/examples/python/edit_file.py' | diff -u '$REPO/examples/expected.txt' -"

# ---- Node: a new npm project, the two tarballs installed offline, README examples as CJS and ESM
NODE_TGZ="$DIST/hunkloom-$VERSION.tgz"
PLATFORM_TGZ="$DIST/hunkloom-$PLATFORM-$VERSION.tgz"
mkdir -p "$WORK/node"
cd "$WORK/node" || exit 1
check "npm init -y; npm install --offline the two tarballs" \
    no_rust bash -c "npm init -y >/dev/null &&
        npm install --offline --no-audit --no-fund --loglevel=error '$PLATFORM_TGZ' '$NODE_TGZ'"
check "the main package holds no addon; the loader takes @hunkloom/$PLATFORM's" \
    no_rust bash -c "! ls node_modules/hunkloom/*.node 2>/dev/null && node -e \"require('hunkloom');
        const addons = Object.keys(require.cache).filter((k) => k.endsWith('.node'));
        if (addons.length !== 1 || !addons[0].includes('/node_modules/@hunkloom/$PLATFORM/')) throw new Error(addons)\""
check "the addon is stripped, without the test builds' fault injection" \
    bash -c "stripped node_modules/@hunkloom/$PLATFORM/hunkloom.$PLATFORM.node &&
        node -e \"if ('__testPanicNextConstruct' in require('hunkloom')) process.exit(1)\""
check "installed npm packages are version $VERSION" \
    no_rust node -e "for (const p of ['hunkloom', '@hunkloom/$PLATFORM']) { const v = require(p + '/package.json').version; if (v !== '$VERSION') throw new Error(p + ' ' + v) }"
n=$(extract "$REPO/README.md" "Node (TypeScript)" ts "$WORK/node" readme ts)
m=$(extract "$REPO/node/README.md" "" ts "$WORK/node" package-readme ts)
for f in "$WORK"/node/*readme-*.ts; do cp "$f" "${f%.ts}.mts"; done
# The compiler and Node's types are the ones make test-node installed (node/package.json's dev
# dependencies), not downloaded again; `hunkloom` resolves to the installed package.
cat >tsconfig.json <<EOF
{
  "compilerOptions": {
    "strict": true,
    "noUncheckedIndexedAccess": true,
    "module": "nodenext",
    "target": "es2022",
    "typeRoots": ["$REPO/node/node_modules/@types"],
    "types": ["node"],
    "outDir": "out"
  },
  "include": ["*.ts", "*.mts"]
}
EOF
check "tsc --strict --noUncheckedIndexedAccess: the README's Node examples against the installed types (CommonJS and ESM)" \
    no_rust node "$REPO/node/node_modules/typescript/bin/tsc" -p tsconfig.json
for f in $(seq 1 "$n" | sed 's/^/readme-/') $(seq 1 "$m" | sed 's/^/package-readme-/'); do
    check "node out/$f.js (README example, CommonJS require)" \
        no_rust bash -c "grep -q 'require(\"hunkloom\")' out/$f.js && node out/$f.js"
    check "node out/$f.mjs (README example, ESM import)" \
        no_rust bash -c "grep -q 'from \"hunkloom\"' out/$f.mjs && node out/$f.mjs"
done
check "node examples/node/edit_file.js" \
    no_rust bash -c "cp '$REPO/examples/node/edit_file.js' . && node edit_file.js | diff -u '$REPO/examples/expected.txt' -"
check "the addon needs glibc 2.17 at most" glibc_2_17 "node_modules/@hunkloom/$PLATFORM/hunkloom.$PLATFORM.node"
check "npx hunkloom --version (the package's bin)" \
    no_rust bash -c "[[ \$(npx --offline --no-install hunkloom --version) == 'hunkloom $VERSION' ]]"
check "npx hunkloom mcp, driven by the MCP Python SDK" \
    no_rust $SMOKE --cwd "$WORK/node" -- npx --offline --no-install hunkloom mcp

# ---- C: the tarball unpacked to a prefix; README's example built with pkg-config, valgrind ------
mkdir -p "$WORK/c"
cd "$WORK/c" || exit 1
C_PREFIX="$WORK/c/hunkloom-$VERSION-$TRIPLE"
export PKG_CONFIG_PATH="$C_PREFIX/lib/pkgconfig"
VALGRIND="valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible"
check "unpack $(basename "$C_PREFIX").tar.gz" tar xzf "$DIST/hunkloom-$VERSION-$TRIPLE.tar.gz"
ABI=$(readelf -d "$C_PREFIX/lib/libhunkloom.so.$VERSION" | sed -n 's/.*Library soname: \[libhunkloom\.so\.\(.*\)\]/\1/p')
check "readelf -d: SONAME libhunkloom.so.$ABI, and the links libhunkloom.so -> .so.$ABI -> .so.$VERSION" \
    bash -c "[[ -n '$ABI' && \$(readlink '$C_PREFIX/lib/libhunkloom.so') == libhunkloom.so.$ABI &&
              \$(readlink '$C_PREFIX/lib/libhunkloom.so.$ABI') == libhunkloom.so.$VERSION ]]"
check "the layout: lib/libhunkloom.a, include/hunkloom.h, lib/pkgconfig/hunkloom.pc" \
    test -f "$C_PREFIX/lib/libhunkloom.a" -a -f "$C_PREFIX/include/hunkloom.h" -a -f "$PKG_CONFIG_PATH/hunkloom.pc"
check "pkg-config: hunkloom $VERSION, paths under the unpacked prefix" \
    bash -c "[[ \$(pkg-config --modversion hunkloom) == $VERSION &&
              \$(pkg-config --variable=libdir hunkloom) -ef '$C_PREFIX/lib' ]]"
check "the library needs glibc 2.17 at most" glibc_2_17 "$C_PREFIX/lib/libhunkloom.so.$VERSION"
check "the library is stripped" stripped "$C_PREFIX/lib/libhunkloom.so.$VERSION"
check "bin/hunkloom --version" \
    no_rust bash -c "[[ \$('$C_PREFIX/bin/hunkloom' --version) == 'hunkloom $VERSION' ]]"
check "bin/hunkloom is stripped" stripped "$C_PREFIX/bin/hunkloom"
check "bin/hunkloom needs glibc 2.17 at most" glibc_2_17 "$C_PREFIX/bin/hunkloom"
check "bin/hunkloom mcp, driven by the MCP Python SDK" no_rust $SMOKE -- "$C_PREFIX/bin/hunkloom" mcp
extract "$REPO/README.md" C c "$WORK/c" readme c >/dev/null
LIBDIR=$(pkg-config --variable=libdir hunkloom)
# shellcheck disable=SC2046 # pkg-config's output is a list of flags.
check "cc readme-1.c \$(pkg-config --cflags --libs hunkloom), run under valgrind" \
    no_rust bash -c "cc -std=c11 -Wall -Wextra -Werror -pedantic readme-1.c \$(pkg-config --cflags --libs hunkloom) -Wl,-rpath,'$LIBDIR' -o readme &&
        readelf -d readme | grep -q 'NEEDED.*\[libhunkloom.so.$ABI\]' &&
        $VALGRIND ./readme | diff -u '$REPO/tests/c/readme_example.expected' -"
check "cc readme-1.c with libhunkloom.a (static), run under valgrind" \
    no_rust bash -c "cc -std=c11 -Wall -Wextra -Werror -pedantic readme-1.c \$(pkg-config --cflags hunkloom) '$LIBDIR/libhunkloom.a' \$(pkg-config --static --libs-only-l hunkloom | sed 's/-lhunkloom//') -o readme-static &&
        ! readelf -d readme-static | grep -q libhunkloom && $VALGRIND ./readme-static | diff -u '$REPO/tests/c/readme_example.expected' -"
check "hl_version() is $VERSION" \
    no_rust bash -c "printf '#include <hunkloom.h>\n#include <stdio.h>\nint main(void) { puts(hl_version()); return 0; }\n' > version.c &&
        cc version.c \$(pkg-config --cflags --libs hunkloom) -Wl,-rpath,'$LIBDIR' -o version && [[ \$(./version) == $VERSION ]]"
check "cc examples/c/edit_file.c, run under valgrind" \
    no_rust bash -c "cc -std=c11 -Wall -Wextra -Werror -pedantic '$REPO/examples/c/edit_file.c' \$(pkg-config --cflags --libs hunkloom) -Wl,-rpath,'$LIBDIR' -o edit_file &&
        $VALGRIND ./edit_file | diff -u '$REPO/examples/expected.txt' -"

# examples/README.md's command for each language, run as written in a directory holding the
# example, against the installed package (Python: the venv's python first on PATH; Node: the npm
# project's node_modules; C: the unpacked tarball through pkg-config).
row() { awk -F'|' -v lang="$1" '$2 == " " lang " " { gsub(/^ *`|` *$/, "", $4); print $4 }' "$REPO/examples/README.md"; }
mkdir -p "$WORK/rows"
cp "$REPO/examples/python/edit_file.py" "$REPO/examples/c/edit_file.c" "$WORK/rows/"
cp "$REPO/examples/node/edit_file.js" "$WORK/node/edit_file.js"
check "examples/README.md's Python command, as written" \
    no_rust bash -c "cd '$WORK/rows' && PATH='$WORK/python/venv/bin':\$PATH; $(row Python) | diff -u '$REPO/examples/expected.txt' -"
check "examples/README.md's Node command, as written" \
    no_rust bash -c "cd '$WORK/node' && $(row Node) | diff -u '$REPO/examples/expected.txt' -"
check "examples/README.md's C command, as written" \
    no_rust bash -c "cd '$WORK/rows' && $(row C) | diff -u '$REPO/examples/expected.txt' -"

echo "dist: $passed passed, $failed failed"
[[ $failed == 0 ]]
