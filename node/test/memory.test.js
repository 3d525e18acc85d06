'use strict'
// Memory: a call that needs more memory than the process may have throws a RangeError with
// code `out_of_memory` and the process goes on, instead of being aborted by the allocator.
// Run in a child process whose address space is limited (prlimit) to what it uses plus 256 MB.

const test = require('node:test')
const assert = require('node:assert/strict')
const { execFileSync, spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const CHILD = `
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const hl = require(${JSON.stringify(path.join(__dirname, '..'))})
const root = process.argv[1]
const ws = new hl.Workspace(root, { maxFileSize: 2 ** 30 })
ws.read('small.txt')
const status = fs.readFileSync('/proc/self/status', 'utf8')
const vmKib = Number(/VmSize:\\s+(\\d+)/.exec(status)[1])
const limit = (vmKib + 256 * 1024) * 1024
execFileSync('prlimit', ['--pid', String(process.pid), '--as=' + limit])
try {
  ws.read('big.txt')
  console.log('no error')
} catch (error) {
  console.log('caught', error instanceof RangeError, error.code, error.message)
}
console.log('went on', ws.read('small.txt') === 'a\\n')
`

const hasPrlimit = spawnSync('prlimit', ['--version']).status === 0

test('a file beyond the memory limit throws a RangeError out_of_memory', { skip: !hasPrlimit && 'no prlimit on this machine' }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-memory-'))
  const fd = fs.openSync(path.join(dir, 'big.txt'), 'w')
  fs.ftruncateSync(fd, 768 * 2 ** 20) // sparse: no disk used
  fs.closeSync(fd)
  fs.writeFileSync(path.join(dir, 'small.txt'), 'a\n')
  const out = execFileSync(process.execPath, ['-e', CHILD, dir], { encoding: 'utf8' })
  assert.match(out, /^caught true out_of_memory Out of memory: reading the file/m, out)
  assert.match(out, /^went on true$/m, out)
  fs.rmSync(dir, { recursive: true, force: true })
})
