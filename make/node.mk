# Node: the npm package in node/ and its napi-rs addon in bindings/node/.
# The addon is built in release mode with the pinned @napi-rs/cli (node/package-lock.json); each
# build that writes the loader runs node/scripts/loader.js on it, which names the platform
# packages `@hunkloom/<platform>` (napi-rs would write `hunkloom-<platform>`).

NAPI_BUILD = npx napi build --platform --release --manifest-path ../bindings/node/Cargo.toml
# test-node and bench-node build here, so the generated loader and types can be compared with
# the committed ones without touching them (napi writes paths relative to the output directory).
NODE_GEN_CHECK = node_modules/.hunkloom-gen

.PHONY: test-node gen-node bench-node node-addon

# npm ci only when the lock file changed (npm writes node_modules/.package-lock.json).
node/node_modules/.package-lock.json: node/package-lock.json node/package.json
	cd node && npm ci --no-audit --no-fund

# The tested addon adds the `fault-injection` feature: the hidden `__injectPanic()` methods and
# the `__testPanicNextConstruct` export (not in index.d.ts), with which node/test/panic.test.js
# proves the panic boundary. gen-node and the package's `npm run build` leave them out.
node-addon: node/node_modules/.package-lock.json
	cd node && $(NAPI_BUILD) --output-dir $(NODE_GEN_CHECK) --features fault-injection -- --locked
	cd node && node scripts/loader.js $(NODE_GEN_CHECK)
	cp node/$(NODE_GEN_CHECK)/*.node node/

test-node: node-addon ## Node: build the addon, check generated files, node --test
	@cd node && for f in index.js index.d.ts; do \
	  cmp -s $(NODE_GEN_CHECK)/$$f $$f || { \
	    echo "node/$$f is not what the Rust sources generate: run 'make gen-node' and commit it"; \
	    diff -u $$f $(NODE_GEN_CHECK)/$$f | head -40; exit 1; }; \
	done
	cd node && node --expose-gc --test --test-concurrency=$(TEST_JOBS) test/*.test.js

gen-node: node/node_modules/.package-lock.json ## Regenerate node/index.js and node/index.d.ts
	cd node && $(NAPI_BUILD) --output-dir . -- --locked
	cd node && node scripts/loader.js .

bench-node: node-addon ## Node benchmark: S1-S5, the drop-in (Sync, Promise) and StreamingApplier vs a plain-JS stand-in, alternated; peak RSS; Roo applyDiff (class and sync) vs a plain-JS stand-in of Roo's class, 3 lines-2 MB
	cd node && node --expose-gc bench/bench.js
	cd node && node bench/roo.js
