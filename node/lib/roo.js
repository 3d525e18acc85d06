'use strict'
// Roo Code's `MultiSearchReplaceDiffStrategy` with `applyDiff` scheduled by size: inputs under
// POOL_MIN_LENGTH UTF-16 units are applied on the calling thread (a libuv thread-pool trip costs
// more than the work: tens of microseconds against a few for a small file), larger ones on the
// pool, whose answer gives the content as slices of the caller's original around the span the
// blocks changed (a large file is not copied back). The Promise resolves (or rejects) with the
// same value either way; arguments of the wrong type take the addon's own pool path, whose
// rejection says what Node would.

const native = require('./native.js')
const rope = require('./rope.js')

/** Inputs at least this long (original plus diff, UTF-16 units) are applied on the pool. */
const POOL_MIN_LENGTH = 1 << 16

class MultiSearchReplaceDiffStrategy extends native.MultiSearchReplaceDiffStrategy {
  applyDiff(originalContent, diffContent, paramStartLine, paramEndLine) {
    if (
      typeof originalContent === 'string' &&
      typeof diffContent === 'string' &&
      originalContent.length + diffContent.length < POOL_MIN_LENGTH
    ) {
      try {
        return Promise.resolve(this.__applyDiffSync(originalContent, diffContent))
      } catch (e) {
        return Promise.reject(e)
      }
    }
    // A lone surrogate crosses into the addon as U+FFFD, so the content of such an original is
    // the addon's own copy (slices of the original would keep the surrogate). A one-byte
    // string answers `isWellFormed` at once.
    if (typeof originalContent !== 'string' || typeof diffContent !== 'string' || !originalContent.isWellFormed()) {
      return super.applyDiff(originalContent, diffContent, paramStartLine, paramEndLine)
    }
    return this.__applyDiffPieces(originalContent, diffContent).then((reply) => resultOf(reply, originalContent))
  }
}

/**
 * Roo's `DiffResult` from a pool answer: its content (when a block applied) built from the
 * answer's pieces, slices of `original` around the changed span (no copy of a large file back
 * from the addon); its other properties as the addon sent them.
 */
function resultOf(reply, original) {
  const { numbers, texts, extra } = rope.read(reply)
  if (!extra.success) return extra
  const content = rope.join(rope.decode(numbers, 1, texts, original))
  return { success: true, content, failParts: extra.failParts }
}

module.exports = { MultiSearchReplaceDiffStrategy, POOL_MIN_LENGTH, resultOf }
