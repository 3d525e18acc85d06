'use strict'
// The panic boundary: a Rust panic inside hunkloom (a bug) must become an `Error` with
// `code === "ERR_HUNKLOOM_PANIC"` instead of aborting the Node process, and a panic during a
// push must poison that applier (never leave it usable half-updated) while other appliers go
// on. The panics are injected with the hidden exports of the `test-hooks` feature, which
// `make test-node` builds (bindings/node/src/test_hooks.rs).

const test = require('node:test')
const assert = require('node:assert/strict')

const hl = require('..')

const hooked = typeof hl.__testPanicNextPush === 'function'
const skip = hooked ? false : 'the addon was built without the test-hooks feature (use make test-node)'

const original = 'a\nb\nc\n'
const diff = '------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n'
const isPanic = (err) =>
  err instanceof Error && err.code === 'ERR_HUNKLOOM_PANIC' && /internal error in hunkloom/.test(err.message)

test('the test hooks are hidden from the typings', () => {
  const dts = require('node:fs').readFileSync(require.resolve('../index.d.ts'), 'utf8')
  assert.doesNotMatch(dts, /__testPanic/)
})

test('a panic in push throws, poisons that applier only, and the process survives', { skip }, () => {
  for (const dialect of ['cline-v1', 'cline-v2', 'native']) {
    const poisoned = new hl.StreamingApplier(original, { dialect })
    const healthy = new hl.StreamingApplier(original, { dialect })
    poisoned.push('------- SEARCH\n')
    healthy.push('------- SEARCH\n')

    hl.__testPanicNextPush()
    assert.throws(() => poisoned.push('b\n'), isPanic)

    // Poisoned: every method and getter throws the panic code, never a half-updated state.
    assert.throws(() => poisoned.push('b\n'), (e) => e.code === 'ERR_HUNKLOOM_PANIC' && /earlier push/.test(e.message))
    for (const getter of ['preview', 'error', 'matchIndices', 'blocksCompleted', 'dialect']) {
      assert.throws(() => poisoned[getter], (e) => e.code === 'ERR_HUNKLOOM_PANIC', getter)
    }
    assert.throws(() => poisoned.finish(), (e) => e.code === 'ERR_HUNKLOOM_PANIC')

    // The hook fired once: the other applier, and new ones, work.
    healthy.push(diff.slice('------- SEARCH\n'.length))
    assert.equal(healthy.finish().newContent, 'a\nB\nc\n')
    const fresh = new hl.StreamingApplier(original, { dialect })
    fresh.push(diff)
    assert.equal(fresh.finish().newContent, 'a\nB\nc\n')
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
