'use strict'
// S1-S5 (see scenarios.js) through every way Node code calls hunkloom, in one run:
//
//   one-shot                      constructNewFileContentSync(diff, original, true)
//   StreamingApplier              push every 4-char chunk, then finish() (the API's own cost,
//                                 as the Rust bench's "stateful applier" measures it)
//   + view via splices            the same, keeping a view string up to date from each Update
//   + preview per push            the same, reading the flattened preview after each push
//                                 (the flattened-result cost: a full JS string per push)
//   per-prefix, no cache          Cline's pattern: constructNewFileContentSync(prefix, original,
//                                 false) on every prefix, then the final call; resume cache off
//                                 (setResumeCacheCapacity(0)), i.e. what Cline's own code does
//   per-prefix, cache             the same with the resume cache on (the default)
//   per-prefix, cache, Promise    the same through the Promise API, awaiting each call
//   transcode original in         constructNewFileContentSync("", original, false): passing
//                                 the original into napi once (a floor of any per-prefix call)
//   cached call, nothing new      a per-prefix call that resumes with an empty suffix: the
//                                 original in, its comparison, the preview out (the floor of
//                                 a resumed call)
//
// Usage: node --expose-gc bench/bench.js [--quick]

const hl = require('..')
const { chunks, s1, s3, s4 } = require('./scenarios')

const quick = process.argv.includes('--quick')
const MIN_MS = quick ? 50 : 400

/** Median wall time of `fn` in ms, repeated until MIN_MS has passed (at least 3 runs). */
async function time(fn) {
  const samples = []
  const start = performance.now()
  while (samples.length < 3 || (performance.now() - start < MIN_MS && samples.length < 200)) {
    if (global.gc) global.gc()
    const t = performance.now()
    await fn()
    samples.push(performance.now() - t)
  }
  samples.sort((a, b) => a - b)
  return samples[samples.length >> 1]
}

function oneShot(s) {
  return hl.constructNewFileContentSync(s.diff, s.original, true).newContent
}

function applier(s, pieces) {
  const applier = new hl.StreamingApplier(s.original)
  for (const p of pieces) applier.push(p)
  return applier.finish().newContent
}

function applierSplices(s, pieces) {
  const applier = new hl.StreamingApplier(s.original)
  let view = ''
  for (const p of pieces) {
    const u = applier.push(p)
    if (u.removed === 0 && u.start === view.length) view += u.inserted
    else view = view.slice(0, u.start) + u.inserted + view.slice(u.start + u.removed)
  }
  return view.length >= 0 && applier.finish().newContent
}

function applierPreview(s, pieces) {
  const applier = new hl.StreamingApplier(s.original)
  let view = ''
  for (const p of pieces) {
    applier.push(p)
    view = applier.preview
  }
  return view.length >= 0 && applier.finish().newContent
}

function perPrefixSync(s, pieces) {
  let prefix = ''
  for (const p of pieces) {
    prefix += p
    try {
      hl.constructNewFileContentSync(prefix, s.original, false)
    } catch {}
  }
  return hl.constructNewFileContentSync(s.diff, s.original, true).newContent
}

async function perPrefixAsync(s, pieces) {
  let prefix = ''
  for (const p of pieces) {
    prefix += p
    await hl.constructNewFileContent(prefix, s.original, false).catch(() => {})
  }
  return (await hl.constructNewFileContent(s.diff, s.original, true)).newContent
}

const rows = []
function row(scenario, mode, ms, calls, baseline) {
  rows.push({
    scenario,
    mode,
    'ms/run': ms < 10 ? ms.toFixed(3) : ms.toFixed(1),
    calls,
    'us/call': ((ms * 1000) / calls).toFixed(1),
    'vs no-cache': baseline ? `${(baseline / ms).toFixed(1)}x` : '',
  })
}

async function streamed(name, s) {
  const pieces = chunks(s.diff, 4)
  const want = oneShot(s)
  const calls = pieces.length + 1
  hl.setResumeCacheCapacity(0)
  if (perPrefixSync(s, pieces) !== want) throw new Error(`${name}: per-prefix result differs`)
  const noCache = await time(() => perPrefixSync(s, pieces))
  hl.setResumeCacheCapacity(4)
  for (const f of [applier, applierSplices, applierPreview, perPrefixSync]) {
    if (f(s, pieces) !== want) throw new Error(`${name}: ${f.name} result differs`)
  }
  row(name, 'per-prefix, no cache', noCache, calls, noCache)
  row(name, 'per-prefix, cache', await time(() => perPrefixSync(s, pieces)), calls, noCache)
  row(name, 'per-prefix, cache, Promise', await time(() => perPrefixAsync(s, pieces)), calls, noCache)
  row(name, 'StreamingApplier', await time(() => applier(s, pieces)), calls, noCache)
  row(name, 'StreamingApplier + view via splices', await time(() => applierSplices(s, pieces)), calls, noCache)
  row(name, 'StreamingApplier + preview per push', await time(() => applierPreview(s, pieces)), calls, noCache)
  row(name, 'transcode original in (1 call)', await time(() => hl.constructNewFileContentSync('', s.original, false)), 1)
  const prefix = s.diff.slice(0, -1)
  hl.constructNewFileContentSync(prefix, s.original, false)
  row(name, 'cached call, nothing new (1 call)', await time(() => hl.constructNewFileContentSync(prefix, s.original, false)), 1)
}

async function main() {
  const t0 = performance.now()
  const S1 = s1()
  const S3 = s3()
  const S4 = s4()
  for (const [name, s] of [['S1', S1], ['S3', S3], ['S4', S4]]) {
    if (oneShot(s) === s.original) throw new Error(`${name} edits nothing`)
    const lines = s.original.split('\n').length - 1
    row(`${name} (${lines} lines, ${(s.original.length / 2 ** 20).toFixed(1)} MiB)`, 'one-shot', await time(() => oneShot(s)), 1)
  }
  await streamed(`S2 (S1, ${chunks(S1.diff, 4).length} chunks)`, S1)
  await streamed(`S5 (S4, ${chunks(S4.diff, 4).length} chunks)`, S4)
  console.table(rows)
  const s2 = rows.filter((r) => r.scenario.startsWith('S2'))
  const ratio = (parseFloat(s2[0]['ms/run']) / parseFloat(s2.find((r) => r.mode === 'StreamingApplier')['ms/run'])).toFixed(0)
  console.log(`S2: StreamingApplier is ${ratio}x faster than per-prefix calls without the resume cache (target: >= 50x)`)
  console.log(`(bench ran in ${((performance.now() - t0) / 1000).toFixed(1)} s)`)
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
