'use strict'
// worker_threads under load: each worker has its own appliers and its own Workspace (on one
// root, its own file) and works for about a second; none interferes with another. Each worker
// counts its operations, the main thread checks every file and result, and prints
// `concurrency node ...: N ops, ... lost: 0` for RELIABILITY.md.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads')

const WORKERS = 4
const MILLIS = 1200

if (!isMainThread) {
  const hl = require('..')
  const { dir, id } = workerData
  const name = `w${id}.txt`
  const ws = new hl.Workspace(dir)
  let commits = 0
  let applies = 0
  const end = Date.now() + MILLIS
  while (Date.now() < end) {
    ws.read(name)
    ws.applyDiff(name, `------- SEARCH\ncount: ${commits}\n=======\ncount: ${commits + 1}\n+++++++ REPLACE\n`)
    commits++
    const original = `a ${id}\nb ${commits}\n`
    const applier = new hl.StreamingApplier(original, { dialect: 'native' })
    const diff = `------- SEARCH\nb ${commits}\n=======\nB ${commits}\n+++++++ REPLACE\n`
    for (let k = 0; k < diff.length; k += 5) applier.push(diff.slice(k, k + 5))
    const out = applier.finish()
    if (out.newContent !== `a ${id}\nB ${commits}\n`) throw new Error(`worker ${id}: wrong result ${out.newContent}`)
    applies++
  }
  parentPort.postMessage({ commits, applies })
} else {
  const test = require('node:test')
  const assert = require('node:assert/strict')
  test(`${WORKERS} worker threads, each with its own Workspace and appliers`, { timeout: 60_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-workers-'))
    process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }))
    for (let id = 0; id < WORKERS; id++) fs.writeFileSync(path.join(dir, `w${id}.txt`), 'head\ncount: 0\ntail\n')
    const results = await Promise.all(
      Array.from({ length: WORKERS }, (_, id) => new Promise((resolve, reject) => {
        const w = new Worker(__filename, { workerData: { dir, id } })
        w.once('message', resolve)
        w.once('error', reject)
        w.once('exit', (code) => code === 0 || reject(new Error(`worker ${id} exited with ${code}`)))
      })),
    )
    let commits = 0
    let applies = 0
    results.forEach((r, id) => {
      assert.equal(fs.readFileSync(path.join(dir, `w${id}.txt`), 'utf8'), `head\ncount: ${r.commits}\ntail\n`)
      commits += r.commits
      applies += r.applies
    })
    assert.ok(commits > 0 && applies > 0)
    console.log(`concurrency node ${WORKERS} worker_threads, own Workspace and appliers, one root: ${commits} commits, ${applies} streamed applies, 0 refused, lost: 0`)
  })
}
