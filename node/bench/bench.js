'use strict'
// S1-S5 (see scenarios.js) through every way Node code calls hunkloom, alternated in one process
// with a plain-JavaScript stand-in (standin.js: what a JavaScript engine does per call):
//
//   JS stand-in          re-parses the diff per call, indexOf + line-trimmed matching, the
//                        result concatenated from slices (a V8 rope)
//   drop-in Sync         constructNewFileContentSync(diff, original, isFinal)
//   drop-in Promise      await constructNewFileContent(...), one call at a time
//   StreamingApplier     push every 4-char chunk, then finish() (streamed scenarios)
//   + editor view        the same, applying each Update's splice to a piece-list buffer, as an
//                        editor applies edits to its document (reads `inserted`, never the file)
//
// Protocol: the same original string object in every call and round, as an editor passes it;
// streamed scenarios call on every prefix `diff.slice(0, k)` in 4-character steps, then the
// final call; rounds alternate the implementations and the figure is the median after 3
// warm-up rounds (a one-shot scenario's sample times a batch of calls, the same number for
// every implementation, so that microsecond calls are not measured one timer tick at a time).
// "not read" measures the calls alone; "read" also reads one character in the
// middle of every returned `newContent` (of `preview` after each push), which makes V8 flatten
// the string: an O(file) copy any implementation pays. Ratios are the stand-in's time divided
// by the implementation's (higher is faster). Peak RSS on S5 is measured in one child process
// per implementation.
//
// Usage: node --expose-gc bench/bench.js [--quick]

const { spawnSync } = require('node:child_process')
const hl = require('..')
const { Rope } = require('../lib/rope.js')
const standin = require('./standin')
const { s1, s3, s4 } = require('./scenarios')

const quick = process.argv.includes('--quick')
const ROUND_BUDGET_MS = quick ? 400 : 4000

function touch(s) {
  return s.charCodeAt(s.length >> 1)
}

/** The calls of a scenario: every 4-unit prefix (streamed) and the final call. */
function callsOf(s, streamed) {
  const calls = []
  if (streamed) for (let k = 4; k < s.diff.length; k += 4) calls.push(s.diff.slice(0, k))
  return calls
}

function chunksOf(s) {
  const chunks = []
  for (let k = 0; k < s.diff.length; k += 4) chunks.push(s.diff.slice(k, k + 4))
  return chunks
}

const IMPLS = {
  'JS stand-in': (s, read) => {
    for (const prefix of s.prefixes) {
      const r = standin.construct(prefix, s.original, false)
      if (read) touch(r.newContent)
    }
    const r = standin.construct(s.diff, s.original, true)
    if (read) touch(r.newContent)
    return r.newContent
  },
  'drop-in Sync': (s, read) => {
    for (const prefix of s.prefixes) {
      const r = hl.constructNewFileContentSync(prefix, s.original, false)
      if (read) touch(r.newContent)
    }
    const r = hl.constructNewFileContentSync(s.diff, s.original, true)
    if (read) touch(r.newContent)
    return r.newContent
  },
  'drop-in Promise': async (s, read) => {
    for (const prefix of s.prefixes) {
      const r = await hl.constructNewFileContent(prefix, s.original, false)
      if (read) touch(r.newContent)
    }
    const r = await hl.constructNewFileContent(s.diff, s.original, true)
    if (read) touch(r.newContent)
    return r.newContent
  },
  StreamingApplier: (s, read) => {
    const applier = new hl.StreamingApplier(s.original)
    for (const chunk of s.chunks) {
      applier.push(chunk)
      if (read) touch(applier.preview)
    }
    const r = applier.finish()
    if (read) touch(r.newContent)
    return r.newContent
  },
  'StreamingApplier + editor view': (s, read) => {
    const applier = new hl.StreamingApplier(s.original)
    const view = new Rope()
    for (const chunk of s.chunks) {
      const u = applier.push(chunk)
      view.splice(u.start, u.removed, [u.inserted])
      if (read && u.inserted.length > 0) touch(u.inserted)
    }
    const r = applier.finish()
    if (read) touch(r.newContent)
    return r.newContent
  },
}

function scenarios() {
  const S1 = s1()
  const S4 = s4()
  const make = (name, base, streamed, batch = 1) => ({
    name,
    streamed,
    batch,
    original: base.original,
    diff: base.diff,
    prefixes: callsOf(base, streamed),
    chunks: chunksOf(base),
  })
  return [
    make('S1 one-shot, 10k lines', S1, false, 20),
    make('S2 per-prefix, 10k lines', S1, true),
    make('S3 line-trimmed, 10k lines', s3(), false, 10),
    make('S4 one-shot, 200k lines', S4, false, 5),
    make('S5 per-prefix, 200k lines', S4, true),
  ]
}

function implsFor(s) {
  return Object.keys(IMPLS).filter((name) => s.streamed || !name.startsWith('StreamingApplier'))
}

/** Checks that every implementation returns the stand-in's results on this scenario. */
async function check(s) {
  const want = standin.construct(s.diff, s.original, true).newContent
  for (const name of implsFor(s)) {
    if ((await IMPLS[name](s, true)) !== want) throw new Error(`${s.name}: ${name} differs from the stand-in`)
  }
  for (let i = 0; i < s.prefixes.length; i += 37) {
    const p = s.prefixes[i]
    let a
    let b
    try {
      a = standin.construct(p, s.original, false)
    } catch (e) {
      a = e.message
    }
    try {
      b = hl.constructNewFileContentSync(p, s.original, false)
    } catch (e) {
      b = e.message
    }
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${s.name}: prefix ${i} differs from the stand-in`)
  }
}

/** The time of one run of `fn`: the mean over a batch of `batch` runs. */
async function timeOnce(fn, batch) {
  if (global.gc) global.gc()
  const t = performance.now()
  for (let i = 0; i < batch; i++) await fn()
  return (performance.now() - t) / batch
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b)
  return s[s.length >> 1]
}

async function measure(s) {
  const variants = []
  for (const name of implsFor(s)) for (const read of [false, true]) variants.push({ name, read, samples: [] })
  for (let w = 0; w < 3; w++) for (const v of variants) await IMPLS[v.name](s, v.read)
  const start = performance.now()
  let rounds = 0
  while (rounds < 5 || (performance.now() - start < ROUND_BUDGET_MS && rounds < 200)) {
    for (const v of variants) v.samples.push(await timeOnce(() => IMPLS[v.name](s, v.read), s.batch))
    rounds++
  }
  return { variants, rounds }
}

function fmt(ms) {
  return ms < 1 ? `${(ms * 1000).toFixed(0)} us` : `${ms.toFixed(2)} ms`
}

/**
 * The first call on a string the drop-in has not seen as an object: a new string of text it
 * already holds (the same file read again), found by content (`===` compares the characters), or
 * a new text (an edited file), which it copies into native memory once. Each sample uses a fresh
 * flat copy made before the clock starts (a new text: the file with a comment line added at its
 * end); the stand-in runs on the same copies.
 */
async function firstCalls() {
  const rows = []
  const kinds = { 'text seen': () => '', 'new text': (i) => `\n// edit ${i}\n` }
  for (const s of scenarios().filter((x) => !x.streamed && !x.name.startsWith('S3'))) {
    for (const [kind, suffix] of Object.entries(kinds)) {
      const samples = { 'JS stand-in': [], 'drop-in Sync': [] }
      for (let i = 0; i < 15; i++) {
        const results = []
        for (const name of Object.keys(samples)) {
          const copy = Buffer.from(s.original + suffix(i), 'utf8').toString('utf8')
          touch(copy)
          if (global.gc) global.gc()
          const t = performance.now()
          const r = name === 'JS stand-in' ? standin.construct(s.diff, copy, true) : hl.constructNewFileContentSync(s.diff, copy, true)
          samples[name].push(performance.now() - t)
          results.push(r.newContent)
        }
        if (results[0].length === 0 || results[0] !== results[1]) throw new Error(`${s.name} ${kind}: results differ`)
      }
      const base = median(samples['JS stand-in'])
      for (const [name, xs] of Object.entries(samples)) {
        rows.push({ scenario: s.name, original: kind, implementation: name, median: fmt(median(xs)), 'vs stand-in': `${(base / median(xs)).toFixed(2)}x` })
      }
    }
  }
  console.log('\nFirst call on a new original string (result not read; not a target):')
  console.table(rows)
}

/** Runs S5 a few times and prints the peak RSS (child process mode). */
async function rssChild(name) {
  const s = scenarios()[4]
  for (let i = 0; i < 3; i++) await IMPLS[name](s, true)
  console.log(JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS }))
}

async function main() {
  const rssAt = process.argv.indexOf('--rss')
  if (rssAt !== -1) return rssChild(process.argv[rssAt + 1])
  const t0 = performance.now()
  const results = {}
  for (const s of scenarios()) {
    await check(s)
    const { variants, rounds } = await measure(s)
    const base = {}
    for (const v of variants) if (v.name === 'JS stand-in') base[v.read] = median(v.samples)
    const rows = variants.map((v) => {
      const ms = median(v.samples)
      const sorted = [...v.samples].sort((a, b) => a - b)
      const spread = (sorted[Math.floor(sorted.length * 0.75)] - sorted[Math.floor(sorted.length * 0.25)]) / ms
      results[`${s.name.slice(0, 2)} ${v.name}${v.read ? ' read' : ''}`] = base[v.read] / ms
      return {
        implementation: v.name,
        result: v.read ? 'read' : 'not read',
        median: fmt(ms),
        'per call': s.streamed ? fmt(ms / (s.prefixes.length + 1)) : '',
        'IQR/median': `${(spread * 100).toFixed(0)}%`,
        'vs stand-in': `${(base[v.read] / ms).toFixed(2)}x`,
      }
    })
    console.log(`\n${s.name}: ${s.prefixes.length + 1} calls, ${s.chunks.length} chunks, ${rounds} rounds`)
    console.table(rows)
  }
  await firstCalls()
  console.log('\nPeak RSS on S5 (read), one process each:')
  const rss = {}
  for (const name of Object.keys(IMPLS)) {
    const out = spawnSync(process.execPath, ['--expose-gc', __filename, '--rss', name], { encoding: 'utf8' })
    if (out.status !== 0) throw new Error(out.stderr)
    rss[name] = JSON.parse(out.stdout.trim().split('\n').pop()).maxRssKiB / 1024
  }
  console.table(
    Object.entries(rss).map(([name, mib]) => ({
      implementation: name,
      'peak RSS': `${mib.toFixed(0)} MiB`,
      'vs stand-in': `${(mib / rss['JS stand-in']).toFixed(2)}x`,
    })),
  )
  targets(results, rss)
  console.log(`(bench ran in ${((performance.now() - t0) / 1000).toFixed(1)} s)`)
}

/** The targets of the drop-in and the applier, as ratios to the stand-in (issue 14). */
function targets(r, rss) {
  const want = []
  for (const api of ['drop-in Sync', 'drop-in Promise']) {
    want.push([`S1 ${api}`, 1], [`S2 ${api}`, 2], [`S3 ${api}`, 5], [`S4 ${api}`, 0.4], [`S5 ${api}`, 2])
    want.push([`S1 ${api} read`, 0.9], [`S2 ${api} read`, 0.9], [`S4 ${api} read`, 0.75], [`S5 ${api} read`, 0.9])
  }
  want.push(['S2 StreamingApplier', 10], ['S5 StreamingApplier', 5])
  want.push(['S2 StreamingApplier read', 0.9], ['S5 StreamingApplier read', 0.9])
  console.log('\nTargets (ratio to the stand-in, higher is faster):')
  let missed = 0
  for (const [key, min] of want) {
    const ok = r[key] >= min
    if (!ok) missed++
    console.log(`  ${ok ? 'met   ' : 'MISSED'} ${key}: ${r[key].toFixed(2)}x (target >= ${min}x)`)
  }
  for (const api of ['drop-in Sync', 'drop-in Promise']) {
    const ratio = rss[api] / rss['JS stand-in']
    const ok = ratio <= 1.3
    if (!ok) missed++
    console.log(`  ${ok ? 'met   ' : 'MISSED'} S5 peak RSS ${api}: ${ratio.toFixed(2)}x the stand-in's (target <= 1.3x)`)
  }
  console.log(missed === 0 ? 'every target met' : `${missed} targets missed`)
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
