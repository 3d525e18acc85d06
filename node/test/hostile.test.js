'use strict'
// Hostile files and inputs through the Node API: each throws an Error with a stable `code` and
// leaves every file byte-identical, or succeeds; none hangs (the runner's timeout bounds each
// test), none crashes the process. Prints `hostile <input> node <op>: <code>, ...` lines, the
// Node rows of RELIABILITY.md's table.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const hl = require('..')

const DIFF = '------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n'
const posix = process.platform !== 'win32'

function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-hostile-'))
  process.on('exit', () => {
    spawnSync('chattr', ['-R', '-i', dir])
    fs.rmSync(dir, { recursive: true, force: true })
  })
  return dir
}

const sh = (cmd, ...args) => spawnSync(cmd, args).status === 0

/** Every entry under `dir`: bytes of small regular files, type and size of the rest. */
function snapshot(dir) {
  const out = {}
  for (const name of fs.readdirSync(dir)) {
    const p = path.join(dir, name)
    const st = fs.lstatSync(p)
    if (st.isDirectory()) Object.assign(out, snapshot(p))
    else if (st.isFile() && st.size <= 1 << 20) out[p] = fs.readFileSync(p).toString('hex')
    else out[p] = `${st.mode} ${st.size} ${st.mtimeMs}`
  }
  return out
}

function codeOf(f) {
  try {
    f()
    return 'ok'
  } catch (e) {
    assert.ok(e instanceof Error, `${e}`)
    assert.equal(typeof e.code, 'string', e.message)
    return e.code
  }
}

/** The code of each Workspace op on `name`, the tree byte-identical after each refusal. */
function everyOp(dir, name, label) {
  const readThen = (op) => (ws) => {
    try {
      ws.read(name)
    } catch {}
    return op(ws)
  }
  const patch = `*** Begin Patch\n*** Update File: ${name}\n@@\n-x\n+y\n*** End Patch\n`
  const ops = {
    read: (ws) => ws.read(name),
    strReplace: readThen((ws) => ws.strReplace(name, 'x', 'y')),
    applyDiff: readThen((ws) => ws.applyDiff(name, DIFF)),
    write: readThen((ws) => ws.write(name, 'new\n')),
    applyPatch: (ws) => ws.applyPatch(patch),
    undo: (ws) => ws.undo(name),
  }
  const codes = {}
  for (const [op, f] of Object.entries(ops)) {
    const before = snapshot(dir)
    const c = codeOf(() => f(new hl.Workspace(dir)))
    if (c !== 'ok') assert.deepEqual(snapshot(dir), before, `${label} ${op} (${c}) changed files`)
    const done = c !== 'ok' ? 'files unchanged' : op === 'read' ? 'read' : 'applied'
    console.log(`hostile ${label} node ${op}: ${c}, ${done}`)
    codes[op] = c
  }
  return codes
}

function refused(codes, ...allowed) {
  for (const [op, c] of Object.entries(codes)) {
    assert.ok(allowed.includes(c) || (op === 'undo' && c === 'nothing_to_undo'), `${op}: ${c}`)
  }
}

test('FIFO, device, directory and symlink loop are refused at once', { skip: !posix, timeout: 60_000 }, () => {
  const dir = tempDir()
  assert.ok(sh('mkfifo', path.join(dir, 'fifo')))
  fs.mkdirSync(path.join(dir, 'sub'))
  fs.symlinkSync('loop2', path.join(dir, 'loop1'))
  fs.symlinkSync('loop1', path.join(dir, 'loop2'))
  refused(everyOp(dir, 'fifo', 'fifo'), 'io_error')
  refused(everyOp(dir, 'sub', 'directory'), 'io_error')
  refused(everyOp(dir, 'loop1', 'symlink-loop'), 'io_error')
  if (sh('mknod', path.join(dir, 'null'), 'c', '1', '3')) refused(everyOp(dir, 'null', 'device'), 'io_error')
  else console.log('hostile device node: skipped (mknod needs root)')
})

test('0-byte, 2 GiB sparse, non-UTF-8 content, immutable file', { skip: !posix, timeout: 60_000 }, (t) => {
  const dir = tempDir()
  fs.writeFileSync(path.join(dir, 'empty'), '')
  const empty = everyOp(dir, 'empty', '0-byte')
  assert.equal(empty.read, 'ok')
  assert.equal(empty.write, 'ok')
  fs.closeSync(fs.openSync(path.join(dir, 'sparse'), 'w'))
  fs.truncateSync(path.join(dir, 'sparse'), 2 * 2 ** 30)
  const start = Date.now()
  refused(everyOp(dir, 'sparse', 'sparse-2GiB'), 'file_too_large')
  assert.ok(Date.now() - start < 10_000)
  fs.writeFileSync(path.join(dir, 'binary.txt'), Buffer.from('caf\xe9\0 x\n', 'latin1'))
  refused(everyOp(dir, 'binary.txt', 'invalid-UTF-8-binary-content'), 'unsupported_encoding')
  const a = path.join(dir, 'a.txt')
  fs.writeFileSync(a, 'x\n')
  if (!sh('chattr', '+i', a)) {
    console.log('hostile immutable-file node: skipped (chattr +i is not supported here)')
    return
  }
  let codes
  try {
    codes = everyOp(dir, 'a.txt', 'immutable-file')
  } finally {
    assert.ok(sh('chattr', '-i', a))
  }
  assert.equal(codes.read, 'ok')
  delete codes.read
  refused(codes, 'io_error')
})

test('odd bytes: lone surrogates, NUL in paths and text', { skip: !posix }, () => {
  const dir = tempDir()
  fs.writeFileSync(path.join(dir, 'a.txt'), 'x\n')
  const ws = new hl.Workspace(dir)
  ws.read('a.txt')
  const before = snapshot(dir)
  // A JS string with a lone surrogate is not UTF-8; napi converts it to U+FFFD (WTF-16 to
  // UTF-8 replacement), so it is an ordinary character here: the edit applies it as such.
  assert.equal(codeOf(() => hl.applyDiff('------- SEARCH\n\ud800\n=======\ny\n+++++++ REPLACE\n', 'x\n')), 'search_not_found')
  console.log('hostile invalid-UTF-8-diff node applyDiff: search_not_found (lone surrogate read as U+FFFD), files unchanged')
  const nul = codeOf(() => ws.read('a\0b'))
  console.log(`hostile NUL-in-path node read: ${nul}, files unchanged`)
  assert.equal(nul, 'io_error')
  assert.deepEqual(snapshot(dir), before)
  fs.writeFileSync(path.join(dir, 'nul.txt'), 'a\0b\n')
  ws.read('nul.txt')
  ws.strReplace('nul.txt', 'a\0b', 'c\0d')
  assert.equal(fs.readFileSync(path.join(dir, 'nul.txt'), 'latin1'), 'c\0d\n')
  console.log('hostile NUL-in-content node strReplace: ok, applied')
})

test('a 100 MB single line and a million blocks in one diff', { timeout: 400_000 }, () => {
  const dir = tempDir()
  const big = path.join(dir, 'big.txt')
  fs.writeFileSync(big, Buffer.concat([Buffer.alloc(100 << 20, 'a'), Buffer.from('END')]))
  let start = Date.now()
  const ws = new hl.Workspace(dir)
  ws.read('big.txt')
  ws.strReplace('big.txt', 'aEND', 'aFIN')
  const fd = fs.openSync(big, 'r')
  const tail = Buffer.alloc(4)
  fs.readSync(fd, tail, 0, 4, (100 << 20) - 1)
  fs.closeSync(fd)
  assert.equal(tail.toString(), 'aFIN')
  console.log(`hostile 100MB-line node strReplace: ok, applied in ${((Date.now() - start) / 1000).toFixed(1)} s`)

  const n = 1_000_000
  const lines = []
  const blocks = []
  for (let i = 0; i < n; i++) {
    lines.push(`let v${i} = f(${i});\n`)
    blocks.push(`------- SEARCH\nlet v${i} = f(${i});\n=======\nlet v${i} = g(${i});\n+++++++ REPLACE\n`)
  }
  const original = lines.join('')
  fs.writeFileSync(path.join(dir, 'm.rs'), original)
  const diff = blocks.join('')
  start = Date.now()
  const cpu = process.cpuUsage()
  ws.read('m.rs')
  ws.applyDiff('m.rs', diff)
  const used = process.cpuUsage(cpu)
  assert.equal(fs.readFileSync(path.join(dir, 'm.rs'), 'utf8'), original.replaceAll('= f(', '= g('))
  const cpuSeconds = ((used.user + used.system) / 1e6).toFixed(1)
  console.log(`hostile 10^6-blocks node applyDiff: ok, applied in ${((Date.now() - start) / 1000).toFixed(1)} s (${cpuSeconds} s CPU)`)
})
