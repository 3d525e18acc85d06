'use strict'
// The unified-diff corpus (tests/vectors/unified-diff.jsonl) through Node, judged exactly as
// crates/hunkloom/tests/udiff_vectors.rs judges it (judging in
// crates/hunkloom-testkit/src/udiff.rs, format in tests/vectors/UNIFIED-DIFF.md):
//
// - `udiff-strict`: `applyDiff(..., { dialect: 'udiff-strict' })` must be exact with `git
//   apply`: the same content, or a failure with git's exit status (128: `invalid_patch`; 1:
//   `patch_context_not_found`) and git's `error:` lines as the message; `udiff-strict-recount`
//   the same with `recount: true` against `git apply --recount`;
// - `udiff-native`: `applyDiff(..., { dialect: 'udiff' })` against `intended`: correct, refused or
//   wrong (rows whose `intended` is null are not scored); no row may be wrong, and more rows
//   must be correct than GNU `patch` managed (805);
// - a `StreamingApplier` in each dialect fed the diff whole, per line and in seeded random
//   pieces must give `applyDiff`'s outcome, its splices rebuilding the preview (per character is
//   left to the Rust runner: the same code path, 2.5 million pushes through the binding).
//
// Prints `udiff-strict: P/T exact`, `udiff-strict-recount: P/T exact`, `udiff-native: C/T
// correct, R refused, W wrong (U unscored: intended is null)` and `udiff <dialect> <mode>: P/T
// passed`.

const test = require('node:test')
const assert = require('node:assert/strict')

const { StreamingApplier, Workspace, applyDiff, applyPatch } = require('..')
const h = require('./helpers')

const PATCH_CORRECT = 805
const MODES = ['whole', 'line', 'random']

/** What the engine did: `{ content }` or `{ code, message }`. */
function observe(run) {
  try {
    return { content: run() }
  } catch (err) {
    if (!(err instanceof Error) || typeof err.code !== 'string' || err.code.startsWith('ERR_')) throw err
    return { code: err.code, message: err.message }
  }
}

function stateless(c, dialect, recount) {
  return observe(() => applyDiff(c.diff, c.original, { dialect, recount }).newContent)
}

function streamed(c, dialect, recount, mode) {
  const applier = new StreamingApplier(c.original, { dialect, recount })
  let mirror = c.original
  for (const piece of h.split(c.diff, mode)) mirror = h.applySplice(mirror, applier.push(piece))
  if (mirror !== applier.preview) return 'the splices do not rebuild the preview'
  return observe(() => applier.finish().newContent)
}

function errorLines(stderr) {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('error: '))
    .join('\n')
}

/** null when `got` is exactly what git did (`run`), else the difference. */
function judgeStrict(run, got) {
  if (run.exit_code === 0) return got.content === run.output ? null : 'git applied it; we did not give its content'
  if (got.content !== undefined) return `git failed (exit ${run.exit_code}); we applied it`
  const codes = run.exit_code === 128 ? ['invalid_patch'] : ['patch_context_not_found', 'patch_file_exists']
  if (!codes.includes(got.code)) return `git exit ${run.exit_code}, our code ${got.code}`
  const want = errorLines(run.stderr)
  return got.message === want ? null : `message ${JSON.stringify(got.message)}, git's ${JSON.stringify(want)}`
}

test('unified-diff corpus: udiff-strict against git apply, udiff against the intent, every chunking', () => {
  const cases = h.load('unified-diff')
  assert.equal(cases.length, 1200)
  const problems = []
  for (const [name, recount, ref] of [
    ['udiff-strict', false, 'git_apply'],
    ['udiff-strict-recount', true, 'git_apply_recount'],
  ]) {
    let exact = 0
    for (const c of cases) {
      const why = judgeStrict(c[ref], stateless(c, 'udiff-strict', recount))
      if (why === null) exact += 1
      else problems.push(`${name} ${c.id}: ${why}`)
    }
    console.log(`${name}: ${exact}/${cases.length} exact`)
  }

  let correct = 0
  let refused = 0
  let wrong = 0
  let unscored = 0
  for (const c of cases) {
    const got = stateless(c, 'udiff', false)
    if (c.intended === null) unscored += 1
    else if (got.content === undefined) refused += 1
    else if (got.content === c.intended) correct += 1
    else {
      wrong += 1
      problems.push(`udiff-native ${c.id} (${c.tags[0]}): applied wrongly`)
    }
  }
  console.log(
    `udiff-native: ${correct}/${cases.length} correct, ${refused} refused, ${wrong} wrong (${unscored} unscored: intended is null)`,
  )
  if (correct <= PATCH_CORRECT) problems.push(`udiff-native: ${correct} correct, not more than GNU patch's ${PATCH_CORRECT}`)

  for (const [dialect, recount] of [
    ['udiff-strict', false],
    ['udiff-strict', true],
    ['udiff', false],
  ]) {
    const name = dialect + (recount ? '-recount' : '')
    const passed = Object.fromEntries(MODES.map((m) => [m, 0]))
    for (const c of cases) {
      const want = stateless(c, dialect, recount)
      for (const mode of MODES) {
        const got = streamed(c, dialect, recount, mode)
        if (typeof got !== 'string' && got.content === want.content && got.code === want.code && got.message === want.message) {
          passed[mode] += 1
        } else problems.push(`${name} ${mode} ${c.id}: ${typeof got === 'string' ? got : 'differs from applyDiff'}`)
      }
    }
    for (const mode of MODES) console.log(`udiff ${name} ${mode}: ${passed[mode]}/${cases.length} passed`)
  }
  assert.deepEqual(problems.slice(0, 40), [], `${problems.length} problems`)
})

test('udiff: a hunk matching two places is refused with both, whatever its line numbers', () => {
  const twice = 'x\ny\nx\ny\n'
  assert.throws(
    () => applyDiff('@@ -3,2 +3,2 @@\n x\n-y\n+z\n', twice, { dialect: 'udiff' }),
    (e) => e.code === 'ambiguous_match' && e.matches.map((m) => m.startLine).join() === '1,3',
  )
  // git takes the one nearest the header's line.
  assert.equal(applyDiff('--- a/f\n+++ b/f\n@@ -3,2 +3,2 @@\n x\n-y\n+z\n', twice, { dialect: 'udiff-strict' }).newContent, 'x\ny\nx\nz\n')
  assert.throws(() => applyDiff('x', twice, { dialect: 'udiff-strict', recount: 'yes' }), { code: 'ERR_INVALID_ARG_TYPE' })
})

test('udiff: git patches in memory and through a workspace, all or nothing', (t) => {
  const patch =
    'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n' +
    'diff --git a/b.txt b/b.txt\nnew file mode 100644\n--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1 @@\n+new\n'
  for (const dialect of ['udiff', 'udiff-strict']) {
    const out = applyPatch(patch, { 'a.txt': 'one\ntwo\n' }, { dialect })
    assert.deepEqual(out.files, { 'a.txt': 'one\nTWO\n', 'b.txt': 'new\n' }, dialect)
    assert.throws(() => applyPatch(patch, { 'a.txt': 'one\n2\n' }, { dialect }), (e) =>
      ['search_not_found', 'patch_context_not_found'].includes(e.code),
    )
  }
  const fs = require('node:fs')
  const os = require('node:os')
  const path = require('node:path')
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-udiff-'))
  t.after(() => fs.rmSync(root, { recursive: true, force: true }))
  fs.writeFileSync(path.join(root, 'a.txt'), 'one\r\ntwo\r\n')
  const ws = new Workspace(root)
  ws.applyPatch(patch, { dialect: 'udiff' })
  assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'one\r\nTWO\r\n')
  assert.equal(fs.readFileSync(path.join(root, 'b.txt'), 'utf8'), 'new\n')
})
