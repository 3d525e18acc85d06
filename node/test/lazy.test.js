'use strict'
// Lazy edits through Node: the lazy-edit corpus (tests/vectors/lazy-edits.jsonl, scored as
// tests/vectors/LAZY-EDITS.md defines it, exactly as crates/hunkloom/tests/lazy_edits.rs scores
// it with crates/hunkloom-testkit/src/lazy.rs), and what is specific to the boundary.
//
// Prints `lazy-edits <category>: <C>/<T> correct, <R> refused, <W> wrong` per category (sorted
// by name) and `lazy-edits total: ...`; fails on any WRONG result, below 95% correct, or when
// the content cases refused differ from REFUSED.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const h = require('./helpers')
const { applyLazy, Workspace } = require('../lib/index.js')

/** Content cases refused on purpose, with the reason (the Rust runner's list; none today). */
const REFUSED = new Map([])

const CORRECT = 'correct'
const REFUSE = 'refused'
const WRONG = 'wrong'

/** What the engine did: `{ content }` or `{ code, message }`. */
function run(snippet, original, options) {
  try {
    return { content: applyLazy(snippet, original, options) }
  } catch (err) {
    if (typeof err.code !== 'string' || err instanceof TypeError) throw err
    return { code: err.code, message: err.message }
  }
}

function score(c, got) {
  const refusal = got.content === undefined
  const unchanged = got.content === c.original
  if (c.expect.refuse) return refusal || unchanged ? CORRECT : WRONG
  if (!refusal && got.content === c.expect.content) return CORRECT
  return refusal || unchanged ? REFUSE : WRONG
}

test('lazy-edits corpus through applyLazy', () => {
  const cases = h.load('lazy-edits')
  assert.equal(cases.length, 1500, `the corpus has ${cases.length} cases`)
  const counts = new Map()
  const problems = []
  const refused = new Set()
  for (const c of cases) {
    const got = run(c.snippet, c.original, { path: `case.${c.lang}` })
    const s = score(c, got)
    if (!counts.has(c.category)) counts.set(c.category, { [CORRECT]: 0, [REFUSE]: 0, [WRONG]: 0 })
    counts.get(c.category)[s] += 1
    if (s === WRONG) problems.push(`WRONG ${c.id}`)
    if (s === REFUSE) {
      refused.add(c.id)
      if (!REFUSED.has(c.id)) problems.push(`${c.id} refused but not listed in REFUSED: ${got.code ?? 'unchanged'}`)
    }
    // The language by name gives the same result as by extension.
    const byName = run(c.snippet, c.original, { lang: c.lang })
    if (byName.content !== got.content || byName.code !== got.code) {
      problems.push(`${c.id}: the language by name gives another result`)
    }
  }
  const total = { [CORRECT]: 0, [REFUSE]: 0, [WRONG]: 0 }
  for (const category of [...counts.keys()].sort()) {
    const k = counts.get(category)
    for (const s of Object.keys(total)) total[s] += k[s]
    const n = k[CORRECT] + k[REFUSE] + k[WRONG]
    console.log(`lazy-edits ${category}: ${k[CORRECT]}/${n} correct, ${k[REFUSE]} refused, ${k[WRONG]} wrong`)
  }
  const n = total[CORRECT] + total[REFUSE] + total[WRONG]
  console.log(`lazy-edits total: ${total[CORRECT]}/${n} correct, ${total[REFUSE]} refused, ${total[WRONG]} wrong`)
  for (const id of [...refused].sort()) if (REFUSED.has(id)) console.log(`lazy-edits refused ${id}: ${REFUSED.get(id)}`)
  for (const id of REFUSED.keys()) if (!refused.has(id)) problems.push(`${id} is listed in REFUSED but no longer refused`)
  if (total[WRONG] > 0 || total[CORRECT] * 100 < n * 95) {
    problems.push(`${total[CORRECT]}/${n} correct with ${total[WRONG]} wrong: below the bar`)
  }
  assert.deepEqual(problems.slice(0, 40), [], `${problems.length} problems`)
})

const FILE = 'export function load(p: string) {\n  return read(p)\n}\n\nexport function save(p: string, t: string) {\n  write(p, t)\n}\n'

test('applyLazy: refusals carry codes and candidates; arguments are checked', () => {
  assert.throws(() => applyLazy('// ...\nfunction close() {\n  done()\n// ...\n', FILE, { path: 'io.ts' }), {
    code: 'lazy_no_anchor',
    message: /^segment 1 \(snippet lines 2-3\) cannot be placed/,
  })
  let err
  try {
    applyLazy('# ...\nx = 1\nz = 3\n# ...\n', 'x = 1\ny = 2\nx = 1\n', { lang: 'python' })
  } catch (e) {
    err = e
  }
  assert.equal(err.code, 'lazy_ambiguous')
  assert.deepEqual(
    err.matches.map((m) => m.startLine),
    [1, 3],
  )
  assert.throws(() => applyLazy('x', 'y', { lang: 'cobol' }), { code: 'invalid_language' })
  assert.throws(() => applyLazy(1, FILE), TypeError)
  assert.throws(() => applyLazy('x', FILE, { path: 3 }), TypeError)
  // No markers: the snippet is the whole file. A surrogate pair survives.
  assert.equal(applyLazy('const s = "😀"\n', FILE, { path: 'io.ts' }), 'const s = "😀"\n')
  assert.equal(
    applyLazy('// ...\nexport function save(p: string, t: string) {\n  log(p)\n  write(p, t)\n', FILE, { path: 'io.ts' }),
    FILE.replace('t: string) {\n', 't: string) {\n  log(p)\n'),
  )
})

test('Workspace.applyLazy writes all or nothing and keeps the line endings', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hl-lazy-')))
  const file = path.join(root, 'io.ts')
  fs.writeFileSync(file, FILE.replace(/\n/g, '\r\n'))
  const ws = new Workspace(root)
  assert.throws(() => ws.applyLazy('io.ts', '// ...\nx\n'), { code: 'not_read' })
  ws.read('io.ts')
  const snippet = '// ...\nexport function save(p: string, t: string) {\n  log(p)\n  write(p, t)\n'
  const outcome = ws.applyLazy('io.ts', snippet)
  assert.equal(outcome.changed, true)
  const merged = FILE.replace('t: string) {\n', 't: string) {\n  log(p)\n').replace(/\n/g, '\r\n')
  assert.equal(fs.readFileSync(file, 'utf8'), merged)
  assert.throws(() => ws.applyLazy('io.ts', '// ...\nfunction gone() {\n// ...\n'), { code: 'lazy_no_anchor' })
  assert.throws(() => ws.applyLazy('io.ts', snippet, { lang: 'cobol' }), { code: 'invalid_language' })
  assert.equal(fs.readFileSync(file, 'utf8'), merged)
  fs.rmSync(root, { recursive: true })
})
