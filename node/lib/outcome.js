'use strict'
// `applyDiff`'s result built in JavaScript: the addon's `__applyDiffPacked` returns the new
// content and writes each block's report as numbers into a shared Uint32Array (the layout of
// `pack_outcome` in bindings/node/src/types.rs), and this builds the same objects the addon's
// `Outcome` conversion does, as literals — defining a dozen properties per block through N-API
// costs more than the whole apply of a small file. When the reports do not fit, or a block
// failed (its `error` is an Error object), the addon returns its own conversion instead.

const native = require('./native.js')

const { blockStatuses, strategies, normalizations } = native.names()

/** Numbers per block in the packed layout (`PACKED_BLOCK`). */
const BLOCK = 10
/** Room for the reports of a diff of a few hundred blocks; larger ones take the addon's path. */
const numbers = new Uint32Array(4096)

/** The normalizations whose bits (above bit 0) are set in `flags`. */
function normalizationsOf(flags) {
  const names = []
  for (let i = 0; i < normalizations.length; i++) {
    if (flags & (2 << i)) names.push(normalizations[i])
  }
  return names
}

/** The `Outcome` of `newContent` and the reports in `numbers`. */
function unpack(newContent) {
  const count = numbers[0]
  const blocks = new Array(count)
  let at = 1
  for (let i = 0; i < count; i++, at += BLOCK) {
    const flags = numbers[at + 9]
    blocks[i] = {
      index: numbers[at],
      status: blockStatuses[numbers[at + 1]],
      strategy: strategies[numbers[at + 2]],
      start: numbers[at + 3],
      end: numbers[at + 4],
      startLine: numbers[at + 5],
      endLine: numbers[at + 6],
      candidates: numbers[at + 7],
      indentDelta: numbers[at + 8] | 0,
      reindented: (flags & 1) === 1,
      normalizations: flags > 1 ? normalizationsOf(flags) : [],
      error: null,
    }
  }
  const matches = numbers[at]
  const matchIndices = new Array(matches)
  for (let i = 0; i < matches; i++) matchIndices[i] = numbers[at + 1 + i]
  return { newContent, matchIndices, blocks }
}

/** `applyDiff` (declared in index.d.ts from the addon's function): the same result and errors. */
function applyDiff(diff, original, options) {
  const packed = native.__applyDiffPacked(diff, original, options, numbers)
  return typeof packed === 'string' ? unpack(packed) : packed
}

module.exports = { applyDiff }
