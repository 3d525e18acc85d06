'use strict'
// Options objects: a key no option of the call has (a misspelling such as `dialet`) throws a
// TypeError naming it and the valid keys, instead of being ignored; every key index.d.ts
// declares for the options type is accepted.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const hl = require('..')

/** The keys index.d.ts declares for `interface NAME`. */
function declared(name) {
  const types = fs.readFileSync(path.join(__dirname, '..', 'index.d.ts'), 'utf8')
  const body = types.split(`export interface ${name} {`)[1].split('\n}')[0]
  return [...body.matchAll(/^ {2}(\w+)\?:/gm)].map((m) => m[1])
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-options-'))
fs.writeFileSync(path.join(dir, 'a.txt'), 'x\n')
const ws = new hl.Workspace(dir)
ws.read('a.txt')
const DIFF = '------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n'
const PATCH = '*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** End Patch\n'

const calls = {
  'applyDiff': [['ApplyOptions'], (o) => hl.applyDiff(DIFF, 'x\n', o)],
  'new StreamingApplier': [['ApplierOptions'], (o) => new hl.StreamingApplier('x\n', o)],
  'applyLazy': [['LazyOptions'], (o) => hl.applyLazy('x\n', 'x\n', o)],
  'applyPatch': [['PatchOptions', 'PatchBodyOptions'], (o) => hl.applyPatch(PATCH, { 'a.txt': 'x\n' }, o)],
  'strReplace': [['StrReplaceOptions'], (o) => hl.strReplace('x\n', 'x', 'y', false, null, o)],
  'new TextEditor': [['TextEditorOptions'], (o) => new hl.TextEditor(dir, o)],
  'new Toolset': [['ToolsetOptions'], (o) => new hl.Toolset(dir, o)],
  'new Workspace': [['WorkspaceOptions'], (o) => new hl.Workspace(dir, o)],
  'Workspace.applyDiff': [['ApplyOptions'], (o) => ws.applyDiff('a.txt', DIFF.replace('y', 'x2'), o)],
  'Workspace.applyLazy': [['WorkspaceLazyOptions'], (o) => ws.applyLazy('a.txt', 'x\n', o)],
  'Workspace.write': [['WorkspaceWriteOptions'], (o) => ws.write('a.txt', 'x\n', o)],
  'Workspace.applyPatch': [['PatchOptions'], (o) => ws.applyPatch(PATCH.replace('+y', '+x'), o)],
}

for (const [call, [interfaces, run]] of Object.entries(calls)) {
  test(`${call}: a misspelled option throws a TypeError naming it; the declared ones pass`, () => {
    assert.throws(() => run({ dialet: 'native' }), (e) => {
      assert.ok(e instanceof TypeError, String(e))
      assert.match(e.message, /has no option "dialet"; its options are /)
      return true
    })
    const keys = interfaces.flatMap(declared)
    assert.ok(keys.length > 0, interfaces.join(' & '))
    const options = Object.fromEntries(keys.map((k) => [k, undefined]))
    try {
      run(options)
    } catch (e) {
      assert.doesNotMatch(String(e.message), /has no option/)
    }
  })
}

test('the Promise forms reject a misspelled option the same way', async () => {
  await assert.rejects(ws.applyDiffAsync('a.txt', DIFF, { polcy: 'partial' }), /has no option "polcy"/)
})

test('protected paths: read, never written; protect adds globs, protectDefaults lifts the defaults', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-protect-'))
  fs.mkdirSync(path.join(root, '.git'))
  fs.writeFileSync(path.join(root, '.git', 'config'), '[core]\n')
  fs.writeFileSync(path.join(root, '.env'), 'KEY=1\n')
  const ws = new hl.Workspace(root, { protect: ['.env*'] })
  assert.equal(ws.read('.git/config'), '[core]\n')
  assert.throws(() => ws.write('.git/config', 'x\n'), (e) => e.code === 'path_protected' && /Reading it is allowed/.test(e.message))
  ws.read('.env')
  assert.throws(() => ws.strReplace('.env', 'KEY=1', 'KEY=2'), (e) => e.code === 'path_protected')
  const open = new hl.Workspace(root, { protectDefaults: false })
  open.read('.git/config')
  open.write('.git/config', '[core]\n\tbare = false\n')
  assert.throws(() => new hl.Workspace(root, { protect: ['[z-a]'] }), (e) => e.code === 'invalid_glob')
  const editor = new hl.TextEditor(root, { protect: ['.env*'] })
  const result = editor.call({ command: 'create', path: '.git/hooks/pre-commit', file_text: 'x' })
  assert.equal(result.code, 'path_protected')
})
