'use strict'
// applyV4a: V4A per-file bodies (OpenAI's Responses-API apply_patch tool) applied as the OpenAI
// Agents SDK's apply_diff does.
//
//   v4a stateless   every row of tests/vectors/openai-v4a/v4a.jsonl through applyV4a(input,
//                   diff, mode): the reference's text, or an Error with its exact message
//   v4a codex       the same bodies through the Codex dialect's entry for one file
//                   (applyPatch(body, files, { path, mode })) against what codex-rs did; the
//                   rows where the dialect differs by design are listed with the reason (the
//                   same list as hunkloom-testkit's v4a module) and must agree apart from line
//                   endings
//
// plus the modes, the error codes and the argument checks. No V4A row is skipped.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')

const hl = require('..')
const h = require('./helpers')

const ROWS = fs
  .readFileSync(path.join(__dirname, '..', '..', 'tests', 'vectors', 'openai-v4a', 'v4a.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l))

function report(failures) {
  assert.equal(failures.length, 0, failures.slice(0, 5).join('\n'))
}

test('v4a vectors: applyV4a gives the reference text or its exact error', () => {
  const failures = []
  for (const row of ROWS) {
    let got
    try {
      got = { output: hl.applyV4a(row.input, row.diff, row.mode) }
    } catch (err) {
      h.observeError(err) // rethrows anything but a core error
      got = { error: err.message, error_type: 'ValueError' }
    }
    try {
      assert.deepStrictEqual(got, row.expect)
    } catch {
      failures.push(`${row.id} (${row.family})\n  want ${JSON.stringify(row.expect)}\n  got  ${JSON.stringify(got)}`)
    }
  }
  const passed = ROWS.length - failures.length
  console.log(`v4a stateless: ${passed}/${ROWS.length} passed`)
  console.log(`v4a: ${passed}/${ROWS.length} passed`)
  report(failures)
})

/** 'pass' or a failure text. */
function judgeCodex(row, got) {
  const file = row.mode === 'create' ? 'src/new.txt' : 'src/app.txt'
  const codex = row.codex
  if (codex.error !== undefined) {
    if (got.error === undefined) return `codex-rs failed (${JSON.stringify(codex.error)}), got files`
    // The recorded message lost its trailing line feeds; codex-rs's parse errors word their
    // line numbers differently, so only its "Failed to find" messages are compared.
    if (codex.error.startsWith('Failed to find') && got.error.replace(/\n+$/, '') !== codex.error) {
      return `want ${JSON.stringify(codex.error)}\n  got  ${JSON.stringify(got.error)}`
    }
    return 'pass'
  }
  if (got.error !== undefined) return `codex-rs succeeded, got error ${JSON.stringify(got.error)}`
  const want = codex.files !== undefined ? JSON.stringify(codex.files) : codex.output
  const have = codex.files !== undefined ? JSON.stringify(got.files) : got.files[file]
  if (have === want) return 'pass'
  return `want ${JSON.stringify(want)}\n  got  ${JSON.stringify(have)}`
}

test('v4a codex: the same bodies through applyPatch with { path } against codex-rs', () => {
  const failures = []
  for (const row of ROWS) {
    const file = row.mode === 'create' ? 'src/new.txt' : 'src/app.txt'
    const files = row.mode === 'create' ? {} : { [file]: row.input }
    let got
    try {
      got = { files: hl.applyPatch(row.diff, files, { path: file, mode: row.mode }).files }
    } catch (err) {
      h.observeError(err)
      got = { error: err.message }
    }
    const verdict = judgeCodex(row, got)
    if (verdict !== 'pass') failures.push(`${row.id} (${row.family}): ${verdict}`)
  }
  const passed = ROWS.length - failures.length
  console.log(`v4a codex: ${passed}/${ROWS.length} passed`)
  report(failures)
})

test('applyV4a: modes, error codes and argument checks', () => {
  assert.equal(hl.applyV4a('a\r\nb\r\n', '@@\n a\n-b\n+B\n'), 'a\r\nB\r\n')
  // Create mode ignores the input and, like the reference, writes no final newline.
  assert.equal(hl.applyV4a('ignored', '+one\n+two\n', 'create'), 'one\ntwo')
  assert.throws(() => hl.applyV4a('a\n', '-b\n+c\n'), {
    code: 'patch_context_not_found',
    message: 'Invalid Context 0:\nb',
  })
  assert.throws(() => hl.applyV4a('a\n', '\tx\n'), { code: 'invalid_patch_hunk', message: 'Invalid Line: \tx' })
  assert.throws(() => hl.applyV4a('a\n', '', 'update'), { code: 'invalid_dialect' })
  assert.throws(() => hl.applyV4a(null, ''), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' })
  assert.throws(() => hl.applyV4a('', '', 1), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' })
})

test('applyPatch reads a bare body for one file with { path }', () => {
  const files = { 'app.py': 'def f():\n    return 1\n', 'other.py': 'x\n' }
  const result = hl.applyPatch('@@ def f():\n-    return 1\n+    return 2\n', files, { path: 'app.py' })
  assert.deepStrictEqual(result.files, { 'app.py': 'def f():\n    return 2\n', 'other.py': 'x\n' })
  assert.deepStrictEqual(hl.applyPatch('+new\n', {}, { path: 'n.txt', mode: 'create' }).files, {
    'n.txt': 'new\n',
  })
  // A single anchor that is not found is advisory in V4A but an error in Codex.
  const body = '@@ def g():\n-    return 1\n+    return 2\n'
  assert.equal(hl.applyV4a(files['app.py'], body), 'def f():\n    return 2\n')
  assert.throws(() => hl.applyPatch(body, files, { path: 'app.py' }), {
    code: 'patch_context_not_found',
    message: "Failed to find context 'def g():' in app.py",
  })
  assert.throws(() => hl.applyPatch('+x\n', files, { path: 'app.py', dialect: 'cline' }), { code: 'invalid_dialect' })
  assert.throws(() => hl.applyPatch('+x\n', files, { mode: 'create' }), { code: 'invalid_dialect' })
})

test('v4a native: bodies read with { dialect: "native" } give the intended text or a refusal, never another text', () => {
  const counts = { correct: 0, refused: 0, wrong: 0 }
  const wrong = []
  for (const row of ROWS) {
    if (row.intended === null || row.intended === undefined) continue
    const file = row.mode === 'create' ? 'src/new.txt' : 'src/app.txt'
    const files = row.mode === 'create' ? {} : { [file]: row.input }
    let got
    try {
      got = hl.applyPatch(row.diff, files, { path: file, mode: row.mode, dialect: 'native' }).files[file]
    } catch (err) {
      h.observeError(err)
      counts.refused++
      continue
    }
    if (got === row.intended) counts.correct++
    else {
      counts.wrong++
      wrong.push(row.id)
    }
  }
  const total = counts.correct + counts.refused + counts.wrong
  console.log(`v4a native: ${counts.correct}/${total} correct, ${counts.refused} refused, ${counts.wrong} wrong`)
  assert.deepEqual(wrong, [])
  assert.ok(counts.correct * 5 >= total * 4, JSON.stringify(counts))
})

test('a native patch names the places it cannot choose between', () => {
  const files = { 'a.py': 'x = 1\ny = 2\nx = 1\ny = 2\n' }
  const patch = '*** Begin Patch\n*** Update File: a.py\n x = 1\n-y = 2\n+y = 3\n*** End Patch\n'
  assert.throws(() => hl.applyPatch(patch, files, { dialect: 'native' }), (e) => e.code === 'ambiguous_match' && /at lines 1 and 3/.test(e.message))
  const atEnd = patch.replace('+y = 3\n', '+y = 3\n*** End of File\n')
  assert.equal(hl.applyPatch(atEnd, files, { dialect: 'native' }).files['a.py'], 'x = 1\ny = 2\nx = 1\ny = 3\n')
})

test('NativeBodyApplier streams a body with a report per chunk, as applyPatch reads it whole', () => {
  const yaml = 'jobs:\n  lint:\n    steps:\n      - checkout\n  build:\n    steps:\n      - checkout\n'
  const body = '@@   build:\n   steps:\n     - checkout\n+    - compile\n'
  const whole = hl.applyPatch(body, { 'ci.yml': yaml }, { path: 'ci.yml', dialect: 'native' }).files['ci.yml']
  assert.equal(whole, yaml + '      - compile\n')
  for (const size of [1, 3, 7, body.length]) {
    const applier = new hl.NativeBodyApplier(yaml)
    for (let i = 0; i < body.length; i += size) applier.push(body.slice(i, i + size))
    const { newContent, chunks } = applier.finish()
    assert.equal(newContent, whole)
    assert.deepEqual(
      chunks.map((c) => [c.index, c.line, c.strategy, c.chosenBy, c.indentDelta]),
      [[1, 6, 'indentation', 'anchor', 2]],
    )
  }
  const applier = new hl.NativeBodyApplier('a\nb\n')
  assert.equal(applier.push('-a\n+A\n@@\n')[0].strategy, 'exact')
  assert.equal(applier.preview, 'A\nb\n')
  assert.throws(() => applier.push('-zzz\n+y\n@@\n'), (e) => e.code === 'patch_context_not_found')
  assert.throws(() => applier.finish(), (e) => e.code === 'patch_context_not_found')
})
