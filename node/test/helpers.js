'use strict'
// Shared by the tests: the conformance vectors (tests/vectors/README.md), the four chunkings
// and a seeded generator, mirroring crates/hunkloom/tests/common/mod.rs.

const fs = require('node:fs')
const path = require('node:path')

const VECTORS = path.join(__dirname, '..', '..', 'tests', 'vectors')

/** The Cline corpora, in the order runners report them. */
const CLINE_CORPORA = ['cline-unit', 'cline-diff-differential', 'cline-diff-streaming-exhaustive']

function load(corpus) {
  const text = fs.readFileSync(path.join(VECTORS, `${corpus}.jsonl`), 'utf8')
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l))
}

const MASK = (1n << 64n) - 1n

/** SplitMix64, the same sequence as the Rust runner's, so random chunkings match. */
class SplitMix64 {
  constructor(seed) {
    this.state = BigInt.asUintN(64, BigInt(seed))
  }
  next() {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & MASK
    let z = this.state
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK
    return z ^ (z >> 31n)
  }
}

/**
 * The pieces of `text` in a chunking: `whole`, `line` (each line with its `\n`), `char` (each
 * code point) or `random` (1-16 code points at a time, from a seed). Splits are on code points,
 * never inside a surrogate pair (half a pair would be a lone surrogate, which cannot cross into
 * UTF-8 unchanged).
 */
function split(text, chunking, seed = 0x5eed) {
  switch (chunking) {
    case 'whole':
      return [text]
    case 'line':
      return text.match(/[^\n]*\n|[^\n]+$/g) ?? []
    case 'char':
      return Array.from(text)
    case 'random': {
      // Seeded like the Rust runner: seed ^ UTF-8 length.
      const rng = new SplitMix64(BigInt(seed) ^ BigInt(Buffer.byteLength(text)))
      const points = Array.from(text)
      const pieces = []
      let at = 0
      while (at < points.length) {
        const step = 1 + Number(rng.next() % 16n)
        pieces.push(points.slice(at, at + step).join(''))
        at += step
      }
      return pieces
    }
    default:
      throw new Error(`unknown chunking ${chunking}`)
  }
}

/** What the vector says Cline returns: `{ newContent, matchIndices }` or `{ error }`. */
function expected(v) {
  if (v.expect.error !== undefined) return { error: v.expect.error }
  return { newContent: v.expect.new_content, matchIndices: v.expect.match_indices }
}

/** A settled call in the vectors' terms. */
function observe(result) {
  return { newContent: result.newContent, matchIndices: [...result.matchIndices] }
}

/** A thrown or rejected core error in the vectors' terms (anything else is a bug: rethrown). */
function observeError(err) {
  if (!(err instanceof Error) || typeof err.code !== 'string' || err.code.startsWith('ERR_')) throw err
  return { error: err.message }
}

/** `StreamingApplier`'s dialect for a Cline version. */
function dialectOf(version) {
  return version === 'v1' ? 'cline-v1' : 'cline-v2'
}

/** Applies an `Update` splice to a copy of the preview. */
function applySplice(view, u) {
  return view.slice(0, u.start) + u.inserted + view.slice(u.start + u.removed)
}

module.exports = {
  CLINE_CORPORA,
  SplitMix64,
  applySplice,
  dialectOf,
  expected,
  load,
  observe,
  observeError,
  split,
}
