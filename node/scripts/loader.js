'use strict'
// Adjusts the loader napi-rs generates (index.js): the platform packages are named
// `@hunkloom/<platform>` (e.g. `@hunkloom/linux-x64-gnu`), where napi-rs would name them
// `hunkloom-<platform>`. Run after every `napi build` that writes index.js (npm run build,
// make gen-node, make test-node); the result is what node/index.js commits.
//
// It also drops the blank lines napi-rs leaves in index.d.ts where an `impl` block has only
// hidden (test-build) methods, so the declarations are the same whether the addon was built
// with the test hooks (make test-node) or without (npm run build, make gen-node): a contributor
// following the README keeps a clean tree.
//
// Usage: node scripts/loader.js DIR   (rewrites DIR/index.js and DIR/index.d.ts in place)

const fs = require('node:fs')
const path = require('node:path')

const file = path.join(process.argv[2] || '.', 'index.js')
const text = fs.readFileSync(file, 'utf8')
const adjusted = text.replace(/'hunkloom-(?=[a-z0-9-]+(?:\/package\.json)?')/g, "'@hunkloom/")
if (adjusted === text && !text.includes("'@hunkloom/")) {
  console.error(`${file}: no platform package name to adjust; has napi-rs changed its loader?`)
  process.exit(1)
}
fs.writeFileSync(file, adjusted)

const types = path.join(process.argv[2] || '.', 'index.d.ts')
if (fs.existsSync(types)) {
  const declared = fs.readFileSync(types, 'utf8')
  fs.writeFileSync(types, declared.replace(/\n(?:[ \t]*\n)+(?=[ \t]*\}\n)/g, '\n'))
}
