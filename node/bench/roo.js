'use strict'
// `await strategy.applyDiff(original, diff)` of Roo's class, as an agent calls it, on a 3-line
// file, 10 KB, 60 KB and 200 KB: the package's scheduling (the calling thread under
// POOL_MIN_LENGTH, libuv's pool from there) next to always taking the pool (the native method
// alone), alternated in one process. The figure is the median time per awaited call; the ratio is
// pool / scheduled (above 1: the scheduling is faster).
//
// Usage: node bench/roo.js [--quick]

const hl = require('..')
const native = require('../lib/native.js')
const { POOL_MIN_LENGTH } = require('../lib/roo.js')

const quick = process.argv.includes('--quick')
const ROUNDS = quick ? 5 : 15

function fileOf(bytes) {
  const lines = []
  let size = 0
  for (let i = 0; size < bytes; i++) {
    const line = `    value_${i} = compute(${i}, "text")\n`
    lines.push(line)
    size += line.length
  }
  return lines.join('')
}

const cases = [
  ['3 lines', 'a = 1\nb = 2\nc = 3\n', '<<<<<<< SEARCH\nb = 2\n=======\nb = 20\n>>>>>>> REPLACE'],
  ...[10_000, 60_000, 200_000].map((bytes) => {
    const original = fileOf(bytes)
    const diff =
      '<<<<<<< SEARCH\n:start_line:40\n-------\n    value_39 = compute(39, "text")\n=======\n' +
      '    value_39 = 0\n>>>>>>> REPLACE'
    return [`${bytes / 1000} KB`, original, diff]
  }),
]

async function timePerCall(apply, original, diff) {
  // Enough calls per sample that a sample takes about 20 ms.
  const start = process.hrtime.bigint()
  let n = 0
  while (process.hrtime.bigint() - start < 20_000_000n) {
    await apply(original, diff)
    n++
  }
  return Number(process.hrtime.bigint() - start) / n / 1000
}

async function main() {
  const scheduled = new hl.MultiSearchReplaceDiffStrategy()
  const pool = new native.MultiSearchReplaceDiffStrategy()
  console.log(`Roo applyDiff, awaited one at a time (the calling thread under ${POOL_MIN_LENGTH} UTF-16 units)`)
  for (const [name, original, diff] of cases) {
    const a = await scheduled.applyDiff(original, diff)
    const b = await pool.applyDiff(original, diff)
    if (JSON.stringify(a) !== JSON.stringify(b) || !a.success) throw new Error(`${name}: results differ`)
    const times = { scheduled: [], pool: [] }
    for (let r = 0; r < ROUNDS; r++) {
      times.scheduled.push(await timePerCall((o, d) => scheduled.applyDiff(o, d), original, diff))
      times.pool.push(await timePerCall((o, d) => pool.applyDiff(o, d), original, diff))
    }
    const median = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1]
    const [s, p] = [median(times.scheduled), median(times.pool)]
    console.log(`  ${name.padEnd(8)} scheduled ${s.toFixed(1).padStart(7)} µs   pool only ${p.toFixed(1).padStart(7)} µs   ${(p / s).toFixed(2)}x`)
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
