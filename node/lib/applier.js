'use strict'
// `StreamingApplier`: the native applier, with its preview kept here as a rope of slices of the
// caller's original and the inserted text (see rope.js). Each push receives only what changed,
// as pieces, so neither a push nor a read of `preview` copies the file across the boundary;
// the native class keeps the original once and the preview as pieces of it.

const native = require('../index.js')
const { Rope, decode, join, numbersAt } = require('./rope.js')

class StreamingApplier {
  #native
  #original
  /** The preview, or null once finished or retired (the native getters then throw). */
  #rope

  constructor(original, options) {
    this.#native = new native.StreamingApplier(original, options)
    this.#original = original
    this.#rope = new Rope()
    const [numbers, texts] = this.#native.__previewPieces()
    this.#rope.splice(0, 0, decode(numbers, 0, texts, original))
  }

  push(chunk) {
    if (this.#rope === null || typeof chunk !== 'string') return this.#native.push(chunk)
    let answer
    try {
      answer = this.#native.__pushPieces(chunk)
    } catch (e) {
      if (e.code === 'internal_error') this.#rope = null
      throw e
    }
    const [numbers, texts, completed] = answer
    const inserted = decode(numbers, 3, texts, this.#original)
    this.#rope.splice(numbers[0], numbers[1], inserted)
    return {
      start: numbers[0],
      removed: numbers[1],
      inserted: join(inserted),
      blocksCompleted: numbers[2],
      completed: completed ?? [],
    }
  }

  get preview() {
    return this.#rope === null ? this.#native.preview : this.#rope.toString()
  }

  get error() {
    return this.#native.error
  }

  get matchIndices() {
    return this.#native.matchIndices
  }

  get blocksCompleted() {
    return this.#native.blocksCompleted
  }

  get dialect() {
    return this.#native.dialect
  }

  finish() {
    if (this.#rope === null) return this.#native.finish()
    this.#rope = null
    const [numbers, texts, blocks] = this.#native.__finishPieces()
    const count = numbers[0]
    return {
      newContent: join(decode(numbers, 1 + count, texts, this.#original)),
      matchIndices: numbersAt(numbers, 1, count),
      blocks,
    }
  }

  /** Test builds only (the `fault-injection` feature): see the native class. */
  __injectPanic() {
    this.#native.__injectPanic()
  }

  static {
    if (typeof native.StreamingApplier.prototype.__injectPanic !== 'function') {
      delete StreamingApplier.prototype.__injectPanic
    }
  }
}

module.exports = { StreamingApplier }
