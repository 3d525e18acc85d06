'use strict'
// applyPatch: multi-file `*** Begin Patch` patches in memory.
//
//   cline-apply-patch apply_patch   every `apply_patch` row of tests/vectors/cline-apply-patch.jsonl
//                                   through applyPatch(…, { dialect: "cline" }), compared like
//                                   crates/hunkloom/tests/cline_patch_vectors.rs: the whole file
//                                   map afterwards, the deleted paths, the fuzz, each update's
//                                   start lines and the warnings, or Cline's error message
//   codex-scenarios (applyPatch)    tests/vectors/patch/ scenario folders: input/ read into a map,
//                                   patch.txt applied in the codex dialect, the whole tree
//                                   compared with expected/ (errors ignored, as Codex's runner
//                                   does; 015 is the documented all-or-nothing deviation, and
//                                   policy "partial" reproduces Codex's tree)
//
// plus the errors' codes and the argument checks. No row is skipped.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')

const hl = require('..')
const h = require('./helpers')

const VECTORS = path.join(__dirname, '..', '..', 'tests', 'vectors')

function equal(a, b) {
  try {
    assert.deepStrictEqual(a, b)
    return true
  } catch {
    return false
  }
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

/** A row's result in the vector's JSON shape (optional fields left out, as Cline does). */
function clineObserve(row) {
  let result
  try {
    result = hl.applyPatch(row.patch, row.files, { dialect: 'cline' })
  } catch (err) {
    return { error: err.message, error_name: 'DiffError' }
  }
  const starts = {}
  for (const change of result.changes) {
    if (change.kind === 'update') starts[change.path] = change.startLines
  }
  const out = {
    files: result.files,
    deleted: result.deleted,
    fuzz: result.fuzz,
    start_line_numbers: starts,
  }
  if (result.warnings.length > 0) {
    out.warnings = result.warnings.map((w) => {
      const m = { path: w.path }
      if (w.chunkIndex !== null) m.chunkIndex = w.chunkIndex
      m.message = w.message
      if (w.context !== null) m.context = w.context
      return m
    })
  }
  return out
}

test('cline-apply-patch apply_patch rows through applyPatch', () => {
  const rows = h.load('cline-apply-patch').filter((r) => r.op === 'apply_patch')
  assert.ok(rows.length >= 147, `${rows.length} apply_patch rows`)
  const failures = []
  for (const row of rows) {
    const got = clineObserve(row)
    if (!equal(got, row.expect)) failures.push({ id: row.id, want: row.expect, got })
  }
  console.log(`cline-apply-patch apply_patch: ${rows.length - failures.length}/${rows.length} passed`)
  report(failures)
})

/** Every file under `root` by relative path (`/`-separated), and every directory. */
function readTree(root) {
  const tree = { files: {}, dirs: new Set() }
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name)
      const rel = path.relative(root, full).split(path.sep).join('/')
      if (entry.isDirectory()) {
        tree.dirs.add(rel)
        walk(full)
      } else {
        tree.files[rel] = fs.readFileSync(full, 'utf8')
      }
    }
  }
  if (fs.existsSync(root)) walk(root)
  return tree
}

/** The tree after applying `patch` to `input` (an error leaves it unchanged). */
function runScenario(input, patch, policy) {
  let files = { ...input.files }
  const dirs = new Set(input.dirs)
  try {
    files = hl.applyPatch(patch, input.files, { policy }).files
  } catch (err) {
    assert.equal(typeof err.code, 'string', `${err}`)
    return { files, dirs }
  }
  for (const p of Object.keys(files)) {
    for (let at = p.lastIndexOf('/'); at > 0; at = p.lastIndexOf('/', at - 1)) dirs.add(p.slice(0, at))
  }
  return { files, dirs }
}

const DEVIATION = '015_failure_after_partial_success_leaves_changes'

test('codex-scenarios through applyPatch (codex dialect)', () => {
  const root = path.join(VECTORS, 'patch')
  const scenarios = ['scenarios', 'scenarios-eol-supplement'].flatMap((set) =>
    fs
      .readdirSync(path.join(root, set), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => path.join(root, set, e.name))
      .sort(),
  )
  assert.ok(scenarios.length >= 25, `${scenarios.length} scenarios`)
  const failures = []
  for (const dir of scenarios) {
    const name = path.basename(dir)
    const input = readTree(path.join(dir, 'input'))
    const expected = readTree(path.join(dir, 'expected'))
    const patch = fs.readFileSync(path.join(dir, 'patch.txt'), 'utf8')
    const got = runScenario(input, patch, 'all_or_nothing')
    if (name === DEVIATION) {
      // All or nothing leaves the tree as it was; "partial" reproduces Codex's tree.
      const partial = runScenario(input, patch, 'partial')
      if (!equal(got, input) || !equal(partial, expected)) failures.push({ id: name, want: expected, got: partial })
    } else if (!equal(got, expected)) {
      failures.push({ id: name, want: expected, got })
    }
  }
  console.log(`codex-scenarios (applyPatch): ${scenarios.length - failures.length}/${scenarios.length} passed`)
  report(failures)
})

const wrap = (body) => `*** Begin Patch\n${body}\n*** End Patch\n`

test('codex: add, update with CRLF kept, move and delete in one patch', () => {
  const files = { 'a.txt': 'one\r\ntwo\r\n', 'old.txt': 'x\n', 'gone.txt': 'bye\n' }
  const patch = wrap(
    [
      '*** Add File: new/b.txt',
      '+hello',
      '*** Update File: a.txt',
      '@@',
      '-two',
      '+TWO',
      '*** Update File: old.txt',
      '*** Move to: moved.txt',
      '@@',
      '-x',
      '+y',
      '*** Delete File: gone.txt',
    ].join('\n'),
  )
  const result = hl.applyPatch(patch, files)
  assert.deepEqual(result.files, { 'a.txt': 'one\r\nTWO\r\n', 'moved.txt': 'y\n', 'new/b.txt': 'hello\n' })
  assert.deepEqual(result.deleted, ['old.txt', 'gone.txt'])
  assert.deepEqual(result.warnings, [])
  assert.equal(result.fuzz, 0)
  assert.equal(result.failure, null)
  assert.deepEqual(
    result.changes.map((c) => [c.path, c.kind, c.moveTo, c.startLines]),
    [
      ['new/b.txt', 'add', null, []],
      ['a.txt', 'update', null, [2]],
      ['old.txt', 'update', 'moved.txt', [1]],
      ['gone.txt', 'delete', null, []],
    ],
  )
  // The input map is not modified.
  assert.deepEqual(files, { 'a.txt': 'one\r\ntwo\r\n', 'old.txt': 'x\n', 'gone.txt': 'bye\n' })
})

test('codex: a failing hunk throws with a code, or with "partial" keeps the hunks before it', () => {
  const patch = wrap('*** Add File: a\n+x\n*** Update File: missing\n@@\n-old\n+new')
  assert.throws(() => hl.applyPatch(patch, {}), (e) => e instanceof Error && e.code === 'patch_file_not_found')
  const partial = hl.applyPatch(patch, {}, { policy: 'partial' })
  assert.deepEqual(partial.files, { a: 'x\n' })
  assert.equal(partial.failure.hunk, 1)
  assert.ok(partial.failure.error instanceof Error)
  assert.equal(partial.failure.error.code, 'patch_file_not_found')
})

test('errors carry stable codes', () => {
  const code = (c) => (e) => e instanceof Error && e.code === c
  assert.throws(() => hl.applyPatch(wrap('*** Update File: f\n@@\n-zzz\n+y'), { f: 'a\n' }), (e) =>
    code('patch_context_not_found')(e) && e.message === 'Failed to find expected lines in f:\nzzz',
  )
  assert.throws(() => hl.applyPatch(wrap('*** Delete File: g'), {}), code('patch_file_not_found'))
  assert.throws(() => hl.applyPatch('*** Begin Patch\n*** End Patch\n', {}), code('empty_patch'))
  assert.throws(() => hl.applyPatch('not a patch', {}), code('invalid_patch'))
  assert.throws(() => hl.applyPatch(wrap('*** Frobnicate File: f'), {}), (e) =>
    code('invalid_patch_hunk')(e) && e.message.startsWith('invalid hunk at line 2,'),
  )
  assert.throws(() => hl.applyPatch(wrap('*** Add File: a\n+x'), {}, { dialect: 'git' }), code('invalid_dialect'))
  assert.throws(() => hl.applyPatch(wrap('*** Add File: a\n+x'), {}, { policy: 'best_effort' }), code('invalid_policy'))
  // Cline's messages in the cline dialect.
  assert.throws(() => hl.applyPatch(wrap('*** Delete File: g'), {}, { dialect: 'cline' }), (e) =>
    code('patch_file_not_found')(e) && e.message === 'File not found: g',
  )
})

test('wrong argument types throw a TypeError', () => {
  const typeError = (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE'
  const patch = wrap('*** Add File: a\n+x')
  assert.throws(() => hl.applyPatch(42, {}), typeError)
  assert.throws(() => hl.applyPatch(patch), typeError)
  assert.throws(() => hl.applyPatch(patch, null), typeError)
  assert.throws(() => hl.applyPatch(patch, ['x']), typeError)
  assert.throws(() => hl.applyPatch(patch, { a: 1 }), (e) => typeError(e) && /files\["a"\]/.test(e.message))
  assert.throws(() => hl.applyPatch(patch, {}, 'codex'), typeError)
  assert.throws(() => hl.applyPatch(patch, {}, { dialect: 1 }), typeError)
})

test('any path is a file: __proto__ and constructor stay own properties of the result', () => {
  const files = JSON.parse('{"__proto__":"a\\n","constructor":"c\\n"}')
  const result = hl.applyPatch(wrap('*** Update File: __proto__\n@@\n-a\n+b\n*** Add File: toString\n+t'), files)
  assert.deepEqual(Object.keys(result.files), ['__proto__', 'constructor', 'toString'])
  assert.equal(Object.getPrototypeOf(result.files), Object.prototype)
  assert.equal(Object.getOwnPropertyDescriptor(result.files, '__proto__').value, 'b\n')
  assert.equal(result.files.constructor, 'c\n')
})
