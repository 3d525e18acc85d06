'use strict'
// The second robustness corpus (tests/vectors/robustness-v2.jsonl, scored as
// tests/vectors/ROBUSTNESS-V2.md defines it) through the `native` dialect, exactly as
// crates/hunkloom/tests/robustness_v2.rs scores it (crates/hunkloom-testkit/src/robustness_v2.rs):
// correct, refused, or WRONG, in four modes: `stateless` (`applyDiff`, default options: `native`,
// all or nothing) and `whole`, `line`, `random` (a `StreamingApplier` in `native` fed the diff
// whole, per line and in seeded random pieces of 1-16 code points, the Rust runner's chunking
// and seed). Each mode is scored on its own; the streamed outcomes (content, matchIndices and
// block reports, or the error's code and message) must equal `applyDiff`'s and the `Update`
// splices must rebuild the preview.
//
// Prints `robustness-v2 <category>: <correct>/<total> correct, <refused> refused, <wrong> wrong`
// per category (stateless), then `robustness-v2 <mode>: <P>/<T> correct, <R> refused, <W> wrong`
// per mode; fails on any WRONG result, below 99% correct in a mode, on a streamed mismatch, or
// when the cases not scored correct differ from REFUSED.

const test = require('node:test')
const assert = require('node:assert/strict')

const h = require('./helpers')
const { CORRECT, REFUSE, WRONG, brief, same, stateless, streamed } = require('./robustness-common')

/** Cases not scored correct on purpose, with the reason (the Rust runner's list). */
const REFUSED = new Map([])

const MODES = ['stateless', 'whole', 'line', 'random']
const ALREADY_APPLIED = 'already_applied'

/**
 * What an engine did with a case: `{ content, matchIndices, blocks }`, or `{ code, message }`
 * for a refusal.
 */
/** The case's score for what the engine did, per ROBUSTNESS-V2.md (the Rust `score_v2`). */
function score(c, got) {
  const { expect } = c
  const refusal = got.content === undefined
  const unchanged = got.content === c.original
  if (expect.refuse) {
    if (refusal) return expect.code === undefined || expect.code === got.code ? CORRECT : REFUSE
    if (unchanged) return expect.code === undefined ? CORRECT : REFUSE
    return WRONG
  }
  if (expect.status !== undefined && expect.status !== ALREADY_APPLIED) {
    throw new Error(`${c.id}: unknown expected status ${expect.status}`)
  }
  if (!refusal && expect.content !== undefined && got.content === expect.content) {
    if (expect.status === undefined || got.blocks.some((b) => b.status === ALREADY_APPLIED)) return CORRECT
  }
  if (refusal || unchanged) return REFUSE
  return WRONG
}

test('robustness-v2 corpus: native through applyDiff and StreamingApplier (whole, line, random)', () => {
  const cases = h.load('robustness-v2')
  assert.ok(cases.length >= 2300, `the corpus has ${cases.length} cases`)

  // mode -> category -> counts, modes in MODES order.
  const counts = new Map(MODES.map((m) => [m, new Map()]))
  const problems = []
  const notCorrect = []
  const record = (mode, c, got) => {
    const s = score(c, got)
    const perCategory = counts.get(mode)
    if (!perCategory.has(c.category)) perCategory.set(c.category, { [CORRECT]: 0, [REFUSE]: 0, [WRONG]: 0 })
    perCategory.get(c.category)[s] += 1
    if (s === WRONG) problems.push(`WRONG ${c.id} (${mode})`)
    if (s === REFUSE) notCorrect.push([mode, c.id, got])
  }

  for (const c of cases) {
    const got = stateless(c)
    record('stateless', c, got)
    for (const chunking of MODES.slice(1)) {
      const streamedGot = streamed(c, chunking)
      if (typeof streamedGot === 'string') {
        problems.push(`${c.id} ${chunking}: ${streamedGot}`)
        continue
      }
      record(chunking, c, streamedGot)
      if (!same(streamedGot, got)) {
        problems.push(`${c.id} ${chunking}: streamed ${brief(streamedGot)} differs from stateless ${brief(got)}`)
      }
    }
  }

  // Sorted by name, as the Rust runner's BTreeMap (the names are ASCII).
  const first = counts.get('stateless')
  for (const category of [...first.keys()].sort()) {
    const k = first.get(category)
    const n = k[CORRECT] + k[REFUSE] + k[WRONG]
    console.log(`robustness-v2 ${category}: ${k[CORRECT]}/${n} correct, ${k[REFUSE]} refused, ${k[WRONG]} wrong`)
  }
  for (const [mode, perCategory] of counts) {
    const total = { [CORRECT]: 0, [REFUSE]: 0, [WRONG]: 0 }
    for (const k of perCategory.values()) for (const s of Object.keys(total)) total[s] += k[s]
    const n = total[CORRECT] + total[REFUSE] + total[WRONG]
    console.log(`robustness-v2 ${mode}: ${total[CORRECT]}/${n} correct, ${total[REFUSE]} refused, ${total[WRONG]} wrong`)
    if (n !== cases.length || total[WRONG] > 0 || total[CORRECT] * 100 < n * 99) {
      problems.push(`${mode}: ${total[CORRECT]}/${n} correct with ${total[WRONG]} wrong (${cases.length} cases): below the bar`)
    }
  }

  const listed = new Set()
  for (const [mode, id, got] of notCorrect) {
    if (!REFUSED.has(id)) {
      problems.push(`${id} (${mode}) refused but not listed in REFUSED: ${brief(got)}: ${got.message ?? ''}`)
    } else if (!listed.has(id)) {
      console.log(`robustness-v2 refused ${id}: ${REFUSED.get(id)}`)
      listed.add(id)
    }
  }
  for (const id of REFUSED.keys()) {
    if (!notCorrect.some(([, r]) => r === id)) problems.push(`${id} is listed in REFUSED but no longer refused`)
  }
  assert.deepEqual(problems.slice(0, 40), [], `${problems.length} problems`)
})
