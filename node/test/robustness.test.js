'use strict'
// The robustness corpus (tests/vectors/robustness.jsonl, scored as tests/vectors/ROBUSTNESS.md
// defines it) through the `native` dialect, exactly as crates/hunkloom/tests/robustness.rs
// scores it: every case through `applyDiff` (default options), and through a
// `StreamingApplier` in `native` fed the diff whole and in seeded random pieces of 1-16 code
// points (the Rust runner's chunking and seed). The streamed outcomes (content, matchIndices and
// block reports, or the error's code and message) must equal `applyDiff`'s and the `Update`
// splices must rebuild the preview.
//
// Prints `robustness <category>: <correct>/<total> correct, <wrong> wrong` per category, then
// the totals; fails on any WRONG result, below 99% correct, on a streamed mismatch, or when the
// apply cases it refuses differ from REFUSED.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')

const h = require('./helpers')
const { CORRECT, REFUSE, WRONG, brief, same, stateless, streamed } = require('./robustness-common')

const CORPUS = path.join(__dirname, '..', '..', 'tests', 'vectors', 'robustness.jsonl')

/** Apply cases the engine refuses on purpose, with the reason (the Rust runner's list). */
const REFUSED = new Map([])


/**
 * What an engine did with a case: `{ content, matchIndices, blocks }`, or `{ code, message }`
 * for a refusal. (Scoring reads `content`; streamed and stateless results must agree on all.)
 */
/** The case's score for what the engine did, per ROBUSTNESS.md. */
function score(c, got) {
  const unchanged = got.content === c.original
  if (c.expect.refuse) return got.content === undefined || unchanged ? CORRECT : WRONG
  if (c.expect.content !== undefined && got.content === c.expect.content) return CORRECT
  if (got.content === undefined || unchanged) return REFUSE
  return WRONG
}

test('robustness corpus: native through applyDiff and StreamingApplier (whole, random)', () => {
  const cases = fs
    .readFileSync(CORPUS, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l))
  assert.ok(cases.length >= 2400, `the corpus has ${cases.length} cases`)

  const perCategory = new Map()
  const problems = []
  const refusedApply = []
  for (const c of cases) {
    const got = stateless(c)
    const s = score(c, got)
    if (!perCategory.has(c.category)) perCategory.set(c.category, { [CORRECT]: 0, [REFUSE]: 0, [WRONG]: 0 })
    perCategory.get(c.category)[s] += 1
    if (s === WRONG) problems.push(`WRONG ${c.id}`)
    if (s === REFUSE) refusedApply.push([c.id, got])
    for (const chunking of ['whole', 'random']) {
      const streamedGot = streamed(c, chunking)
      if (typeof streamedGot === 'string') problems.push(`${c.id} ${chunking}: ${streamedGot}`)
      else if (!same(streamedGot, got)) {
        problems.push(`${c.id} ${chunking}: streamed ${brief(streamedGot)} differs from applyDiff ${brief(got)}`)
      }
    }
  }

  const total = { [CORRECT]: 0, [REFUSE]: 0, [WRONG]: 0 }
  // Sorted by name, as the Rust runner's BTreeMap (the names are ASCII).
  for (const category of [...perCategory.keys()].sort()) {
    const counts = perCategory.get(category)
    const n = counts[CORRECT] + counts[REFUSE] + counts[WRONG]
    console.log(`robustness ${category}: ${counts[CORRECT]}/${n} correct, ${counts[WRONG]} wrong`)
    for (const k of Object.keys(total)) total[k] += counts[k]
  }
  const n = total[CORRECT] + total[REFUSE] + total[WRONG]
  console.log(`robustness total: ${total[CORRECT]}/${n} correct, ${total[WRONG]} wrong`)

  for (const [id, got] of refusedApply) {
    if (REFUSED.has(id)) console.log(`robustness refused ${id}: ${REFUSED.get(id)}`)
    else problems.push(`${id} refused but not listed in REFUSED: ${got.code}: ${got.message}`)
  }
  for (const id of REFUSED.keys()) {
    if (!refusedApply.some(([r]) => r === id)) problems.push(`${id} is listed in REFUSED but no longer refused`)
  }
  if (total[WRONG] > 0 || total[CORRECT] * 100 < n * 99) {
    problems.push(`${total[CORRECT]}/${n} correct with ${total[WRONG]} wrong: below the bar`)
  }
  assert.deepEqual(problems.slice(0, 40), [], `${problems.length} problems`)
})
