'use strict'
// `StreamingApplier`: the native applier, with its preview kept here as a rope of slices of the
// caller's original and the inserted text (see rope.js). Each push receives only what changed,
// as pieces, so neither a push nor a read of `preview` copies the file across the boundary;
// the native applier keeps the preview as pieces of the original, whose one native copy is
// shared with other appliers and drop-in calls over the same string (originals.js).

const native = require('./native.js')
const { Rope, decode, join, numbersAt, read, scratch } = require('./rope.js')
const { originalHandle } = require('./originals.js')

class StreamingApplier {
  #native
  #handle
  #original
  /** The preview, or null once finished or retired (the native getters then throw). */
  #rope

  constructor(original, options) {
    // Appliers and drop-in calls over the same string share one native copy of it.
    this.#native =
      typeof original === 'string'
        ? native.__applierOver(originalHandle(original), options)
        : new native.StreamingApplier(original, options)
    this.#handle = this.#native.__handle()
    this.#original = original
    this.#rope = new Rope()
    const { numbers, texts } = read(this.#native.__previewPieces())
    this.#rope.splice(0, 0, decode(numbers, 1, texts, original))
  }

  push(chunk) {
    if (this.#rope === null || typeof chunk !== 'string') return this.#native.push(chunk)
    let reply
    try {
      reply = native.__applierPush(this.#handle, chunk, scratch)
    } catch (e) {
      if (e.code === 'internal_error') this.#rope = null
      throw e
    }
    const { numbers, texts, extra } = read(reply)
    const start = numbers[1]
    const removed = numbers[2]
    const blocksCompleted = numbers[3]
    const inserted = decode(numbers, 4, texts, this.#original)
    this.#rope.splice(start, removed, inserted)
    return { start, removed, inserted: join(inserted), blocksCompleted, completed: extra ?? [] }
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
    const { numbers, texts, extra } = read(this.#native.__finishPieces())
    const count = numbers[1]
    return {
      newContent: join(decode(numbers, 2 + count, texts, this.#original)),
      matchIndices: numbersAt(numbers, 2, count),
      blocks: extra,
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
