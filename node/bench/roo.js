'use strict'
// Roo's `applyDiff` as an agent calls it, hunkloom beside the tool it replaces, alternated in one
// process: a plain-JavaScript stand-in of Roo's `MultiSearchReplaceDiffStrategy` (roo-standin.js)
// against the package's class (`await strategy.applyDiff(original, diff)`, scheduled by size: the
// calling thread under POOL_MIN_LENGTH UTF-16 units, libuv's pool from there) and against the
// synchronous `applyDiff(diff, original, { dialect: "roo" })`, on a 3-line file, 10 KB, 200 KB and
// 2 MB, each with the block's `:start_line:` hint and without it. Every figure is the median
// time per call; each ratio is the stand-in's time over hunkloom's (above 1: hunkloom is faster),
// the class against the stand-in awaited (Roo's method is `async`), the sync call against the
// stand-in called directly. With --pool, the class is also timed always taking the pool (the
// native method alone), which shows what the scheduling saves on small inputs.
//
// Usage: node bench/roo.js [--quick] [--pool]

const hl = require('..')
const native = require('../lib/native.js')
const { POOL_MIN_LENGTH } = require('../lib/roo.js')
const standin = require('./roo-standin.js')

const quick = process.argv.includes('--quick')
const withPool = process.argv.includes('--pool')
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

/** A block changing the line 40 lines before the file's end, with or without its hint. */
function blockNearEnd(original, hinted) {
  const lines = original.split('\n').length - 1
  const index = lines - 40
  const hint = hinted ? `:start_line:${index + 1}\n-------\n` : ''
  return `<<<<<<< SEARCH\n${hint}    value_${index} = compute(${index}, "text")\n=======\n    value_${index} = 0\n>>>>>>> REPLACE`
}

const small = 'a = 1\nb = 2\nc = 3\n'
const cases = [
  ['3 lines', 'hinted', small, '<<<<<<< SEARCH\n:start_line:2\n-------\nb = 2\n=======\nb = 20\n>>>>>>> REPLACE'],
  ['3 lines', 'no hint', small, '<<<<<<< SEARCH\nb = 2\n=======\nb = 20\n>>>>>>> REPLACE'],
]
for (const bytes of [10_000, 200_000, 2_000_000]) {
  const original = fileOf(bytes)
  const size = bytes >= 1e6 ? `${bytes / 1e6} MB` : `${bytes / 1000} KB`
  cases.push([size, 'hinted', original, blockNearEnd(original, true)])
  cases.push([size, 'no hint', original, blockNearEnd(original, false)])
}

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

function timePerCallSync(apply, original, diff) {
  const start = process.hrtime.bigint()
  let n = 0
  while (process.hrtime.bigint() - start < 20_000_000n) {
    apply(original, diff)
    n++
  }
  return Number(process.hrtime.bigint() - start) / n / 1000
}

const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1]
const us = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} ms` : `${x.toFixed(1)} µs`).padStart(9)

async function main() {
  const scheduled = new hl.MultiSearchReplaceDiffStrategy()
  const pool = new native.MultiSearchReplaceDiffStrategy()
  const standinAsync = async (o, d) => standin.applyDiff(o, d)
  const sync = (o, d) => hl.applyDiff(d, o, { dialect: 'roo' })
  console.log(`Roo applyDiff: a JavaScript stand-in of Roo's class vs hunkloom (class awaited, scheduled at ${POOL_MIN_LENGTH} UTF-16 units; sync applyDiff)`)
  for (const [size, shape, original, diff] of cases) {
    const expected = standin.applyDiff(original, diff)
    const viaClass = await scheduled.applyDiff(original, diff)
    if (!expected.success || viaClass.content !== expected.content || sync(original, diff).newContent !== expected.content) {
      throw new Error(`${size} ${shape}: hunkloom and the stand-in differ`)
    }
    const times = { standin: [], standinSync: [], scheduled: [], sync: [], pool: [] }
    for (let r = 0; r < ROUNDS; r++) {
      times.standin.push(await timePerCall(standinAsync, original, diff))
      times.scheduled.push(await timePerCall((o, d) => scheduled.applyDiff(o, d), original, diff))
      times.standinSync.push(timePerCallSync(standin.applyDiff, original, diff))
      times.sync.push(timePerCallSync(sync, original, diff))
      if (withPool) times.pool.push(await timePerCall((o, d) => pool.applyDiff(o, d), original, diff))
    }
    const [p, c, ps, s] = [times.standin, times.scheduled, times.standinSync, times.sync].map(median)
    let line = `  ${size.padEnd(8)} ${shape.padEnd(8)} class ${us(c)} vs ${us(p)} ${(p / c).toFixed(2).padStart(7)}x   sync ${us(s)} vs ${us(ps)} ${(ps / s).toFixed(2).padStart(7)}x`
    if (withPool) line += `   pool only ${us(median(times.pool))}`
    console.log(line)
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
