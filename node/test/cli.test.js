'use strict'
// The npm package's `hunkloom` command (bin/hunkloom.js, what `npx hunkloom` runs): the same
// program as the binary, run through the addon.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const BIN = path.join(__dirname, '..', 'bin', 'hunkloom.js')
const VERSION = require('../package.json').version
const run = (args, input, cwd) => spawnSync(process.execPath, [BIN, ...args], { input, cwd, encoding: 'utf8', timeout: 60_000 })

test('--version, --help and a usage error', () => {
  let done = run(['--version'])
  assert.equal(done.status, 0, done.stderr)
  assert.equal(done.stdout, `hunkloom ${VERSION}\n`)
  done = run(['--help'])
  assert.equal(done.status, 0)
  assert.match(done.stdout, /mcp/)
  done = run(['frobnicate'])
  assert.equal(done.status, 2)
  assert.match(done.stderr, /frobnicate/)
})

test('apply through the bin script, and a refusal', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-cli-'))
  fs.writeFileSync(path.join(dir, 'a.js'), 'const x = 1\n')
  const diff = '------- SEARCH\nconst x = 1\n=======\nconst x = 2\n+++++++ REPLACE\n'
  let done = run(['apply', '--diff', '-', 'a.js'], diff, dir)
  assert.equal(done.status, 0, done.stderr)
  assert.equal(fs.readFileSync(path.join(dir, 'a.js'), 'utf8'), 'const x = 2\n')
  done = run(['apply', '--diff', '-', 'a.js'], '------- SEARCH\nconst x = 9\n=======\nconst x = 3\n+++++++ REPLACE\n', dir)
  assert.equal(done.status, 1)
  assert.match(done.stderr, /^hunkloom: /)
})

test('mcp through the bin script answers initialize and tools/list', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-cli-'))
  const lines = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }
  ]
  const done = run(['mcp', '--root', dir], lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
  assert.equal(done.status, 0, done.stderr)
  const answers = done.stdout.trim().split('\n').map((l) => JSON.parse(l))
  assert.equal(answers[0].result.serverInfo.name, 'hunkloom')
  assert.equal(answers[0].result.serverInfo.version, VERSION)
  assert.ok(answers[1].result.tools.some((t) => t.name === 'apply_diff'))
})
