'use strict'
// The `native` dialect from JavaScript: `applyDiff` and `StreamingApplier` with
// `{ dialect: "native" }` — tolerated drift and its report, refusals with a code and a message a
// model can act on, the partial policy, overlapping blocks, the options, and UTF-16 positions in
// streamed updates that splice the middle of the file.

const test = require('node:test')
const assert = require('node:assert/strict')

const hl = require('..')
const h = require('./helpers')

const block = (search, replace) => `------- SEARCH\n${search}=======\n${replace}+++++++ REPLACE\n`

/** The outcome of `diff` streamed through a native applier in `chunking`; the splices checked. */
function stream(original, diff, chunking, options = {}) {
  const applier = new hl.StreamingApplier(original, { dialect: 'native', ...options })
  let view = original
  for (const piece of h.split(diff, chunking)) view = h.applySplice(view, applier.push(piece))
  assert.equal(view, applier.preview, `${chunking}: the splices rebuild the preview`)
  return applier.finish()
}

/** The error `fn` throws (it must throw a core `Error`). */
function thrown(fn) {
  try {
    fn()
  } catch (err) {
    assert.ok(err instanceof Error && err.constructor === Error, `a plain Error: ${err}`)
    return err
  }
  assert.fail('did not throw')
}

test('whitespace drift is applied, and the report says how', () => {
  // A CRLF file with stray trailing whitespace; the model wrote LF, dropped the trailing
  // spaces of one line and the indentation of another block.
  const original = 'def f(a):\r\n    total = a  \r\n    return total\r\n\r\ndef g(b):\r\n    if b:\r\n        return 1\r\n    return 2\r\n'
  const diff =
    block('    total = a\n    return total\n', '    total = a + 1\n    return total\n') +
    block('if b:\n    return 1\n', '    if b:\n        return 10\n')
  const want = 'def f(a):\r\n    total = a + 1\r\n    return total\r\n\r\ndef g(b):\r\n    if b:\r\n        return 10\r\n    return 2\r\n'

  const outcome = hl.applyDiff(diff, original)
  assert.equal(outcome.newContent, want)
  assert.deepEqual(outcome.matchIndices, [original.indexOf('    total'), original.indexOf('    if b')])
  const [first, second] = outcome.blocks
  assert.deepEqual(
    { ...first },
    {
      index: 0,
      status: 'applied',
      strategy: 'trailing_whitespace',
      start: original.indexOf('    total'),
      end: original.indexOf('\r\n\r\ndef g') + 2,
      startLine: 2,
      endLine: 3,
      candidates: 1,
      indentDelta: 0,
      reindented: false,
      normalizations: ['line_endings', 'trailing_whitespace'],
      error: null,
    },
  )
  assert.equal(second.status, 'applied')
  assert.equal(second.strategy, 'indentation')
  assert.deepEqual([second.startLine, second.endLine, second.candidates], [6, 7, 1])
  assert.equal(second.indentDelta, 4)
  assert.equal(second.reindented, false, 'the replacement already had the file indentation')
  assert.ok(second.normalizations.includes('indentation'))
  assert.equal(second.error, null)

  // The replacement carrying the SEARCH text's (wrong) indentation is shifted back.
  const shifted = hl.applyDiff(block('if b:\n    return 1\n', 'if b:\n    return 10\n'), original)
  assert.equal(shifted.newContent, original.replace('        return 1\r\n', '        return 10\r\n'))
  assert.equal(shifted.blocks[0].reindented, true)

  for (const chunking of ['whole', 'line', 'char', 'random']) {
    assert.deepEqual(stream(original, diff, chunking), outcome, chunking)
  }
  // Cline v1 writes the replacement's LF line endings into the CRLF file, as Cline does.
  assert.equal(
    hl.applyDiff(diff, original, { dialect: 'cline-v1' }).newContent,
    'def f(a):\r\n    total = a + 1\n    return total\n\r\ndef g(b):\r\n    if b:\n        return 10\n    return 2\r\n',
  )
})

test('an ambiguous SEARCH is refused with ambiguous_match and the candidate lines', () => {
  const original = '🚀 config\nretries = 3\nname = "a"\nretries = 3\n'
  const diff = block('retries = 3\n', 'retries = 5\n')
  const message =
    'block 1: the SEARCH text matches 2 places: line 2, line 4. Include more surrounding lines so that it matches exactly one place.'
  const err = thrown(() => hl.applyDiff(diff, original))
  assert.equal(err.code, 'ambiguous_match')
  assert.equal(err.message, message)

  const applier = new hl.StreamingApplier(original, { dialect: 'native' })
  const u = applier.push(diff)
  assert.deepEqual([u.start, u.removed, u.inserted], [0, 0, ''], 'nothing applied')
  assert.equal(u.completed.length, 1)
  assert.equal(u.completed[0].status, 'failed')
  assert.equal(u.completed[0].error.code, 'ambiguous_match')
  assert.equal(applier.error.code, 'ambiguous_match')
  assert.equal(applier.error.message, message)
  assert.equal(applier.preview, original)
  const finished = thrown(() => applier.finish())
  assert.deepEqual([finished.code, finished.message], ['ambiguous_match', message])

  // Cline takes the first occurrence instead.
  assert.equal(hl.applyDiff(diff, original, { dialect: 'cline-v1' }).newContent, original.replace('retries = 3', 'retries = 5'))
  // A :start_line: hint next to one candidate picks it.
  const hinted = hl.applyDiff('<<<<<<< SEARCH\n:start_line:4\n-------\nretries = 3\n=======\nretries = 5\n>>>>>>> REPLACE\n', original)
  assert.equal(hinted.newContent, '🚀 config\nretries = 3\nname = "a"\nretries = 5\n')
  assert.deepEqual([hinted.blocks[0].startLine, hinted.blocks[0].candidates], [4, 2])
})

test('the partial policy applies what matched and reports the failed blocks', () => {
  const original = 'a = 1\nb = 2\nc = 3\n'
  const diff = block('a = 1\n', 'a = 10\n') + block('zzz = 9\n', 'q\n') + block('c = 3\n', 'c = 30\n')

  // All or nothing (the default): the refusal names the failed block and says nothing applied.
  const err = thrown(() => hl.applyDiff(diff, original))
  assert.equal(err.code, 'search_not_found')
  assert.match(err.message, /^block 2: the SEARCH text was not found/)
  assert.match(err.message, /No block was applied \(all or nothing\)/)
  assert.equal(thrown(() => hl.applyDiff(diff, original, { policy: 'all_or_nothing' })).message, err.message)

  const outcome = hl.applyDiff(diff, original, { policy: 'partial' })
  assert.equal(outcome.newContent, 'a = 10\nb = 2\nc = 30\n')
  assert.deepEqual(outcome.matchIndices, [0, 12])
  assert.deepEqual(
    outcome.blocks.map((b) => [b.index, b.status, b.strategy, b.startLine, b.endLine]),
    [
      [0, 'applied', 'exact', 1, 1],
      [1, 'failed', 'unmatched', 0, 0],
      [2, 'applied', 'exact', 3, 3],
    ],
  )
  const failed = outcome.blocks.filter((b) => b.status === 'failed')
  assert.equal(failed.length, 1)
  assert.ok(failed[0].error instanceof Error)
  assert.equal(failed[0].error.code, 'search_not_found')
  assert.match(failed[0].error.message, /^block 2: the SEARCH text was not found/)
  assert.doesNotMatch(failed[0].error.message, /all or nothing/)
  assert.equal(failed[0].candidates, 0)
  for (const b of outcome.blocks.filter((b) => b.status === 'applied')) assert.equal(b.error, null)

  for (const chunking of ['whole', 'line', 'char', 'random']) {
    assert.deepEqual(stream(original, diff, chunking, { policy: 'partial' }), outcome, chunking)
  }
  // While streaming, the failed block is reported as it completes; the others go on.
  const applier = new hl.StreamingApplier(original, { dialect: 'native', policy: 'partial' })
  const reports = h.split(diff, 'line').flatMap((piece) => applier.push(piece).completed)
  assert.deepEqual(reports.map((b) => b.status), ['applied', 'failed', 'applied'])
  assert.equal(applier.error.code, 'search_not_found')
  assert.equal(applier.preview, outcome.newContent)
})

test('overlapping blocks are refused with overlapping_blocks', () => {
  const original = 'a\nb\nc\n'
  const diff = block('a\nb\n', 'x\n') + block('b\nc\n', 'y\n')
  const err = thrown(() => hl.applyDiff(diff, original))
  assert.equal(err.code, 'overlapping_blocks')
  assert.match(err.message, /^block 2 \(lines 2-3\) overlaps block 1/)
  assert.equal(thrown(() => stream(original, diff, 'char')).code, 'overlapping_blocks')

  const partial = hl.applyDiff(diff, original, { policy: 'partial' })
  assert.equal(partial.newContent, 'x\nc\n')
  assert.deepEqual(partial.blocks.map((b) => [b.status, b.error?.code ?? null]), [
    ['applied', null],
    ['failed', 'overlapping_blocks'],
  ])
})

test('emoji: native updates splice the middle of the file at JavaScript string indices', () => {
  const original = '🚀🚀 header é\nkeep 中\nold 🎉 one\nmiddle 🚀\nold two\ntail 🚀\n'
  const diff = block('old 🎉 one\n', 'new 🎉🎉 one\n') + block('old two\n', 'new 😀 two\n')
  const want = original.replace('old 🎉 one', 'new 🎉🎉 one').replace('old two', 'new 😀 two')
  const starts = [original.indexOf('old 🎉'), original.indexOf('old two')]
  assert.deepEqual(starts, [21, 42], 'UTF-16 indices')
  assert.deepEqual(starts.map((i) => Array.from(original.slice(0, i)).length), [19, 38], 'not code points')

  for (const chunking of ['char', 'random', 'line']) {
    const applier = new hl.StreamingApplier(original, { dialect: 'native' })
    let view = original
    const completed = []
    let middle = 0
    for (const piece of h.split(diff, chunking)) {
      const u = applier.push(piece)
      assert.ok(u.start + u.removed <= view.length, `${chunking}: the splice lies inside the preview`)
      // A splice never cuts a surrogate pair.
      assert.ok(!/^[\uDC00-\uDFFF]/.test(view.slice(u.start)), `${chunking}: start ${u.start} is on a code point`)
      if (u.start + u.removed < view.length) middle += 1
      view = h.applySplice(view, u)
      assert.equal(view, applier.preview, `${chunking}: the splice rebuilds the preview`)
      completed.push(...u.completed)
    }
    assert.ok(middle > 0, `${chunking}: some splices are in the middle of the file`)
    assert.deepEqual(completed.map((b) => [b.start, b.end, b.startLine, b.endLine]), [
      [21, 32, 3, 3],
      [42, 50, 5, 5],
    ])
    assert.deepEqual(applier.matchIndices, starts)
    const outcome = applier.finish()
    assert.equal(outcome.newContent, want)
    assert.deepEqual(outcome.matchIndices, starts)
    assert.deepEqual(outcome, hl.applyDiff(diff, original))
  }
})

test('options: defaults, names and argument types', () => {
  const original = 'say(“hi”)\n'
  const diff = block('say(“hi”)\n', 'say(“bye”)\n')
  assert.equal(new hl.StreamingApplier(original).dialect, 'cline-v1', 'the applier default stays cline-v1')
  assert.equal(new hl.StreamingApplier(original, { dialect: 'native' }).dialect, 'native')
  assert.equal(new hl.StreamingApplier(original, { policy: 'partial' }).dialect, 'cline-v1', 'Cline ignores the policy')

  // applyDiff defaults to native: a drifted SEARCH (ASCII quotes) applies, where Cline refuses it.
  const drifted = block('say("hi")\n', 'say(“bye”)\n')
  assert.equal(hl.applyDiff(drifted, original).newContent, 'say(“bye”)\n')
  assert.equal(hl.applyDiff(drifted, original).blocks[0].strategy, 'punctuation')
  assert.deepEqual(hl.applyDiff(drifted, original, {}), hl.applyDiff(drifted, original, { dialect: 'native', policy: undefined }))
  assert.equal(thrown(() => hl.applyDiff(drifted, original, { dialect: 'cline-v1' })).code, 'search_not_found')
  // The Cline dialects through applyDiff give Cline's final call.
  for (const version of ['v1', 'v2']) {
    const cline = hl.constructNewFileContentSync(diff, original, true, version)
    const outcome = hl.applyDiff(diff, original, { dialect: h.dialectOf(version) })
    assert.deepEqual([outcome.newContent, outcome.matchIndices], [cline.newContent, cline.matchIndices])
  }

  const code = (name) => (err) => err instanceof Error && err.code === name
  assert.throws(() => hl.applyDiff(diff, original, { dialect: 'cline-v3' }), code('invalid_dialect'))
  assert.throws(() => hl.applyDiff(diff, original, { policy: 'best_effort' }), code('invalid_policy'))
  assert.throws(
    () => new hl.StreamingApplier(original, { dialect: 'native', policy: 'best_effort' }),
    (err) => code('invalid_policy')(err) && err.message === "unknown policy 'best_effort': expected one of all_or_nothing, partial",
  )

  const typeError = (err) => err instanceof TypeError && err.code === 'ERR_INVALID_ARG_TYPE'
  assert.throws(() => hl.applyDiff(1, original), typeError)
  assert.throws(() => hl.applyDiff(diff), typeError)
  assert.throws(() => hl.applyDiff(diff, original, 'native'), typeError)
  assert.throws(() => hl.applyDiff(diff, original, { policy: 1 }), /"options.policy" argument must be of type string/)
  assert.throws(() => new hl.StreamingApplier(original, { policy: true }), typeError)
  assert.equal(thrown(() => hl.applyDiff('no blocks here\n', original)).code, 'malformed_block')
})

test('a native applier used after finish throws already_finished', () => {
  const applier = new hl.StreamingApplier('a\n', { dialect: 'native' })
  applier.push(block('a\n', 'b\n'))
  assert.equal(applier.finish().newContent, 'b\n')
  const finished = (err) => err instanceof Error && err.code === 'already_finished'
  assert.throws(() => applier.push('x'), finished)
  assert.throws(() => applier.preview, finished)
  assert.throws(() => applier.finish(), finished)
})

test('applyDiff builds the same result as the addon converts, key order included', () => {
  // lib/outcome.js builds applyDiff's objects from the numbers the addon writes; the addon's
  // own conversion (`native.applyDiff`) is the reference, on every robustness, Roo and unified
  // diff row, in each dialect and policy that reads it, and on a diff of more blocks than the
  // packed numbers have room for.
  const native = require('../lib/native.js')
  const same = (diff, original, options) => {
    let want
    let got
    try {
      want = native.applyDiff(diff, original, options)
    } catch (e) {
      assert.throws(() => hl.applyDiff(diff, original, options), (g) => g.code === e.code && g.message === e.message)
      return 'thrown'
    }
    got = hl.applyDiff(diff, original, options)
    assert.equal(JSON.stringify(got), JSON.stringify(want))
    assert.deepEqual(got, want)
    return got.blocks.some((b) => b.normalizations.length > 0 || b.reindented || b.indentDelta < 0) ? 'drift' : 'plain'
  }
  const seen = { thrown: 0, drift: 0, plain: 0 }
  const rows = [...h.load('robustness'), ...h.load('robustness-v2').filter((_, i) => i % 4 === 0)]
  for (const r of rows) {
    for (const options of [undefined, { policy: 'partial' }, { dialect: 'cline-v1' }]) seen[same(r.diff, r.original, options)]++
  }
  for (const r of h.load('roo-multi-search-replace')) {
    if (typeof r.diff === 'string' && typeof r.original === 'string') seen[same(r.diff, r.original, { dialect: 'roo' })]++
  }
  for (const r of h.load('unified-diff')) seen[same(r.diff, r.original, { dialect: 'udiff' })]++
  const lines = Array.from({ length: 600 }, (_, i) => `line ${i}`)
  const many = lines.map((l) => `<<<<<<< SEARCH\n${l}\n=======\n${l}!\n>>>>>>> REPLACE\n`).join('')
  assert.equal(same(many, lines.join('\n') + '\n'), 'plain')
  // The rows reach every branch: errors, drift (normalizations, reindented, negative deltas), plain.
  assert.ok(seen.thrown > 100 && seen.drift > 100 && seen.plain > 100, JSON.stringify(seen))
})
