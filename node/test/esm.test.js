'use strict'
// The package as ESM code imports it: `import { … } from "hunkloom"` must find every public
// export of the addon by name (Node detects a CommonJS module's named exports statically, so an
// export assigned in a loop would be missing), and those names must be the JavaScript layer's
// where it replaces the addon's.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { pathToFileURL } = require('node:url')

const hl = require('..')

/** The public exports the generated loader (index.js) lists. */
function addonExports() {
  const loader = fs.readFileSync(path.join(__dirname, '..', 'index.js'), 'utf8')
  return [...loader.matchAll(/^module\.exports\.(\w+) = nativeBinding\.\w+$/gm)].map((m) => m[1])
}

test('every public export of the addon is a named ESM export of the package', async () => {
  const names = addonExports()
  assert.ok(names.length >= 15, `found ${names.length} exports`)
  const esm = await import(pathToFileURL(require.resolve('..')).href)
  for (const name of names) {
    assert.equal(typeof esm[name], 'function', `import { ${name} } from "hunkloom"`)
    assert.equal(esm[name], hl[name], `${name} is the same under require and import`)
  }
  const publicKeys = Object.keys(hl).filter((k) => !k.startsWith('__'))
  assert.deepEqual(publicKeys.sort(), [...names].sort(), 'no export beyond the addon\'s public ones')
})

test('the streaming entry points and applyDiff are the JavaScript layer, not the addon\'s own', () => {
  const addon = require('../index.js')
  for (const name of ['constructNewFileContent', 'constructNewFileContentSync', 'resumeCacheStats', 'setResumeCacheCapacity', 'StreamingApplier', 'applyDiff']) {
    assert.notEqual(hl[name], addon[name], name)
  }
  assert.equal(hl.applyPatch, addon.applyPatch)
})

test('every value index.d.ts declares on the package exists on it', () => {
  const types = fs.readFileSync(path.join(__dirname, '..', 'index.d.ts'), 'utf8')
  const declared = [...types.matchAll(/^export declare (?:const|function|class) (\w+)/gm)].map((m) => m[1])
  assert.ok(declared.length >= 15, `found ${declared.length}`)
  for (const name of declared) assert.notEqual(hl[name], undefined, `require("hunkloom").${name} is declared but undefined`)
  assert.equal(hl.__napiBindingTarget, 'native')
})
