'use strict'
// Roo Code's apply_diff: the drop-in class MultiSearchReplaceDiffStrategy and the `roo` dialect
// of applyDiff / StreamingApplier, on the corpora tests/vectors/roo-multi-search-replace*
// (interpreted as crates/hunkloom/tests/roo_vectors.rs does):
//
//   drop-in   `new MultiSearchReplaceDiffStrategy(...constructor_args)` then
//             `await applyDiff(original, diff[, start_line[, end_line]])`, the result compared
//             with `expect` as Roo returns it (the older files leave an empty failParts out);
//   apply     applyDiff(diff, original, { dialect: 'roo', fuzzyThreshold, bufferLines });
//   whole/line/char/random
//             a `roo` StreamingApplier fed the diff in that chunking (the preview stays the
//             original; finish applies the diff);
//
// the dialect modes compared with what `expect` means for them: Roo's content and each
// failParts text as a failed block's error, or the thrown error (Roo's top-level error, or
// every failParts text separated by blank lines when no block applied). Prints
// `<corpus> <mode>: <passed>/<total> passed` and `<corpus>: <passed>/<total> passed` (rows that
// passed in every mode). No row is skipped. The marker corpus runs validateMarkerSequencing.

const test = require('node:test')
const assert = require('node:assert/strict')

const hl = require('..')
const h = require('./helpers')

const CORPORA = [
  ['roo-msr-t100', 'roo-multi-search-replace/roo-msr-t100'],
  ['roo-msr-t090', 'roo-multi-search-replace/roo-msr-t090'],
  ['roo-msr-spec', 'roo-multi-search-replace'],
  ['roo-msr-probes', 'roo-multi-search-replace-probes'],
]
const CHUNKINGS = ['whole', 'line', 'char', 'random']

/** The recorded DiffResult, with the empty failParts an older file left out restored. */
function expectedResult(row) {
  const e = { ...row.expect }
  if (e.error === undefined && e.failParts === undefined) e.failParts = []
  return e
}

/** What the dialect should give for the row. */
function expectedDialect(row) {
  const e = expectedResult(row)
  const parts = (e.failParts ?? []).map((p) => p.error)
  if (e.error !== undefined) return { refused: e.error }
  if (e.content !== undefined) return { content: e.content, failed: parts }
  return { refused: parts.join('\n\n') }
}

function dialectOptions(row) {
  const [fuzzyThreshold, bufferLines] = row.constructor_args
  const o = { dialect: 'roo' }
  if (fuzzyThreshold !== null) o.fuzzyThreshold = fuzzyThreshold
  if (bufferLines !== null) o.bufferLines = bufferLines
  return o
}

function observed(run) {
  try {
    const o = run()
    return { content: o.newContent, failed: o.blocks.filter((b) => b.status === 'failed').map((b) => b.error.message) }
  } catch (err) {
    if (!(err instanceof Error) || typeof err.code !== 'string' || err.code.startsWith('ERR_')) throw err
    return { refused: err.message }
  }
}

function compare(got, want) {
  try {
    assert.deepStrictEqual(got, want)
    return true
  } catch {
    return `\n  want ${JSON.stringify(want)}\n  got  ${JSON.stringify(got)}`
  }
}

async function dropIn(row) {
  const args = [...row.constructor_args]
  while (args.length > 0 && args[args.length - 1] === null) args.pop()
  const strategy = new hl.MultiSearchReplaceDiffStrategy(...args.map((a) => a ?? undefined))
  const call = [row.original, row.diff]
  if (row.start_line !== null) call.push(row.start_line)
  if (row.end_line !== null) call.push(row.end_line)
  return compare(await strategy.applyDiff(...call), expectedResult(row))
}

function streamed(row, chunking) {
  return observed(() => {
    const applier = new hl.StreamingApplier(row.original, dialectOptions(row))
    for (const piece of h.split(row.diff, chunking)) {
      const u = applier.push(piece)
      assert.equal(u.removed + u.inserted.length, 0, 'a push changed the preview')
    }
    assert.equal(applier.preview, row.original)
    return applier.finish()
  })
}

for (const [corpus, file] of CORPORA) {
  test(`${corpus}: every row, drop-in and dialect, in every chunking`, async () => {
    const rows = h.load(file)
    const modes = new Map()
    const failures = []
    let every = 0
    const record = (mode, row, outcome) => {
      modes.set(mode, (modes.get(mode) ?? 0) + (outcome === true ? 1 : 0))
      if (outcome !== true) failures.push(`${row.id} ${mode}: ${outcome}`)
      return outcome === true
    }
    for (const row of rows) {
      let ok = record('drop-in', row, await dropIn(row))
      const want = expectedDialect(row)
      ok = record('apply', row, compare(observed(() => hl.applyDiff(row.diff, row.original, dialectOptions(row))), want)) && ok
      for (const c of CHUNKINGS) ok = record(c, row, compare(streamed(row, c), want)) && ok
      if (ok) every += 1
    }
    for (const [mode, passed] of modes) console.log(`${corpus} ${mode}: ${passed}/${rows.length} passed`)
    console.log(`${corpus}: ${every}/${rows.length} passed`)
    assert.equal(failures.length, 0, failures.slice(0, 5).join('\n'))
  })
}

test('roo-msr-markers: validateMarkerSequencing on every row', () => {
  const rows = h.load('roo-multi-search-replace-markers')
  const strategy = new hl.MultiSearchReplaceDiffStrategy()
  let passed = 0
  for (const row of rows) {
    const got = strategy.validateMarkerSequencing(row.diff)
    if (compare(got, row.expect) === true) passed += 1
    else assert.fail(`${row.id}: ${compare(got, row.expect)}`)
  }
  console.log(`roo-msr-markers: ${passed}/${rows.length} passed`)
})

test('MultiSearchReplaceDiffStrategy: name, defaults, progress and argument checks', async () => {
  const s = new hl.MultiSearchReplaceDiffStrategy()
  assert.equal(s.getName(), 'MultiSearchReplace')
  const typo = '<<<<<<< SEARCH\nb = 9\n=======\nx\n>>>>>>> REPLACE'
  const strict = await s.applyDiff('a = 1\nb = 2\n', typo)
  assert.equal(strict.success, false)
  assert.deepEqual(Object.keys(strict).sort(), ['failParts', 'success'])
  assert.match(strict.failParts[0].error, /^No sufficiently similar match found \(80% similar, needs 100%\)/)
  const loose = await new hl.MultiSearchReplaceDiffStrategy(0.8, 5).applyDiff('a = 1\nb = 2\n', typo, 1, 2)
  assert.deepStrictEqual(loose, { success: true, content: 'a = 1\nx\n', failParts: [] })
  const invalid = await s.applyDiff('x', '<<<<<<< SEARCH\nx\n')
  assert.deepStrictEqual(invalid, { success: false, error: "ERROR: Unexpected end of sequence: Expected '=======' was not found." })

  const diff = '<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE'
  assert.deepStrictEqual(s.getProgressStatus({ params: { diff }, partial: false }, { success: true, failParts: [] }), { icon: 'diff-multiple', text: '2' })
  assert.deepStrictEqual(s.getProgressStatus({ params: { diff }, partial: false }, { success: true, failParts: [{ success: false, error: 'x' }] }), { icon: 'diff-multiple', text: '1/2' })
  assert.deepStrictEqual(s.getProgressStatus({ params: { diff }, partial: false }), {})
  assert.deepStrictEqual(s.getProgressStatus({ params: { diff: 'SEARCH' }, partial: true }), { icon: 'diff-multiple', text: '1' })
  // While streaming, only when the diff's length has a tens digit of 0.
  assert.deepStrictEqual(s.getProgressStatus({ params: { diff: 'SEARCH'.repeat(2).padEnd(100) }, partial: true }), { icon: 'diff-multiple', text: '2' })
  assert.deepStrictEqual(s.getProgressStatus({ params: { diff: 'SEARCH'.repeat(2) }, partial: true }), {})
  assert.deepStrictEqual(s.getProgressStatus({ params: { diff: 'x'.repeat(10) }, partial: true }), {})
  assert.deepStrictEqual(s.getProgressStatus({ params: {} }), {})

  await assert.rejects(s.applyDiff(3, 'x'), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE')
  assert.throws(() => new hl.MultiSearchReplaceDiffStrategy('0.9'), (e) => e instanceof TypeError)
  assert.throws(() => new hl.MultiSearchReplaceDiffStrategy(1, -1), (e) => e instanceof RangeError && e.code === 'ERR_OUT_OF_RANGE')
  assert.throws(() => hl.applyDiff(typo, 'b = 2\n', { dialect: 'roo', bufferLines: 1.5 }), (e) => e instanceof RangeError)
})

test('applyDiff resolves the same on the calling thread (small inputs) and on the pool (large)', async () => {
  const { POOL_MIN_LENGTH } = require('../lib/roo.js')
  const s = new hl.MultiSearchReplaceDiffStrategy(0.9)
  assert.ok(s instanceof hl.MultiSearchReplaceDiffStrategy)
  const line = (i) => `value_${i} = compute(${i})\n`
  const diff = '<<<<<<< SEARCH\n:start_line:3\n-------\nvalue_2 = compute(2)\n=======\nvalue_2 = 0\n>>>>>>> REPLACE'
  const small = Array.from({ length: 10 }, (_, i) => line(i)).join('')
  const large = Array.from({ length: 5000 }, (_, i) => line(i)).join('')
  assert.ok(small.length + diff.length < POOL_MIN_LENGTH && large.length >= POOL_MIN_LENGTH)
  for (const original of [small, large]) {
    const promise = s.applyDiff(original, diff)
    assert.ok(promise instanceof Promise)
    const got = await promise
    assert.equal(got.success, true)
    assert.equal(got.content, original.replace('value_2 = compute(2)\n', 'value_2 = 0\n'))
    // The one-shot roo dialect is the same engine: the same content.
    assert.equal(got.content, hl.applyDiff(diff, original, { dialect: 'roo', fuzzyThreshold: 0.9 }).newContent)
  }
  // A failure resolves as Roo's result on both paths, never throws synchronously.
  const missing = '<<<<<<< SEARCH\nnot there\n=======\nx\n>>>>>>> REPLACE'
  for (const original of [small, large]) {
    const got = await s.applyDiff(original, missing)
    assert.equal(got.success, false)
    assert.match(got.failParts[0].error, /^No sufficiently similar match found/)
  }
})

test('the roo dialect reports each block in the order Roo tried them', () => {
  const diff =
    '<<<<<<< SEARCH\n:start_line:2\n-------\nb = 2\n=======\nb = 3\n>>>>>>> REPLACE\n' +
    '<<<<<<< SEARCH\nzzz\n=======\nq\n>>>>>>> REPLACE'
  const out = hl.applyDiff(diff, 'a = 1\nb = 2\n', { dialect: 'roo' })
  assert.equal(out.newContent, 'a = 1\nb = 3\n')
  assert.deepEqual(out.blocks.map((b) => [b.index, b.status, b.strategy]), [[1, 'failed', 'unmatched'], [0, 'applied', 'similarity']])
  assert.equal(out.blocks[0].error.code, 'search_not_found')
  assert.equal(out.blocks[1].start, 6)
  assert.equal(new hl.StreamingApplier('x', { dialect: 'roo' }).dialect, 'roo')
})

test('the pool path builds the content from slices of the original, as the addon would copy it', async () => {
  // lib/roo.js resolves large inputs from `__applyDiffPieces`: Roo's result with the content as
  // the original's unchanged start and end around the changed span. It must equal the addon's
  // own conversion (the native class's applyDiff), key order included, on every Roo vector and
  // on texts with CRLF, emoji and a failed block, called on the pieces path directly.
  const native = require('../lib/native.js')
  const { resultOf } = require('../lib/roo.js')
  const check = async (args, original, diff) => {
    const ours = new hl.MultiSearchReplaceDiffStrategy(...args)
    const theirs = new native.MultiSearchReplaceDiffStrategy(...args)
    const want = await theirs.applyDiff(original, diff)
    const got = resultOf(await ours.__applyDiffPieces(original, diff), original)
    assert.equal(JSON.stringify(got), JSON.stringify(want))
    return want.success
  }
  let applied = 0
  let rows = 0
  const corpora = ['roo-multi-search-replace', 'roo-multi-search-replace-probes', 'roo-multi-search-replace/roo-msr-t090', 'roo-multi-search-replace/roo-msr-t100']
  for (const corpus of corpora) {
    for (const r of h.load(corpus)) {
      rows++
      const args = (r.constructor_args ?? []).map((a) => a ?? undefined)
      if (await check(args, r.original, r.diff)) applied++
    }
  }
  assert.ok(rows > 4000 && applied > 1000, `${applied} of ${rows}`)
  const emoji = Array.from({ length: 300 }, (_, i) => `v${i} = "😀${i}"\r\n`).join('')
  const diff =
    '<<<<<<< SEARCH\n:start_line:2\n-------\nv1 = "😀1"\n=======\nv1 = "é"\n>>>>>>> REPLACE\n' +
    '<<<<<<< SEARCH\n:start_line:299\n-------\nv298 = "😀298"\n=======\nv298 = 0\n>>>>>>> REPLACE\n' +
    '<<<<<<< SEARCH\nnowhere\n=======\nx\n>>>>>>> REPLACE'
  assert.equal(await check([], emoji, diff), true)
  assert.equal(await check([], emoji, '<<<<<<< SEARCH\nnowhere\n=======\nx\n>>>>>>> REPLACE'), false)
  assert.equal(await check([], emoji, 'no markers'), false)
  // Large and small calls of the class resolve alike, the large through the pieces.
  const large = emoji.repeat(40)
  const s = new hl.MultiSearchReplaceDiffStrategy()
  const whole = await new native.MultiSearchReplaceDiffStrategy().applyDiff(large, diff)
  assert.deepEqual(await s.applyDiff(large, diff), whole)
})
