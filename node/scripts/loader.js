'use strict'
// Adjusts the loader napi-rs generates (index.js): the platform packages are named
// `@hunkloom/<platform>` (e.g. `@hunkloom/linux-x64-gnu`), where napi-rs would name them
// `hunkloom-<platform>`. Run after every `napi build` that writes index.js (npm run build,
// make gen-node, make test-node); the result is what node/index.js commits.
//
// Usage: node scripts/loader.js DIR   (rewrites DIR/index.js in place)

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
