'use strict'
// What the robustness runners (robustness.test.js, robustness_v2.test.js) share: running a case
// through `applyDiff` and a native `StreamingApplier`, and observing the result comparably.

const assert = require('node:assert/strict')

const hl = require('..')
const h = require('./helpers')

const CORRECT = 'correct'
const REFUSE = 'refused'
const WRONG = 'wrong'

/** What a call gave: its content, indices and blocks, or a core error's code and message. */
function observe(run) {
  try {
    const { newContent, matchIndices, blocks } = run()
    return { content: newContent, matchIndices, blocks }
  } catch (err) {
    // Anything but a core error (a TypeError, an assertion) is a bug: rethrown.
    if (!(err instanceof Error) || typeof err.code !== 'string' || err.code.startsWith('ERR_')) throw err
    return { code: err.code, message: err.message }
  }
}

function stateless(c) {
  return observe(() => hl.applyDiff(c.diff, c.original))
}

/** The case streamed through a native applier, or a string saying what went wrong. */
function streamed(c, chunking) {
  const applier = new hl.StreamingApplier(c.original, { dialect: 'native' })
  let view = c.original
  for (const piece of h.split(c.diff, chunking, 0x5eed)) {
    view = h.applySplice(view, applier.push(piece))
  }
  if (view !== applier.preview) return 'the splices do not rebuild the preview'
  return observe(() => applier.finish())
}

/** `a` and `b` deep-equal. */
function same(a, b) {
  try {
    assert.deepStrictEqual(a, b)
    return true
  } catch {
    return false
  }
}

/** What a result is, for messages (never the content: files are long). */
function brief(got) {
  return got.content !== undefined ? 'content' : `${got.code}`
}

module.exports = { CORRECT, REFUSE, WRONG, brief, observe, same, stateless, streamed }
