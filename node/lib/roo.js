'use strict'
// Roo Code's `MultiSearchReplaceDiffStrategy` with `applyDiff` scheduled by size: inputs under
// POOL_MIN_LENGTH UTF-16 units are applied on the calling thread (a libuv thread-pool trip costs
// more than the work: tens of microseconds against a few for a small file), larger ones on the
// pool as before. The Promise resolves (or rejects) with the same value either way; arguments of
// the wrong type take the pool path, whose rejection says what Node would.

const native = require('./native.js')

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
    return super.applyDiff(originalContent, diffContent, paramStartLine, paramEndLine)
  }
}

module.exports = { MultiSearchReplaceDiffStrategy, POOL_MIN_LENGTH }
