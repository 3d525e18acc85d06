'use strict'
// The aider corpora (tests/vectors/aider/, format in its README) through
// applyPatch(reply, files, { dialect: 'aider' | 'aider-fenced' | 'aider-whole' }), checked as
// crates/hunkloom/tests/aider_vectors.rs checks them: `ok` gives exactly the files aider left;
// `error` throws with aider's text as the message, and with policy 'partial' gives the files
// aider left (blocks that matched, empty files it created); `exception` (aider itself crashed)
// throws. No row is skipped.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')

const { applyPatch } = require('..')

const DIR = path.join(__dirname, '..', '..', 'tests', 'vectors', 'aider')
const DIALECTS = { diff: 'aider', 'diff-fenced': 'aider-fenced', whole: 'aider-whole' }

function load(name) {
  return fs
    .readFileSync(path.join(DIR, `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line))
}

function answer(c, policy) {
  try {
    return { files: applyPatch(c.reply, c.files, { dialect: DIALECTS[c.format], policy }).files }
  } catch (error) {
    return { error }
  }
}

function same(a, b) {
  try {
    assert.deepStrictEqual(a, b)
    return true
  } catch {
    return false
  }
}

function judge(c) {
  const want = c.expect
  const whole = answer(c, 'all_or_nothing')
  const partial = answer(c, 'partial')
  if (want.outcome === 'ok') {
    if (!whole.files || !same({ ...whole.files }, want.files)) return `all_or_nothing: ${JSON.stringify(whole.error ? whole.error.message : whole.files)}`
    if (!partial.files || !same({ ...partial.files }, want.files)) return 'partial: files differ'
    return null
  }
  if (want.outcome === 'error') {
    if (!whole.error) return 'applied where aider refused'
    if (whole.error.message !== want.error) return `message ${JSON.stringify(whole.error.message)}`
    return partial.files && same({ ...partial.files }, want.files) ? null : 'partial: files differ'
  }
  return whole.error ? null : 'applied where aider crashed'
}

for (const name of ['aider', 'aider-differences']) {
  test(`aider-${name}: every case`, () => {
    const cases = load(name)
    assert.ok(cases.length > 0)
    const failures = []
    for (const c of cases) {
      const why = judge(c)
      if (why !== null) failures.push(`${c.id} ${why}`)
    }
    console.log(`# aider-${name}: ${cases.length - failures.length}/${cases.length} passed`)
    assert.equal(failures.length, 0, failures.slice(0, 5).join('\n'))
  })
}

// Line breaks as '\n' and a final newline, as aider writes every file it edits.
function asAiderWrites(files) {
  const out = {}
  for (const [p, t] of Object.entries(files)) {
    const text = t.replace(/\r\n/g, '\n').replace(/\r/g, '\n')
    out[p] = text && !text.endsWith('\n') ? text + '\n' : text
  }
  return out
}

for (const name of ['aider', 'aider-differences']) {
  test(`aider-native-${name}: where aider applied a reply, the same files or a refusal`, () => {
    let correct = 0
    let refused = 0
    const wrong = []
    for (const c of load(name)) {
      if (c.format === 'whole' || c.expect.outcome !== 'ok') continue
      let files
      try {
        files = applyPatch(c.reply, c.files, { dialect: 'aider-native' }).files
      } catch {
        refused += 1
        continue
      }
      if (same(asAiderWrites(files), asAiderWrites(c.expect.files))) correct += 1
      else wrong.push(c.id)
    }
    console.log(`# aider-native-${name}: ${correct}/${correct + refused + wrong.length} correct, ${refused} refused, ${wrong.length} wrong`)
    assert.deepStrictEqual(wrong, [])
  })
}

test('an aider reply edits one file and creates another; a miss throws aider\'s text', () => {
  const reply =
    'app.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n\n' +
    'new.py\n```python\n<<<<<<< SEARCH\n=======\nprint()\n>>>>>>> REPLACE\n```\n'
  const { files } = applyPatch(reply, { 'app.py': 'x = 1\n' }, { dialect: 'aider' })
  assert.deepStrictEqual({ ...files }, { 'app.py': 'x = 2\n', 'new.py': 'print()\n' })
  assert.throws(
    () => applyPatch(reply.replace('x = 1', 'y = 1'), { 'app.py': 'x = 1\n' }, { dialect: 'aider' }),
    (e) => e.code === 'patch_context_not_found' && e.message.startsWith('# 1 SEARCH/REPLACE block failed to match!'),
  )
})

const { AiderApplier } = require('..')

// The reply pushed in `pieces`: the files after finish, or the error's message.
function streamed(c, pieces) {
  try {
    const applier = new AiderApplier(c.files, { dialect: DIALECTS[c.format] })
    for (const piece of pieces) applier.push(piece)
    return { files: { ...applier.finish().files } }
  } catch (error) {
    return { error: error.message }
  }
}

for (const name of ['aider', 'aider-differences']) {
  test(`AiderApplier over ${name}: pushed per line and at random cuts, it ends as applyPatch does`, () => {
    const failures = []
    let seed = 7
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648)
    for (const c of load(name)) {
      const once = answer(c, 'all_or_nothing')
      const want = once.error ? { error: once.error.message } : { files: { ...once.files } }
      const lines = c.reply.split(/(?<=\n)/)
      const cuts = []
      let at = 0
      while (at < c.reply.length) {
        const next = Math.min(c.reply.length, at + 1 + Math.floor(random() * 40))
        cuts.push(c.reply.slice(at, next))
        at = next
      }
      for (const pieces of [lines, cuts]) {
        if (!same(streamed(c, pieces), want)) {
          failures.push(c.id)
          break
        }
      }
    }
    assert.deepStrictEqual(failures, [])
  })
}

test('AiderApplier: the preview follows the reply block by block', () => {
  const applier = new AiderApplier({ 'app.py': 'x = 1\ny = 1\n' })
  assert.deepStrictEqual(applier.push('app.py\n```\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n'), [])
  assert.equal(applier.preview('app.py'), 'x = 1\ny = 1\n')
  assert.deepStrictEqual(applier.push('>>>>>>> REPLACE\n```\n\nnew.py\n```\n<<<<<<< SEARCH\n=======\n'), ['app.py'])
  assert.equal(applier.preview('app.py'), 'x = 2\ny = 1\n')
  assert.deepStrictEqual(applier.push('print()\n>>>>>>> REPLACE\n```\n'), ['new.py'])
  assert.deepStrictEqual(applier.touched, ['app.py', 'new.py'])
  assert.equal(applier.preview('nope.py'), null)
  assert.deepStrictEqual({ ...applier.finish().files }, { 'app.py': 'x = 2\ny = 1\n', 'new.py': 'print()\n' })
  assert.throws(() => applier.push('more'), (e) => e.code === 'already_finished')
  assert.throws(() => new AiderApplier({}, { dialect: 'codex' }), (e) => e.code === 'invalid_dialect')
})
