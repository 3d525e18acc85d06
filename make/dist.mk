# Release artifacts: what `pip install hunkloom`, `npm install hunkloom` and a C host get, built
# for this machine's platform (x86_64 Linux, glibc) into dist/, and tested as users install them.
#
# dist       the abi3 wheel (manylinux2014: glibc 2.17) and the sdist; the npm packages
#            `hunkloom` and `@hunkloom/linux-x64-gnu` as `npm pack` tarballs; the C tarball
#            hunkloom-<version>-x86_64-unknown-linux-gnu.tar.gz (make install's layout, plus
#            bin/hunkloom, the command). The wheel and the npm package carry the command too,
#            run through their extension (`hunkloom` script, `npx hunkloom`).
# install    the C library, header and pkg-config file under PREFIX (default /usr/local).
# test-dist  every artifact installed the way a user installs it, in a clean environment with no
#            Rust toolchain on PATH, outside the source tree (make/test-dist.sh).
#
# The artifacts are release builds, like the ones `make test` already tests, and share their
# compiled crates: only each binding crate is compiled again (without the test builds'
# fault-injection feature) and linked by zig against glibc 2.17 (.cargo/linker.sh), so the wheel,
# the addon and the library load on any glibc from 2.17 on. The release workflow
# (.github/workflows/release.yml) builds the other platforms with maturin's and napi-rs's actions.

DIST := dist
DIST_VERSION := $(C_VERSION)
DIST_TRIPLE := x86_64-unknown-linux-gnu
DIST_NODE_PLATFORM := linux-x64-gnu
DIST_STAGE := $(C_TARGET)/dist
DIST_C_NAME := hunkloom-$(DIST_VERSION)-$(DIST_TRIPLE)
# Links through maturin's zig front end (cargo-zigbuild's argument fixes) against glibc 2.17.
DIST_LINK := HUNKLOOM_LINK="$(VENV_BIN)/maturin zig cc -- -target x86_64-linux-gnu.2.17" \
    CARGO_ZIGBUILD_ZIG_COMMAND="$(VENV_BIN)/python3" CARGO_ZIGBUILD_ZIG_COMMAND_ARGS="-m ziglang"
PREFIX ?= /usr/local

.PHONY: dist dist-python dist-node dist-c install test-dist check-version lint-workflows

$(VENV)/.dist-installed: $(VENV)/.installed python/requirements-dist.txt
	$(VENV_BIN)/pip install -q --disable-pip-version-check -r python/requirements-dist.txt
	touch $@

dist: dist-python dist-node dist-c ## Release artifacts for this platform in dist/: wheel + sdist, npm tarballs, C tarball
	cd $(DIST) && sha256sum hunkloom*.whl hunkloom*.tar.gz hunkloom*.tgz > SHA256SUMS
	@ls -l $(DIST)

# Each binding crate's source is touched so that cargo links it again, through zig, even when an
# earlier build without HUNKLOOM_LINK left it up to date.
dist-python: $(VENV)/.dist-installed
	@mkdir -p $(DIST)
	rm -f $(DIST)/hunkloom-*.whl $(DIST)/hunkloom-$(DIST_VERSION).tar.gz
	touch bindings/python/src/lib.rs
	cd python && $(DIST_LINK) $(RELEASE_TARGET) PATH="$(VENV_BIN):$$PATH" maturin build --release --locked \
	    --compatibility manylinux2014 --interpreter $(VENV_BIN)/python --out $(abspath $(DIST))
	cd python && PATH="$(VENV_BIN):$$PATH" maturin sdist --out $(abspath $(DIST))

dist-node: $(VENV)/.dist-installed node/node_modules/.package-lock.json
	@mkdir -p $(DIST) $(DIST_STAGE)/node
	rm -f $(DIST)/hunkloom-*.tgz
	touch bindings/node/src/lib.rs
	cd node && $(DIST_LINK) $(NAPI_BUILD) --output-dir $(abspath $(DIST_STAGE))/node -- --locked
	@# The build without the test hooks (as `npm run build` makes it) must declare exactly what
	@# node/ commits, so a contributor's tree stays clean after building from source.
	node node/scripts/loader.js $(DIST_STAGE)/node
	@for f in index.js index.d.ts; do cmp -s $(DIST_STAGE)/node/$$f node/$$f || { \
	    echo "node/$$f differs from what a build without the test hooks generates:"; \
	    diff -u node/$$f $(DIST_STAGE)/node/$$f | head -40; exit 1; }; done
	node node/scripts/dist.js $(DIST) $(DIST_STAGE)/node/hunkloom.$(DIST_NODE_PLATFORM).node

dist-c: $(VENV)/.dist-installed
	@mkdir -p $(DIST)
	touch bindings/c/src/lib.rs crates/hunkloom-cli/src/main.rs
	$(DIST_LINK) $(RELEASE_TARGET) $(CARGO) build --release --locked -p hunkloom-c -p hunkloom-cli
	$(c_name_libs)
	rm -rf $(DIST_STAGE)/c && mkdir -p $(DIST_STAGE)/c
	$(call c_install,$(DIST_STAGE)/c/$(DIST_C_NAME))
	install -D -m 755 $(C_LIBDIR)/hunkloom $(DIST_STAGE)/c/$(DIST_C_NAME)/bin/hunkloom
	cp LICENSE $(DIST_STAGE)/c/$(DIST_C_NAME)/
	tar -C $(DIST_STAGE)/c --owner=0 --group=0 -czf $(DIST)/$(DIST_C_NAME).tar.gz $(DIST_C_NAME)

install: build-c ## C: install libhunkloom.so.<abi> (+ links), libhunkloom.a, hunkloom.h, hunkloom.pc under PREFIX
	$(call c_install,$(DESTDIR)$(PREFIX))

# The C layout under $(1): lib/libhunkloom.so.<version> with the SONAME link and the link-time
# name, lib/libhunkloom.a (debug information stripped), include/hunkloom.h, and
# lib/pkgconfig/hunkloom.pc with the relocatable prefix.
define c_install
	install -d $(1)/lib/pkgconfig $(1)/include
	install -m 755 $(C_LIBDIR)/libhunkloom.so $(1)/lib/libhunkloom.so.$(C_VERSION)
	ln -sf libhunkloom.so.$(C_VERSION) $(1)/lib/libhunkloom.so.$(C_ABI)
	ln -sf libhunkloom.so.$(C_ABI) $(1)/lib/libhunkloom.so
	install -m 644 $(C_LIBDIR)/libhunkloom.a $(1)/lib/libhunkloom.a
	strip --strip-debug $(1)/lib/libhunkloom.a
	install -m 644 include/hunkloom.h $(1)/include/hunkloom.h
	sed -e 's|@PREFIX@|$${pcfiledir}/../..|' -e 's|@LIBDIR@|$${prefix}/lib|' \
	    -e 's|@VERSION@|$(C_VERSION)|' -e 's|@STATIC_LIBS@|$(C_STATIC_LIBS)|' \
	    bindings/c/hunkloom.pc.in > $(1)/lib/pkgconfig/hunkloom.pc
endef

test-dist: check-version dist ## Install each artifact of dist/ as a user does (no Rust on PATH, outside the tree) and run the README's examples
	AUDITWHEEL=$(VENV_BIN)/auditwheel bash make/test-dist.sh $(DIST) $(DIST_VERSION)

check-version: ## One version everywhere: Cargo, pyproject, package.json(s), loader, header, CHANGELOG
	python3 make/check_version.py

lint-workflows: $(VENV)/.dist-installed ## actionlint on .github/workflows
	$(VENV_BIN)/actionlint -no-color
