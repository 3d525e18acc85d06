# c targets: owned by the c binding (bindings/c, include/hunkloom.h, tests/c).
#
# build-c  builds libhunkloom.{so,a} (never touching include/hunkloom.h).
# gen-c    regenerates include/hunkloom.h (bindings/c/header runs cbindgen).
# test-c   checks the committed header is current and compiles as C11 and C++17, runs the C
#          programs of tests/c and the README's C example under valgrind (shared library, and
#          static for one), then every C program again compiled with AddressSanitizer and
#          UndefinedBehaviorSanitizer and linked against the static library (c-sanitize), then
#          every conformance vector and the robustness corpus through the extern "C" functions.

# Follows CARGO_TARGET_DIR when it is set (a relative one is taken from the repository root).
C_TARGET := $(or $(CARGO_TARGET_DIR),target)
C_LIBDIR := $(RELEASE_DIR)
C_OUT := $(C_TARGET)/c
C_CC := gcc
C_CXX := g++
C_WARN := -std=c11 -Wall -Wextra -Werror -pedantic -g
C_CFLAGS := $(C_WARN) -Iinclude
# What the static library needs, from
# `cargo rustc -p hunkloom-c --release --crate-type staticlib -- --print native-static-libs`.
C_STATIC_LIBS := -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
C_SHARED := -L$(C_LIBDIR) -lhunkloom -Wl,-rpath,$(abspath $(C_LIBDIR))
C_VALGRIND := valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible
C_VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
# The library's SONAME is libhunkloom.so.$(C_ABI) (bindings/c/build.rs): the major version, or
# 0.<minor> before 1.0.
C_ABI := $(shell echo $(C_VERSION) | awk -F. '{ print ($$1 == "0") ? "0." $$2 : $$1 }')
C_PKG_CONFIG := PKG_CONFIG_PATH=$(abspath $(C_LIBDIR)) pkg-config
C_TESTS := test_errors test_stream_bytes test_ops test_native test_roo test_workspace \
    test_text_editor test_v4a test_lazy test_hostile test_udiff test_threads test_aider \
    test_native_patch test_edit_stream
# The sanitizer build: the C side instrumented (the Rust library is not: its memory is checked
# by the compiler), every error fatal, leaks reported at exit.
C_SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
C_SANITIZE_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# Cargo names the library after its crate (libhunkloom_c.{so,a}); it is used and installed as
# libhunkloom (run after each release build of hunkloom-c).
define c_name_libs
	cp -f $(C_LIBDIR)/libhunkloom_c.so $(C_LIBDIR)/libhunkloom.so
	cp -f $(C_LIBDIR)/libhunkloom_c.a $(C_LIBDIR)/libhunkloom.a
endef

.PHONY: build-c gen-c test-c test-c-programs c-header-check c-programs c-static c-sanitize c-vectors

build-c: ## C: build libhunkloom.{so,a} and hunkloom.pc in target/<host>/release
	$(RELEASE_TARGET) $(CARGO) build --release --locked -p hunkloom-c
	$(c_name_libs)
	ln -sf libhunkloom.so $(C_LIBDIR)/libhunkloom.so.$(C_ABI)
	sed -e 's|@PREFIX@|$(CURDIR)|' -e 's|@LIBDIR@|$(abspath $(C_LIBDIR))|' \
	    -e 's|@VERSION@|$(C_VERSION)|' -e 's|@STATIC_LIBS@|$(C_STATIC_LIBS)|' \
	    bindings/c/hunkloom.pc.in > $(C_LIBDIR)/hunkloom.pc

# The header generator runs in the dev profile: test-rust has already built its dependencies
# there (a release build of cbindgen would take a minute more), and its output is the same.
gen-c: ## Regenerate include/hunkloom.h
	$(CARGO) run --locked -q -p hunkloom-c-header -- include/hunkloom.h

test-c: c-header-check c-programs c-sanitize c-vectors ## C: header current, C tests under valgrind and ASan+UBSan, vectors through the C ABI

test-c-programs: c-header-check c-programs c-sanitize ## C: test-c without the vectors through the C ABI (make test runs those in test-rust)

# The header generated from the sources must equal the committed one, and compile as C and C++.
c-header-check: build-c
	@mkdir -p $(C_OUT)
	$(CARGO) run --locked -q -p hunkloom-c-header -- $(C_OUT)/hunkloom.h
	@git ls-files --error-unmatch include/hunkloom.h >/dev/null 2>&1 || \
	    { echo "include/hunkloom.h is not committed (git add it)"; exit 1; }
	@diff -u include/hunkloom.h $(C_OUT)/hunkloom.h || \
	    { echo "include/hunkloom.h is stale: run 'make gen-c' and commit it"; exit 1; }
	printf '#include "hunkloom.h"\n' | $(C_CC) $(C_CFLAGS) -x c -fsyntax-only -
	@mkdir -p $(C_OUT)
	printf '#include "hunkloom.h"\nint main() { return hl_version()[0] == 0; }\n' | \
	    $(C_CXX) -std=c++17 -Wall -Wextra -Werror -pedantic -Iinclude -x c++ - $(C_SHARED) -o $(C_OUT)/cxx_smoke
	$(C_OUT)/cxx_smoke

# The README's C example is extracted from the `## C` section, so it cannot drift. The programs
# run $(TEST_JOBS) at a time (each under valgrind, single-threaded); each one's output is kept
# together.
c-programs: build-c
	@mkdir -p $(C_OUT)
	awk '/^## /{s=($$0=="## C")} s&&/^```c$$/{c=1;n++;next} c&&/^```$$/{c=0} c&&n==1' README.md > $(C_OUT)/readme_example.c
	@test -s $(C_OUT)/readme_example.c || { echo "no C example in README.md's ## C section"; exit 1; }
	$(C_CC) $(C_WARN) $(C_OUT)/readme_example.c $$($(C_PKG_CONFIG) --cflags --libs hunkloom) \
	    -Wl,-rpath,$(abspath $(C_LIBDIR)) -o $(C_OUT)/readme_example
	$(C_VALGRIND) $(C_OUT)/readme_example > $(C_OUT)/readme_example.out
	diff -u tests/c/readme_example.expected $(C_OUT)/readme_example.out
	$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target $(addprefix c-valgrind-,$(C_TESTS)) c-static
	@# (test_hostile's 100 MB and 10^6-block inputs run once natively here: under valgrind or
	@# ASan's allocator they take minutes.)
	$(C_OUT)/test_hostile

# One C program against the shared library, under valgrind.
c-valgrind-%:
	$(C_CC) $(C_CFLAGS) tests/c/$*.c $(C_SHARED) -o $(C_OUT)/$*
	HUNKLOOM_SKIP_BIG=1 $(C_VALGRIND) $(C_OUT)/$*

# One program linked against the static library.
c-static:
	$(C_CC) $(C_CFLAGS) tests/c/test_stream_bytes.c $(C_LIBDIR)/libhunkloom.a $(C_STATIC_LIBS) \
	    -o $(C_OUT)/test_stream_bytes_static
	$(C_VALGRIND) $(C_OUT)/test_stream_bytes_static

# Every C program compiled with ASan and UBSan and linked against the static library; each
# prints its `N passed, M failed` line, and any sanitizer report aborts the run.
c-sanitize: build-c
	@mkdir -p $(C_OUT)
	$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target $(addprefix c-asan-,$(C_TESTS))

c-asan-%:
	$(C_CC) $(C_CFLAGS) $(C_SANITIZE) tests/c/$*.c $(C_LIBDIR)/libhunkloom.a $(C_STATIC_LIBS) -o $(C_OUT)/$*-asan
	HUNKLOOM_SKIP_BIG=1 $(C_SANITIZE_ENV) $(C_OUT)/$*-asan

# Every vector through the extern "C" functions, printing `<corpus> <mode>: N/M passed`, and the
# robustness corpora (v1 and v2) in `native`, printing `robustness <category>: N/M correct, W wrong`
# and `robustness-v2 <mode>: P/T correct, R refused, W wrong`.
c-vectors:
	$(CARGO) test --locked -p hunkloom-c -- --nocapture
