'use strict'
// The panic boundary: a Rust panic inside hunkloom (a bug) must become an `Error` with
// `code === "internal_error"` (the core's code, the same in every binding) instead of aborting
// the Node process, and a panic during a call on an applier or a workspace must retire that
// object (never leave it usable half-updated) while other objects go on. The panics are
// injected with the hidden hooks of the `fault-injection` feature, which `make test-node`
// builds: `__injectPanic()` on appliers and workspaces (the shared handle's hook) and
// `__testPanicNextConstruct` (bindings/node/src/test_hooks.rs).

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const hl = require('..')

const hooked = typeof hl.__testPanicNextConstruct === 'function'
const skip = hooked ? false : 'the addon was built without the fault-injection feature (use make test-node)'

const original = 'a\nb\nc\n'
const diff = '------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n'
const isPanic = (err) =>
  err instanceof Error && err.code === 'internal_error' && /internal error in hunkloom/.test(err.message)
const isRetired = (err) => isPanic(err) && /earlier call/.test(err.message)

test('the test hooks are hidden from the typings', () => {
  const dts = fs.readFileSync(require.resolve('../index.d.ts'), 'utf8')
  assert.doesNotMatch(dts, /__testPanic|__injectPanic/)
})

test('a panic in push throws, retires that applier only, and the process survives', { skip }, () => {
  for (const dialect of ['cline-v1', 'cline-v2', 'native']) {
    const retired = new hl.StreamingApplier(original, { dialect })
    const healthy = new hl.StreamingApplier(original, { dialect })
    retired.push('------- SEARCH\n')
    healthy.push('------- SEARCH\n')

    retired.__injectPanic()
    assert.throws(() => retired.push('b\n'), (e) => isPanic(e) && /this applier stopped/.test(e.message))

    // Retired: every method and getter throws the same code, never a half-updated state.
    assert.throws(() => retired.push('b\n'), isRetired)
    for (const getter of ['preview', 'error', 'matchIndices', 'blocksCompleted', 'dialect']) {
      assert.throws(() => retired[getter], isRetired, getter)
    }
    assert.throws(() => retired.finish(), isRetired)

    // The hook fired once, on that applier: the other one, and new ones, work.
    healthy.push(diff.slice('------- SEARCH\n'.length))
    assert.equal(healthy.finish().newContent, 'a\nB\nc\n')
    const fresh = new hl.StreamingApplier(original, { dialect })
    fresh.push(diff)
    assert.equal(fresh.finish().newContent, 'a\nB\nc\n')
  }
})

test('a panic in finish throws internal_error and the applier is done', { skip }, () => {
  const applier = new hl.StreamingApplier(original)
  applier.push(diff)
  applier.__injectPanic()
  assert.throws(() => applier.finish(), isPanic)
  assert.throws(() => applier.push('x'), (e) => e.code === 'already_finished')
})

test('a panic in a Workspace call retires that workspace only; files stay whole', { skip }, () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-panic-'))
  try {
    const file = path.join(root, 'f.txt')
    fs.writeFileSync(file, 'one\n')
    const retired = new hl.Workspace(root)
    const healthy = new hl.Workspace(root)
    assert.equal(retired.read('f.txt'), 'one\n')
    retired.__injectPanic()
    assert.throws(() => retired.write('f.txt', 'two\n'), (e) => isPanic(e) && /this workspace stopped/.test(e.message))
    assert.equal(fs.readFileSync(file, 'utf8'), 'one\n')
    assert.throws(() => retired.read('f.txt'), isRetired)
    assert.throws(() => retired.root, isRetired)
    assert.throws(() => retired.undo('f.txt'), isRetired)
    assert.equal(healthy.read('f.txt'), 'one\n')
    healthy.write('f.txt', 'two\n')
    assert.equal(fs.readFileSync(file, 'utf8'), 'two\n')
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
})

test('a panic in constructNewFileContent rejects its Promise; the sync form throws', { skip }, async () => {
  hl.__testPanicNextConstruct()
  await assert.rejects(hl.constructNewFileContent(diff, original, true), isPanic)
  hl.__testPanicNextConstruct()
  assert.throws(() => hl.constructNewFileContentSync(diff, original, true), isPanic)
  // The resume cache and later calls are fine.
  assert.deepEqual(await hl.constructNewFileContent(diff, original, true), {
    newContent: 'a\nB\nc\n',
    matchIndices: [2],
  })
  assert.equal(hl.constructNewFileContentSync(diff, original, true).newContent, 'a\nB\nc\n')
  assert.equal(typeof hl.resumeCacheStats().hits, 'number')
})

test('panics in concurrent Promises reject only the call that panicked', { skip }, async () => {
  hl.__testPanicNextConstruct()
  const results = await Promise.allSettled(
    Array.from({ length: 8 }, () => hl.constructNewFileContent(diff, original, true)),
  )
  const rejected = results.filter((r) => r.status === 'rejected')
  assert.equal(rejected.length, 1)
  assert.ok(isPanic(rejected[0].reason))
  for (const r of results.filter((r) => r.status === 'fulfilled')) assert.equal(r.value.newContent, 'a\nB\nc\n')
})
