'use strict'
// S1-S5, generated exactly as crates/hunkloom-bench/src/lib.rs generates them (same SplitMix64
// stream, same lines), so the Node figures compare with the Rust ones.
//
// - S1: a 10,000-line file with 20 exact 4-line blocks, applied one-shot.
// - S2: S1's diff streamed in 4-character chunks.
// - S3: S1's blocks with indentation removed and trailing spaces added (line-trimmed tier).
// - S4: a 200,000-line file with one block near the end, one-shot.
// - S5: S4 streamed in 4-character chunks.

const MASK = (1n << 64n) - 1n

class Rng {
  constructor(seed) {
    this.state = seed
  }
  next() {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & MASK
    let z = this.state
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK
    return z ^ (z >> 31n)
  }
  pick(items) {
    return items[Number(this.next() % BigInt(items.length))]
  }
}

/** `lines` lines of Python-like code; every line is distinct (it carries its number). */
function codeFile(lines) {
  const names = ['value', 'count', 'buffer', 'token', 'result', 'entry', 'cursor', 'limit']
  const ops = ['+', '-', '*', '//', '%']
  const rng = new Rng(0x5eed0001n)
  const out = []
  for (let i = 0; i < lines; i++) {
    switch (i % 8) {
      case 0: {
        const a = rng.pick(names)
        const b = rng.pick(names)
        out.push(`def handler_${i}(${a}, ${b}):`)
        break
      }
      case 1:
        out.push(`    """Process batch ${i}."""`)
        break
      case 7:
        out.push('')
        break
      default: {
        const target = rng.pick(names)
        const operand = rng.pick(names)
        const op = rng.pick(ops)
        out.push(`    ${target}_${i} = ${operand} ${op} ${rng.next() % 1000n}`)
      }
    }
  }
  return out.join('\n') + '\n'
}

function block(search, replace) {
  return `------- SEARCH\n${search.map((l) => l + '\n').join('')}=======\n${replace.map((l) => l + '\n').join('')}+++++++ REPLACE\n`
}

function diffFor(original, starts, mangle) {
  const lines = original.split('\n')
  return starts
    .map((start) => {
      const window = lines.slice(start, start + 4)
      return block(window.map(mangle), window.map((l) => `${l}  # reviewed`))
    })
    .join('')
}

const s1Starts = () => Array.from({ length: 20 }, (_, k) => 2 + k * 500)

function s1() {
  const original = codeFile(10_000)
  return { original, diff: diffFor(original, s1Starts(), (l) => l) }
}

function s3() {
  const original = codeFile(10_000)
  return { original, diff: diffFor(original, s1Starts(), (l) => `${l.trimStart()}  `) }
}

function s4() {
  const original = codeFile(200_000)
  return { original, diff: diffFor(original, [199_900], (l) => l) }
}

/** The diff cut into pieces of `n` code points, as a model's tokens arrive. */
function chunks(diff, n) {
  const points = Array.from(diff)
  const out = []
  for (let i = 0; i < points.length; i += n) out.push(points.slice(i, i + n).join(''))
  return out
}

module.exports = { chunks, codeFile, s1, s3, s4 }
