'use strict'
// The package's JavaScript layer (lib/construct.js, lib/applier.js) against the addon it wraps:
// the drop-in `constructNewFileContent` (Promise and sync) on Cline's calling pattern, checked
// call by call against the addon's own `constructNewFileContentSync`, and `StreamingApplier`
// checked against the addon's class (the core's applier). What the layer adds is under test:
// recognising the same original and an extending diff, the kept streams and their eviction,
// the results built from slices of the caller's original, the Promise calls sent to the thread
// pool, argument errors, the cache switches, and surrogates.

const test = require('node:test')
const assert = require('node:assert/strict')

const hl = require('..')
const native = require('../index.js')
const h = require('./helpers')

const block = (search, replace) => `------- SEARCH\n${search}=======\n${replace}+++++++ REPLACE\n`

/**
 * The reference: the addon's own call with the core's resume cache off, so every reference
 * result is computed from scratch (the cache is the core's, shared with nothing here, and
 * `hl.setResumeCacheCapacity` turns it back on; hence the switch before every call).
 */
function reference(diff, original, isFinal, version) {
  native.setResumeCacheCapacity(0)
  return native.constructNewFileContentSync(diff, original, isFinal, version)
}

/** An error in comparable terms: its class, code and message. */
function describe(err) {
  assert.ok(err instanceof Error, `an Error: ${err}`)
  return { class: err.constructor.name, code: err.code, message: err.message }
}

/** What `fn()` gives: `{ ok: result }` or `{ error: describe(err) }`. */
function settle(fn) {
  try {
    return { ok: fn() }
  } catch (err) {
    return { error: describe(err) }
  }
}

/** What a Promise settles with, in `settle`'s terms. */
async function settled(promise) {
  try {
    return { ok: await promise }
  } catch (err) {
    return { error: describe(err) }
  }
}

/** The layer's sync call and the reference, which must agree. */
function checkSync(diff, original, isFinal, version, label) {
  const got = settle(() => hl.constructNewFileContentSync(diff, original, isFinal, version))
  assert.deepEqual(got, settle(() => reference(diff, original, isFinal, version)), label)
  return got
}

/** The layer's Promise call (awaited) and the reference, which must agree. */
async function checkAsync(diff, original, isFinal, version, label) {
  const got = await settled(hl.constructNewFileContent(diff, original, isFinal, version))
  assert.deepEqual(got, settle(() => reference(diff, original, isFinal, version)), label)
  return got
}

/** The ends of `text`'s prefixes every `step` UTF-16 units (cutting surrogate pairs), then its end. */
function cutsEvery(text, step) {
  const ends = []
  for (let end = step; end < text.length; end += step) ends.push(end)
  ends.push(text.length)
  return ends
}

/** `text` in pieces of `step` UTF-16 units, a cut that would split a surrogate pair moved one on. */
function piecesEvery(text, step) {
  const pieces = []
  let at = 0
  while (at < text.length) {
    let end = Math.min(at + step, text.length)
    if (/[\uD800-\uDBFF]/.test(text[end - 1]) && /[\uDC00-\uDFFF]/.test(text[end] ?? '')) end += 1
    pieces.push(text.slice(at, end))
    at = end
  }
  return pieces
}

/** The hit and miss counters now. */
function counters() {
  const { hits, misses } = hl.resumeCacheStats()
  return { hits, misses }
}

/** How far the counters moved since `before`. */
function moved(before) {
  const now = counters()
  return { hits: now.hits - before.hits, misses: now.misses - before.misses }
}

/** Drops every kept stream and sets the capacity. */
function emptyCache(capacity = 4) {
  hl.setResumeCacheCapacity(0)
  hl.setResumeCacheCapacity(capacity)
}

/** `count` numbered lines, `prefix` before each number. */
function numberedLines(count, prefix) {
  let text = ''
  for (let i = 1; i <= count; i++) text += `${prefix}${i} = ${(i * 37) % 101}\n`
  return text
}

test('same original object, an equal copy and a different original: results and hits', () => {
  emptyCache()
  const original = numberedLines(40, 'item')
  const diff = block('item3 = 10\nitem4 = 47\n', 'item3 = 11\nitem4 = 48\n') + block('item30 = 100\n', 'item30 = 0\n')
  const ends = cutsEvery(diff, 5)
  const third = Math.floor(ends.length / 3)

  // The same string object on a growing prefix: one miss, then every call resumes.
  let before = counters()
  for (const end of ends.slice(0, third)) {
    checkSync(diff.slice(0, end), original, false, undefined, `same object, ${end}`)
  }
  assert.deepEqual(moved(before), { hits: third - 1, misses: 1 })
  assert.equal(hl.resumeCacheStats().entries, 1)

  // A different string object with the same content. `===` compares string contents (the same
  // object is only its fast path), so an equal copy continues the kept stream; the result is
  // built from slices of the first object, whose content is the same.
  const copy = Buffer.from(original, 'utf8').toString('utf8')
  assert.equal(copy, original)
  before = counters()
  for (const end of ends.slice(third, 2 * third)) {
    checkSync(diff.slice(0, end), copy, false, undefined, `equal copy, ${end}`)
  }
  assert.deepEqual(moved(before), { hits: third, misses: 0 })

  // A different original continuing the same diff: a miss (a stream of its own), then hits.
  const other = original.replace('item1 = 37\n', 'item1 = 38\n')
  before = counters()
  for (const end of ends.slice(2 * third)) {
    checkSync(diff.slice(0, end), other, false, undefined, `other original, ${end}`)
  }
  assert.deepEqual(moved(before), { hits: ends.length - 2 * third - 1, misses: 1 })
  assert.equal(hl.resumeCacheStats().entries, 2)

  // Back to the first original: its stream was kept, at an older prefix; then the final calls.
  before = counters()
  checkSync(diff, original, false, undefined, 'first original again')
  checkSync(diff, original, true, undefined, 'final, first original')
  checkSync(diff, other, true, undefined, 'final, other original')
  assert.deepEqual(moved(before), { hits: 3, misses: 0 })
  assert.equal(hl.resumeCacheStats().entries, 0, 'the final calls released both streams')
})

test('interleaved streams on two originals and both versions, more than the capacity', () => {
  emptyCache(4)
  const a = numberedLines(30, 'alpha')
  const b = numberedLines(30, 'beta')
  const diffsOf = (name) => [
    block(`${name}3 = 10\n`, `${name}3 = 1\n`) + block(`${name}20 = 33\n`, `${name}20 = 2\n`),
    block(`${name}10 = 67\n${name}11 = 3\n`, `${name}10 = 0\n`),
    // Out of order: Cline searches from the previous block on, so both versions reject it.
    block(`${name}12 = 40\n`, `${name}12 = 4\n`) + block(`${name}2 = 73\n`, `${name}2 = 5\n`),
  ]
  const streams = []
  for (const [original, name] of [
    [a, 'alpha'],
    [b, 'beta'],
  ]) {
    for (const version of ['v1', 'v2']) {
      for (const diff of diffsOf(name)) streams.push({ original, version, diff })
    }
  }

  /** Advances every stream `step` units per turn, round robin, each call checked. */
  const roundRobin = (list, step) => {
    let calls = 0
    const longest = Math.max(...list.map((s) => s.diff.length))
    for (let end = step; end < longest + step; end += step) {
      for (const s of list) {
        if (end - step >= s.diff.length) continue
        const cut = Math.min(end, s.diff.length)
        checkSync(s.diff.slice(0, cut), s.original, false, s.version, `${s.version} ${s.diff.slice(15, 25)} ${cut}`)
        calls += 1
        assert.ok(hl.resumeCacheStats().entries <= 4, 'bounded by the capacity')
      }
    }
    for (const s of list) checkSync(s.diff, s.original, true, s.version, `final ${s.version} ${s.diff.slice(15, 25)}`)
    return calls
  }

  // Twelve streams through four places: the least recently used is evicted and its next call
  // starts over (some streams share a first few units, and one may take over another's).
  let before = counters()
  const calls = roundRobin(streams, 5)
  const twelve = moved(before)
  assert.ok(twelve.misses > streams.length, `evictions forced restarts: ${JSON.stringify(twelve)}`)
  assert.equal(twelve.hits + twelve.misses, calls + streams.length)

  // Four streams (one per original and version) fit: one miss each, then every call resumes.
  emptyCache(4)
  const four = streams.filter((s, i) => i % 3 === 0)
  assert.equal(four.length, 4)
  before = counters()
  const fourCalls = roundRobin(four, 5)
  assert.deepEqual(moved(before), { hits: fourCalls, misses: 4 }, 'the four final calls resumed too')
  assert.equal(hl.resumeCacheStats().entries, 0)
})

test('matchIndices is a fresh plain Array every call and newContent a string', async () => {
  emptyCache()
  const original = numberedLines(20, 'x')
  const diff = block('x2 = 74\n', 'x2 = 0\n') + block('x9 = 30\n', 'x9 = 1\n') + block('x15 = 50\n', 'x15 = 2\n')
  const firstDone = diff.indexOf('+++++++ REPLACE\n') + 16
  const ends = cutsEvery(diff, 4).filter((end) => end >= firstDone)
  let previous = null
  for (const end of ends) {
    const prefix = diff.slice(0, end)
    const want = reference(prefix, original, false)
    assert.ok(want.matchIndices.length > 0)
    const sync = hl.constructNewFileContentSync(prefix, original, false)
    for (const got of [sync, await hl.constructNewFileContent(prefix, original, false)]) {
      assert.equal(typeof got.newContent, 'string')
      assert.equal(Object.getPrototypeOf(got.matchIndices), Array.prototype)
      assert.notEqual(got.matchIndices, previous, 'not the array of the call before')
      assert.deepEqual(got, want, `prefix ${end}`)
      // Spoil what this call returned; later calls must not see it.
      got.matchIndices[0] = -7
      got.matchIndices.push(12345)
      got.newContent = 'spoiled'
      previous = got.matchIndices
    }
  }
  const sync = hl.constructNewFileContentSync(diff, original, true)
  for (const got of [sync, await hl.constructNewFileContent(diff, original, true)]) {
    assert.notEqual(got.matchIndices, previous)
    assert.equal(Object.getPrototypeOf(got.matchIndices), Array.prototype)
    assert.deepEqual(got, reference(diff, original, true))
    got.matchIndices.length = 0
    previous = got.matchIndices
  }
})

test('a partial error throws like the addon and the stream survives it', async () => {
  const original = 'one\ntwo\nthree\nfour\n'
  // The second block's SEARCH matches nothing: every prefix from its separator on is rejected,
  // and the final call too.
  const diff = block('two\n', 'TWO\n') + block('nine\n', 'NINE\n') + block('four\n', 'FOUR\n')
  // CRLF: a prefix ending in `=======` is read as a separator after an empty SEARCH and is
  // rejected; the `\r` that follows makes it content again, and the rejection is withdrawn.
  const crlf = '------- SEARCH\r\nb\r\n=======\r\nB\r\n+++++++ REPLACE\r\n'
  const cases = [
    [diff, original, 'search_not_found'],
    [crlf, 'a\r\nb\r\n', 'empty_search_nonempty_file'],
  ]
  for (const version of ['v1', 'v2']) {
    for (const [text, file, code] of cases) {
      for (const api of ['sync', 'promise']) {
        emptyCache()
        const check = api === 'sync' ? checkSync : checkAsync
        const codes = new Set()
        let withdrawn = false
        let rejected = false
        const before = counters()
        for (let end = 1; end <= text.length; end++) {
          const prefix = text.slice(0, end)
          const got = await check(prefix, file, false, version, `${version} ${api} ${JSON.stringify(prefix)}`)
          if (rejected && got.ok) withdrawn = true
          rejected = got.error !== undefined
          if (rejected) codes.add(got.error.code)
        }
        const label = `${version} ${api} ${text === crlf ? 'crlf' : 'lf'}`
        assert.ok(codes.size > 0, `${label}: some prefix is rejected`)
        if (version === 'v1') assert.ok(codes.has(code), `${label}: ${[...codes]}`)
        // The stream resumed after a rejection gives the addon's result when the rejection is
        // withdrawn (CRLF) and when it stays (LF: Cline rejects every later prefix).
        assert.equal(withdrawn, text === crlf, `${label}: withdrawn`)
        // One stream for the whole chain: every call after the first resumed it, rejected or not.
        assert.deepEqual(moved(before), { hits: text.length - 1, misses: 1 }, label)
        await check(text, file, true, version, `${label} final`)
      }
    }
  }
})

test('Promise API on an original of 2^20 UTF-16 units and more: growing prefixes, concurrent calls', async () => {
  emptyCache()
  const original = numberedLines(80000, 'entry')
  assert.ok(original.length >= 2 ** 20 && original.length < 1.5e6, `${original.length} units`)
  const diff =
    block('entry79990 = 27\nentry79991 = 64\n', 'entry79990 = 1\nentry79991 = 2\nentry79991b = 3\n') +
    block('entry79998 = 20\n', 'entry79998 = 0\n')
  const ends = cutsEvery(diff, 7)
  const separator = diff.indexOf('=======')
  for (const end of ends) await checkAsync(diff.slice(0, end), original, false, undefined, `prefix ${end}`)
  // Two calls in flight at once: the first makes a separator line appear (a push that may
  // search, so on the thread pool, its stream out of the cache), and the second, which extends
  // it, starts a stream of its own.
  await checkAsync(diff.slice(0, separator), original, false, undefined, 'before the separator')
  const before = counters()
  const [first, second] = await Promise.all([
    settled(hl.constructNewFileContent(diff.slice(0, separator + 4), original, false)),
    settled(hl.constructNewFileContent(diff.slice(0, separator + 9), original, false)),
  ])
  const want = (cut) => settle(() => reference(diff.slice(0, cut), original, false))
  assert.deepEqual(first, want(separator + 4), 'concurrent, first')
  assert.deepEqual(second, want(separator + 9), 'concurrent, second')
  assert.deepEqual(moved(before), { hits: 1, misses: 1 }, 'the second call did not find the first one\'s stream')
  const final = await checkAsync(diff, original, true, undefined, 'final')
  assert.deepEqual(final.ok.matchIndices, [original.indexOf('entry79990 ='), original.indexOf('entry79998 =')])
  assert.ok(final.ok.newContent.endsWith('entry79998 = 0\nentry79999 = 57\nentry80000 = 94\n'))
})

test('wrong argument types throw, or reject, exactly like the addon', async () => {
  emptyCache()
  const original = 'a\nb\n'
  const diff = block('a\n', 'A\n')
  hl.constructNewFileContentSync(diff.slice(0, 10), original, false)
  const before = counters()
  const calls = [
    [[1, original, true], 'TypeError', 'ERR_INVALID_ARG_TYPE'],
    [[diff, original], 'TypeError', 'ERR_INVALID_ARG_TYPE'],
    [[diff, original, true, 'v3'], 'Error', 'invalid_version'],
    [[diff, 2, false], 'TypeError', 'ERR_INVALID_ARG_TYPE'],
    [[diff, original, false, null], 'TypeError', 'ERR_INVALID_ARG_TYPE'],
  ]
  for (const [args, name, code] of calls) {
    const want = settle(() => native.constructNewFileContentSync(...args))
    assert.deepEqual([want.error.class, want.error.code], [name, code], `the addon, ${args.length} arguments`)
    assert.deepEqual(settle(() => hl.constructNewFileContentSync(...args)), want, 'sync')

    let promise
    assert.doesNotThrow(() => {
      promise = hl.constructNewFileContent(...args)
    }, 'the Promise API never throws')
    assert.deepEqual(await settled(promise), want, 'promise')
    assert.deepEqual(await settled(native.constructNewFileContent(...args)), want, 'the addon\'s promise')
  }
  // Refused calls touch no stream: the kept one still resumes.
  assert.deepEqual(moved(before), { hits: 0, misses: 0 })
  checkSync(diff.slice(0, 20), original, false, undefined, 'after the refusals')
  assert.deepEqual(moved(before), { hits: 1, misses: 0 })
})

test('setResumeCacheCapacity: 0 empties the cache, invalid values throw like the addon', async () => {
  const original = numberedLines(10, 'k')
  const diff = block('k4 = 47\n', 'k4 = 4\n') + block('k8 = 93\n', 'k8 = 8\n')
  try {
    emptyCache()
    for (const version of ['v1', 'v2']) checkSync(diff.slice(0, 30), original, false, version, version)
    assert.equal(hl.resumeCacheStats().entries, 2)

    hl.setResumeCacheCapacity(0)
    const { entries, capacity } = hl.resumeCacheStats()
    assert.deepEqual({ entries, capacity }, { entries: 0, capacity: 0 })
    const before = counters()
    for (const end of cutsEvery(diff, 6)) {
      checkSync(diff.slice(0, end), original, false, 'v1', `off, sync ${end}`)
      await checkAsync(diff.slice(0, end), original, false, 'v2', `off, promise ${end}`)
    }
    checkSync(diff, original, true, 'v1', 'off, final')
    const calls = 2 * cutsEvery(diff, 6).length + 1
    assert.deepEqual(moved(before), { hits: 0, misses: calls }, 'nothing resumes with the cache off')
    assert.equal(hl.resumeCacheStats().entries, 0)

    hl.setResumeCacheCapacity(1)
    for (const value of [-1, 1.5, '4', NaN, 2 ** 32, undefined]) {
      const want = settle(() => native.setResumeCacheCapacity(value))
      assert.ok(want.error, `the addon refuses ${String(value)}`)
      assert.deepEqual(settle(() => hl.setResumeCacheCapacity(value)), want, String(value))
      assert.equal(hl.resumeCacheStats().capacity, 1, `${String(value)} left the capacity alone`)
    }
    for (const version of ['v1', 'v2']) checkSync(diff.slice(0, 30), original, false, version, `capacity 1, ${version}`)
    assert.equal(hl.resumeCacheStats().entries, 1, 'bounded by the capacity')
  } finally {
    hl.setResumeCacheCapacity(4)
  }
  assert.equal(hl.resumeCacheStats().capacity, 4)
})

test('StreamingApplier in every dialect: preview after each push, finish, then already_finished', () => {
  const original = 'fn main() {\n    let café = 1;\n    let 中 = "🚀";\n    print(café);\n}\n'
  const good =
    block('    let café = 1;\n', '    let café = 2; // é\n') +
    block('    let 中 = "🚀";\n', '    let 中 = "🎉🚀";\n    let x = 0;\n')
  const bad = block('    let café = 1;\n', '    let café = 2;\n') + block('    missing();\n', '    found();\n')
  const finished = (err) => err instanceof Error && err.code === 'already_finished'
  for (const dialect of ['cline-v1', 'cline-v2', 'native']) {
    for (const diff of [good, bad]) {
      const label = `${dialect}, ${diff === good ? 'good' : 'bad'}`
      const applier = new hl.StreamingApplier(original, { dialect })
      const core = new native.StreamingApplier(original, { dialect })
      let mirror = core.preview
      assert.equal(applier.preview, mirror, `${label}: before any push`)
      let prefix = ''
      for (const piece of piecesEvery(diff, 3)) {
        prefix += piece
        const update = applier.push(piece)
        const coreUpdate = core.push(piece)
        assert.deepEqual(update, coreUpdate, `${label}: the update after ${JSON.stringify(prefix)}`)
        mirror = h.applySplice(mirror, coreUpdate)
        assert.equal(applier.preview, mirror, `${label}: the preview after ${JSON.stringify(prefix)}`)
        assert.equal(core.preview, mirror, `${label}: the core's preview`)
        const whole = new hl.StreamingApplier(original, { dialect })
        whole.push(prefix)
        assert.equal(whole.preview, mirror, `${label}: fed the whole prefix`)
        assert.deepEqual(
          [applier.error && describe(applier.error), applier.matchIndices, applier.blocksCompleted],
          [core.error && describe(core.error), core.matchIndices, core.blocksCompleted],
        )
      }
      assert.equal(prefix, diff)

      const got = settle(() => applier.finish())
      assert.deepEqual(got, settle(() => core.finish()), `${label}: finish equals the core's`)
      if (dialect === 'native') {
        assert.deepEqual(got, settle(() => hl.applyDiff(diff, original)), `${label}: applyDiff`)
      } else {
        const want = settle(() => reference(diff, original, true, dialect === 'cline-v1' ? 'v1' : 'v2'))
        const answer = got.ok ? { ok: { newContent: got.ok.newContent, matchIndices: got.ok.matchIndices } } : got
        assert.deepEqual(answer, want, `${label}: Cline's one-shot`)
      }
      assert.equal(got.error === undefined, diff === good, `${label}: only the bad diff fails`)

      for (const getter of ['preview', 'error', 'matchIndices', 'blocksCompleted', 'dialect']) {
        assert.throws(() => applier[getter], finished, `${label}: ${getter}`)
      }
      assert.throws(() => applier.push('x'), finished, `${label}: push`)
      assert.throws(() => applier.finish(), finished, `${label}: finish`)
    }
  }
})

test('results of thousands of pieces and matchIndices', async () => {
  emptyCache()
  let original = ''
  for (let i = 0; i < 3000; i++) original += `line ${i}\n`
  let diff = ''
  for (let i = 0; i < 3000; i += 1) diff += block(`line ${i}\n`, i % 2 === 0 ? `LINE ${i}\n` : '')
  const last = diff.lastIndexOf('=======')
  for (const end of [Math.floor(diff.length / 2), last, last + 5, diff.length]) {
    checkSync(diff.slice(0, end), original, false, 'v1', `sync ${end}`)
    await checkAsync(diff.slice(0, end), original, false, 'v1', `promise ${end}`)
  }
  const final = checkSync(diff, original, true, 'v1', 'final')
  assert.equal(final.ok.matchIndices.length, 3000)
  for (const dialect of ['cline-v1', 'native']) {
    const applier = new hl.StreamingApplier(original, { dialect })
    const core = new native.StreamingApplier(original, { dialect })
    assert.deepEqual(applier.push(diff), core.push(diff), dialect)
    assert.equal(applier.preview, core.preview, dialect)
    assert.deepEqual(applier.finish(), core.finish(), dialect)
  }
})

/** A lone surrogate: half of a pair, with no other half next to it. */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

test('astral characters: every prefix, cut anywhere, equals the addon', async () => {
  emptyCache()
  const original = 'title 🚀 rocket\nkeep 😀\nlast 𝄞 line\n'
  const diff = block('keep 😀\n', 'kept 😀🎉\n') + block('last 𝄞 line\n', '𝄞🎵 last\n')
  for (const version of ['v1', 'v2']) {
    const before = counters()
    for (let end = 1; end <= diff.length; end++) {
      const prefix = diff.slice(0, end)
      const got = checkSync(prefix, original, false, version, `${version} sync ${end}`)
      const promised = await settled(hl.constructNewFileContent(prefix, original, false, version))
      assert.deepEqual(promised, got, `${version} promise ${end}`)
    }
    // A call whose kept diff ends between the halves of a pair does not resume it: after each
    // such prefix, its second call (same prefix) and the next prefix's first call start over.
    const splits = [...diff.slice(0, -1).matchAll(/[\uD800-\uDBFF]/g)].length
    assert.ok(splits >= 4)
    assert.deepEqual(moved(before), { hits: 2 * diff.length - 1 - 2 * splits, misses: 1 + 2 * splits })
    const final = checkSync(diff, original, true, version, `${version} final`)
    assert.equal(final.ok.newContent, 'title 🚀 rocket\nkept 😀🎉\n𝄞🎵 last\n')
  }
})

test('a lone surrogate in the original is kept where the addon gives U+FFFD', async () => {
  // The addon transcodes the original to UTF-8, so a lone surrogate becomes U+FFFD (the `.d.ts`
  // says so for constructNewFileContent). The JavaScript layer builds the result from slices of
  // the caller's original, so the part of the result copied from the original keeps its lone
  // surrogates, as Cline's own TypeScript does; text from the diff still crosses as UTF-8 (a
  // prefix that ends inside a pair gives U+FFFD in both). Positions agree: a lone surrogate and
  // U+FFFD are one UTF-16 unit each. So the layer's result, with its lone surrogates replaced
  // by U+FFFD, is the addon's, and the original's lone surrogates are there.
  emptyCache()
  const original = 'a\uD800b\n🚀 one\ntwo 🎉\nc\uDC00\n'
  const diff = block('two 🎉\n', '2 🎉🚀\n')
  for (const version of ['v1', 'v2']) {
    for (let end = 1; end <= diff.length; end++) {
      const prefix = diff.slice(0, end)
      const want = reference(prefix, original, false, version)
      const sync = hl.constructNewFileContentSync(prefix, original, false, version)
      for (const got of [sync, await hl.constructNewFileContent(prefix, original, false, version)]) {
        assert.deepEqual(got.matchIndices, want.matchIndices)
        assert.equal(got.newContent.replace(LONE, '\uFFFD'), want.newContent, `${version} ${end}`)
        if (got.newContent.length > 1) assert.ok(got.newContent.startsWith('a\uD800b\n'), `${version} ${end}: kept`)
      }
    }
    const got = hl.constructNewFileContentSync(diff, original, true, version)
    assert.equal(got.newContent, original.replace('two 🎉\n', '2 🎉🚀\n'), 'both lone surrogates kept')
    assert.equal(got.newContent.replace(LONE, '\uFFFD'), reference(diff, original, true, version).newContent)
  }

  // StreamingApplier in the Cline dialects: the same, in the preview and in finish().
  for (const dialect of ['cline-v1', 'cline-v2']) {
    const applier = new hl.StreamingApplier(original, { dialect })
    applier.push(diff)
    assert.equal(applier.preview, 'a\uD800b\n🚀 one\n2 🎉🚀\n')
    assert.equal(applier.finish().newContent, original.replace('two 🎉\n', '2 🎉🚀\n'))
  }
})

test(
  'lone surrogates in the original: the same result whatever the capacity and the dialect',
  () => {
    // With the cache off the layer still builds results from slices of the original (it only
    // stops resuming), and `native`'s finish() returns pieces like its preview, so the original's
    // lone surrogates are kept on every path.
    const original = 'a\uD800\nb\n'
    const diff = block('b\n', 'B\n')
    const withCache = hl.constructNewFileContentSync(diff, original, true)
    let withoutCache
    try {
      hl.setResumeCacheCapacity(0)
      withoutCache = hl.constructNewFileContentSync(diff, original, true)
    } finally {
      hl.setResumeCacheCapacity(4)
    }
    const applier = new hl.StreamingApplier(original, { dialect: 'native' })
    applier.push(diff)
    const preview = applier.preview
    assert.deepEqual(
      { withoutCache: withoutCache.newContent, finish: applier.finish().newContent },
      { withoutCache: withCache.newContent, finish: preview },
    )
  },
)
