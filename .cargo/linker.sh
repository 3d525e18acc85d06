#!/bin/sh
# The linker of x86_64-unknown-linux-gnu builds (see config.toml). With HUNKLOOM_LINK unset it is
# the system's `cc`, Rust's default. make/dist.mk sets HUNKLOOM_LINK to maturin's zig front end
# (`maturin zig cc -- -target x86_64-linux-gnu.2.17`), so the wheel, the Node addon and the C
# library it packs need nothing newer than glibc 2.17 (manylinux2014).
if [ -n "${HUNKLOOM_LINK:-}" ]; then
    # shellcheck disable=SC2086 # HUNKLOOM_LINK is a command with arguments.
    exec $HUNKLOOM_LINK "$@"
fi
exec cc "$@"
