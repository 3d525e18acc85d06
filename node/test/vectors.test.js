'use strict'
// Every Cline vector (tests/vectors/) through every way of calling hunkloom from JavaScript:
//
//   promise          constructNewFileContent with the resume cache off (capacity 0: nothing
//                    kept, every call from scratch)
//   sync             constructNewFileContentSync, the same
//   promise, streams / sync, streams
//                    the same with the cache on (a fresh stream per vector, the original kept)
//   whole/line/char/random
//                    StreamingApplier fed the diff in that chunking; the splices of each
//                    Update rebuild the preview; then finish() (final vectors) or
//                    preview/error/matchIndices (partial vectors)
//   growing-prefix   Cline's calling pattern with the resume cache on: the Promise API on
//                    growing prefixes of the diff (seeded random code-point cuts), each checked
//                    against a StreamingApplier fed the same pieces, then the vector's own call,
//                    checked against the vector; the cache must have resumed every call after
//                    the first of each chain
//   growing-prefix sync, utf-16 cuts
//                    the sync API on prefixes `diff.slice(0, k)` every 3 UTF-16 units (so some
//                    cut a surrogate pair, which must not be resumed across), each checked
//                    against the addon's own call, then the vector's own call
//
// and prints `<corpus> <mode>: <passed>/<total> passed`. No vector is skipped.

const test = require('node:test')
const assert = require('node:assert/strict')

const hl = require('..')
const h = require('./helpers')

const CHUNKINGS = ['whole', 'line', 'char', 'random']

async function viaPromise(v) {
  try {
    return h.observe(await hl.constructNewFileContent(v.diff, v.original, v.is_final, v.version))
  } catch (err) {
    return h.observeError(err)
  }
}

function viaSync(v) {
  try {
    return h.observe(hl.constructNewFileContentSync(v.diff, v.original, v.is_final, v.version))
  } catch (err) {
    return h.observeError(err)
  }
}

/** The applier's state as a partial call reports it. */
function partialState(applier) {
  const error = applier.error
  if (error !== null) return { error: error.message }
  return { newContent: applier.preview, matchIndices: applier.matchIndices }
}

function viaApplier(v, chunking) {
  const applier = new hl.StreamingApplier(v.original, { dialect: h.dialectOf(v.version) })
  let view = ''
  for (const piece of h.split(v.diff, chunking)) {
    view = h.applySplice(view, applier.push(piece))
  }
  if (view !== applier.preview) return { splice: 'the splices do not rebuild the preview' }
  if (!v.is_final) return partialState(applier)
  try {
    return h.observe(applier.finish())
  } catch (err) {
    return h.observeError(err)
  }
}

const addon = require('../index.js')

/** The addon's own result for a call (the reference of the JavaScript layer). */
function viaAddon(diff, original, version) {
  try {
    return h.observe(addon.constructNewFileContentSync(diff, original, false, version))
  } catch (err) {
    return h.observeError(err)
  }
}

function viaUtf16Prefixes(v) {
  for (let k = 1; k < v.diff.length; k += 3) {
    const prefix = v.diff.slice(0, k)
    let got
    try {
      got = h.observe(hl.constructNewFileContentSync(prefix, v.original, false, v.version))
    } catch (err) {
      got = h.observeError(err)
    }
    const want = viaAddon(prefix, v.original, v.version)
    if (!equal(got, want)) return { prefix, got, want }
  }
  return viaSync(v)
}

/** Returns the result of the vector's own call and how many calls the chain made. */
async function viaGrowingPrefix(v) {
  const pieces = h.split(v.diff, 'random', 0xc11e)
  const applier = new hl.StreamingApplier(v.original, { dialect: h.dialectOf(v.version) })
  let prefix = ''
  for (const piece of pieces.slice(0, -1)) {
    prefix += piece
    applier.push(piece)
    let got
    try {
      got = h.observe(await hl.constructNewFileContent(prefix, v.original, false, v.version))
    } catch (err) {
      got = h.observeError(err)
    }
    const want = partialState(applier)
    if (!equal(got, want)) return { result: { prefix, got, want }, calls: 0 }
  }
  return { result: await viaPromise(v), calls: Math.max(pieces.length, 1) }
}

function equal(a, b) {
  try {
    assert.deepStrictEqual(a, b)
    return true
  } catch {
    return false
  }
}

/** Runs `fn` over a corpus, prints its line and returns the failures. */
async function run(corpus, vectors, mode, fn) {
  const failures = []
  for (const v of vectors) {
    const got = await fn(v)
    const want = h.expected(v)
    if (!equal(got, want)) failures.push({ id: v.id, want, got })
  }
  console.log(`${corpus} ${mode}: ${vectors.length - failures.length}/${vectors.length} passed`)
  return failures
}

function report(failures) {
  assert.equal(
    failures.length,
    0,
    failures
      .slice(0, 5)
      .map((f) => `${f.id}\n  want ${JSON.stringify(f.want)}\n  got  ${JSON.stringify(f.got)}`)
      .join('\n'),
  )
}

for (const corpus of h.CLINE_CORPORA) {
  test(`${corpus}: every vector, every API and chunking`, async (t) => {
    const vectors = h.load(corpus)
    assert.ok(vectors.length > 100, `${corpus} has ${vectors.length} vectors`)

    hl.setResumeCacheCapacity(0)
    try {
      await t.test('promise', async () => report(await run(corpus, vectors, 'promise', viaPromise)))
      await t.test('sync', async () => report(await run(corpus, vectors, 'sync', viaSync)))
    } finally {
      hl.setResumeCacheCapacity(4)
    }
    await t.test('promise, streams', async () => report(await run(corpus, vectors, 'promise, streams', viaPromise)))
    await t.test('sync, streams', async () => report(await run(corpus, vectors, 'sync, streams', viaSync)))
    for (const chunking of CHUNKINGS) {
      await t.test(chunking, async () => report(await run(corpus, vectors, chunking, (v) => viaApplier(v, chunking))))
    }
    await t.test('growing-prefix', async () => {
      const before = hl.resumeCacheStats().hits
      let chained = 0
      const failures = await run(corpus, vectors, 'growing-prefix', async (v) => {
        const { result, calls } = await viaGrowingPrefix(v)
        chained += Math.max(calls - 1, 0)
        return result
      })
      report(failures)
      const hits = hl.resumeCacheStats().hits - before
      assert.ok(hits >= chained, `the cache resumed ${hits} calls, want at least ${chained}`)
      assert.ok(chained > 0)
    })
    await t.test('growing-prefix sync, utf-16 cuts', async () =>
      report(await run(corpus, vectors, 'growing-prefix sync, utf-16 cuts', viaUtf16Prefixes)),
    )
  })
}
