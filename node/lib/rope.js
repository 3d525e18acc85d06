'use strict'
// A string kept as pieces: slices of the caller's original and new text. V8 shares a slice's
// memory with the string it comes from and joins strings with `+` into a rope without copying,
// so building a result from pieces costs O(pieces), not O(file); the copy happens only if and
// when the caller reads the characters (as with any JavaScript string built by `+`).

/**
 * The scratch array native calls write an answer's numbers into (see
 * bindings/node/src/pieces.rs). Only synchronous calls use it, and each answer is read before
 * the next call.
 */
const scratch = new Int32Array(1 << 12)

/**
 * A native reply as `{ numbers, texts, extra }`: the reply is the texts alone (numbers in the
 * scratch array) or `[numbers | null, texts, extra]`. `numbers[0]` counts the values after it.
 */
function read(reply) {
  if (typeof reply === 'string') return { numbers: scratch, texts: reply, extra: null }
  return { numbers: reply[0] ?? scratch, texts: reply[1], extra: reply[2] }
}

/**
 * Decodes the pieces of an answer from index `from` of `numbers` to its end: two numbers at
 * least 0 are a range of `original` (UTF-16 start and end), and `-1 - n` is the next `n` units
 * of `texts`, the answer's new text.
 * @param {Int32Array} numbers
 * @param {number} from
 * @param {string} texts
 * @param {string} original
 * @returns {string[]}
 */
function decode(numbers, from, texts, original) {
  const out = []
  const end = 1 + numbers[0]
  let at = 0
  for (let i = from; i < end; ) {
    const v = numbers[i]
    if (v >= 0) {
      out.push(original.slice(v, numbers[i + 1]))
      i += 2
    } else {
      const stop = at - 1 - v
      out.push(texts.slice(at, stop))
      at = stop
      i += 1
    }
  }
  return out
}

/** `count` numbers from `from` as a plain array (Cline's `matchIndices` are one). */
function numbersAt(numbers, from, count) {
  const out = new Array(count)
  for (let i = 0; i < count; i++) out[i] = numbers[from + i]
  return out
}

/** The pieces joined into one (rope) string. */
function join(pieces) {
  let s = ''
  for (const p of pieces) s += p
  return s
}

/**
 * A text kept as pieces with the rope of every prefix, so appending, cutting back and reading
 * the whole text each cost O(pieces changed).
 */
class Rope {
  constructor() {
    /** @type {string[]} */
    this.pieces = []
    /** Where each piece ends (UTF-16). @type {number[]} */
    this.ends = []
    /** `prefixes[i]` is pieces 0..=i joined. @type {string[]} */
    this.prefixes = []
  }

  get length() {
    const n = this.ends.length
    return n === 0 ? 0 : this.ends[n - 1]
  }

  toString() {
    const n = this.prefixes.length
    return n === 0 ? '' : this.prefixes[n - 1]
  }

  /** Appends a piece. */
  push(piece) {
    if (piece.length === 0) return
    const n = this.pieces.length
    this.pieces.push(piece)
    this.ends.push(this.length + piece.length)
    this.prefixes.push(n === 0 ? piece : this.prefixes[n - 1] + piece)
  }

  /** Replaces `removed` units at `start` with `inserted` pieces. */
  splice(start, removed, inserted) {
    const stop = start + removed
    const tail = []
    while (this.pieces.length > 0 && this.ends[this.ends.length - 1] > start) {
      const piece = this.pieces.pop()
      const end = this.ends.pop()
      this.prefixes.pop()
      const begin = end - piece.length
      if (end > stop) tail.push(begin >= stop ? piece : piece.slice(stop - begin))
      if (begin < start) {
        this.push(piece.slice(0, start - begin))
        break
      }
    }
    for (const piece of inserted) this.push(piece)
    for (let i = tail.length - 1; i >= 0; i--) this.push(tail[i])
  }

  /** The text from `start` to `end` (UTF-16), read from the pieces without joining the rest. */
  slice(start, end = this.length) {
    start = Math.max(0, Math.min(start, this.length))
    end = Math.max(start, Math.min(end, this.length))
    let lo = 0
    let hi = this.ends.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.ends[mid] <= start) lo = mid + 1
      else hi = mid
    }
    let out = ''
    for (let i = lo; i < this.pieces.length && out.length < end - start; i++) {
      const begin = this.ends[i] - this.pieces[i].length
      out += this.pieces[i].slice(Math.max(0, start - begin), end - begin)
    }
    return out
  }
}

module.exports = { Rope, decode, join, numbersAt, read, scratch }
