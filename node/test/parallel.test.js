'use strict'
// Parallel tool calls on one Workspace as a TypeScript agent makes them: concurrent Promise
// calls (`…Async`, run on libuv's thread pool). Every edit of its own line lands; of two edits of
// one line exactly one lands and the other rejects with a code; nothing is lost. Prints
// `parallel node ...` lines.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const hl = require('..')

const FUNCTIONS = 240
const module_ = () => {
  let text = ''
  for (let i = 0; i < FUNCTIONS; i++) text += `def f${i}(x):\n    y = x + ${i}\n    return y * ${i}\n\n`
  return text
}
const oldLine = (i) => `    return y * ${i}\n`
const newLine = (i, who) => `    return y * ${i}  # ${who}\n`
const PICKS = Array.from({ length: 16 }, (_, k) => k * 15 + 3)

function setup () {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-parallel-'))
  fs.writeFileSync(path.join(dir, 'm.py'), module_())
  return dir
}

test('one Workspace, 16 concurrent Promise edits of one file: all land', async () => {
  const dir = setup()
  const ws = new hl.Workspace(dir)
  await ws.readAsync('m.py')
  const calls = PICKS.map((i, t) => {
    switch (t % 3) {
      case 0: return ws.strReplaceAsync('m.py', oldLine(i), newLine(i, 'x'))
      case 1: return ws.applyDiffAsync('m.py', `<<<<<<< SEARCH\n${oldLine(i)}=======\n${newLine(i, 'x')}>>>>>>> REPLACE\n`)
      default: return ws.applyPatchAsync(
        `*** Begin Patch\n*** Update File: m.py\n@@ def f${i}(x):\n     y = x + ${i}\n-${oldLine(i).slice(0, -1)}\n+${newLine(i, 'x').slice(0, -1)}\n*** End Patch\n`)
    }
  })
  const results = await Promise.allSettled(calls)
  const landed = results.filter((r) => r.status === 'fulfilled').length
  console.log(`parallel node one Workspace, 16 concurrent Promise calls: ${landed}/16 landed`)
  assert.deepEqual(results.filter((r) => r.status === 'rejected').map((r) => r.reason), [])
  let want = module_()
  for (const i of PICKS) want = want.replace(oldLine(i), newLine(i, 'x'))
  assert.equal(fs.readFileSync(path.join(dir, 'm.py'), 'utf8'), want)
})

test('of each same-line pair of concurrent Promise edits exactly one lands', async () => {
  const dir = setup()
  const ws = new hl.Workspace(dir)
  ws.read('m.py')
  const line = Array.from({ length: 16 }, (_, t) => Math.floor(t / 2) * 30 + 1)
  const results = await Promise.allSettled(line.map((i, t) => ws.strReplaceAsync('m.py', oldLine(i), newLine(i, `t${t}`))))
  const after = fs.readFileSync(path.join(dir, 'm.py'), 'utf8')
  const codes = {}
  for (let pair = 0; pair < 8; pair++) {
    const [a, b] = [results[2 * pair], results[2 * pair + 1]]
    assert.notEqual(a.status, b.status, `pair ${pair}`)
    const winner = a.status === 'fulfilled' ? 2 * pair : 2 * pair + 1
    const loser = a.status === 'fulfilled' ? b : a
    assert.ok(after.includes(newLine(line[winner], `t${winner}`)))
    assert.ok(['stale_file', 'not_found'].includes(loser.reason.code), loser.reason.message)
    codes[loser.reason.code] = (codes[loser.reason.code] ?? 0) + 1
  }
  console.log(`parallel node same-line pairs: 8/8 with exactly one winner, refusals ${JSON.stringify(codes)}`)
})

test('a Promise call with a wrong argument rejects; edits of a missing read reject with a code', async () => {
  const dir = setup()
  const ws = new hl.Workspace(dir)
  await assert.rejects(ws.strReplaceAsync('m.py', 3, 'x'), (e) => e instanceof TypeError)
  await assert.rejects(ws.writeAsync('m.py', 'x\n'), (e) => e.code === 'not_read')
  assert.equal(fs.readFileSync(path.join(dir, 'm.py'), 'utf8'), module_())
  const created = await ws.writeAsync('new.txt', 'hello\n')
  assert.equal(created.kind, 'create')
  const inserted = await (async () => { await ws.readAsync('new.txt'); return ws.insertAsync('new.txt', 1, 'first\n', 'before') })()
  assert.equal(inserted.newContent, 'first\nhello\n')
})

test('16 concurrent Promise edits while the user\'s editor saves other lines: no save lost', async () => {
  const { Worker } = require('node:worker_threads')
  const dir = setup()
  const file = path.join(dir, 'm.py')
  const ws = new hl.Workspace(dir)
  ws.read('m.py')
  const userLines = [20, 60, 100, 140, 180, 220]
  const ROUNDS = 30
  // The user's editor, on a thread of its own: reads the file, changes its lines, writes a
  // temporary file and renames it over the file (as editors save). A commit that swapped its
  // file in over a save puts the save back within microseconds, so when its own last save is
  // missing the editor reads again (as one told of a change does); missing for 2 s is a loss.
  const user = new Worker(`
    const fs = require('node:fs')
    const { workerData: { file, userLines, rounds } } = require('node:worker_threads')
    const oldLine = (i) => '    return y * ' + i + '\\n'
    const newLine = (i, who) => '    return y * ' + i + '  # ' + who + '\\n'
    for (let r = 0; r < rounds; r++) {
      const prev = userLines.map((i) => (r === 0 ? oldLine(i) : newLine(i, 'user ' + (r - 1))))
      const started = Date.now()
      let seen
      for (;;) {
        seen = fs.readFileSync(file, 'utf8')
        if (prev.every((p) => seen.includes(p))) break
        if (Date.now() - started > 2000) throw new Error('a save of the user\\'s was lost')
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1)
      }
      let next = seen
      userLines.forEach((i, k) => { next = next.replace(prev[k], newLine(i, 'user ' + r)) })
      fs.writeFileSync(file + '.user', next)
      fs.renameSync(file + '.user', file)
    }
  `, { eval: true, workerData: { file, userLines, rounds: ROUNDS } })
  const done = new Promise((resolve, reject) => { user.on('exit', resolve); user.on('error', reject) })
  const edit = async (i) => {
    for (let tries = 0; ; tries++) {
      try {
        return await ws.strReplaceAsync('m.py', oldLine(i), newLine(i, 'x'))
      } catch (e) {
        if (e.code !== 'stale_file' || tries > 50) throw e
        await ws.readAsync('m.py')
      }
    }
  }
  const results = await Promise.allSettled(PICKS.map(edit))
  assert.equal(await done, 0)
  assert.deepEqual(results.filter((r) => r.status === 'rejected').map((r) => r.reason), [])
  const after = fs.readFileSync(file, 'utf8')
  for (const i of userLines) assert.ok(after.includes(newLine(i, `user ${ROUNDS - 1}`)), `the user's last save of ${i}`)
  console.log(`parallel node agents + user saving: 16/16 edits answered ok, ${ROUNDS}/${ROUNDS} user saves kept, lost: 0`)
})
