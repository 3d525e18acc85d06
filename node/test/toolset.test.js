'use strict'
// Toolset: the toolset corpora (tests/vectors/toolsets/, format in its README) through the Node
// API, as crates/hunkloom-tools/tests/toolset_vectors.rs replays them: each case in a fresh
// private parent P with the root P/work, one toolset, and after every call the output
// (placeholders put back), the error flag, the files under the root, its empty directories and
// the files outside it compared. Crash sets: the call the reference crashed on must be an error
// result that changes nothing.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const hl = require('..')
const { Toolset } = hl
const { applySplice } = require('./helpers')

const DIR = path.join(__dirname, '..', '..', 'tests', 'vectors', 'toolsets')

function load(name) {
  return fs
    .readFileSync(path.join(DIR, `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l))
}

function parseTree(tree) {
  const out = {}
  for (const [p, c] of Object.entries(tree || {})) {
    out[p] = typeof c === 'string' ? Buffer.from(c, 'utf8') : Buffer.from(c.base64, 'base64')
  }
  return out
}

function readTree(root, skip) {
  const out = {}
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      const rel = path.relative(root, full).split(path.sep).join('/')
      if (skip && rel === skip) continue
      if (entry.isDirectory()) walk(full)
      else if (entry.isFile()) out[rel] = fs.readFileSync(full)
    }
  }
  walk(root)
  return out
}

function emptyDirs(root) {
  const out = []
  const walk = (dir) => {
    const entries = fs.readdirSync(dir, { withFileTypes: true })
    if (entries.length === 0 && dir !== root) out.push(path.relative(root, dir).split(path.sep).join('/'))
    for (const e of entries) if (e.isDirectory()) walk(path.join(dir, e.name))
  }
  walk(root)
  return out.sort()
}

function sameTree(a, b) {
  const ka = Object.keys(a).sort()
  const kb = Object.keys(b).sort()
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k].equals(b[k]))
}

function withRoot(value, root) {
  if (typeof value === 'string') return value.split('{root}').join(root)
  if (Array.isArray(value)) return value.map((v) => withRoot(v, root))
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withRoot(v, root)]))
  }
  return value
}

const VOLATILE = { '{project_temp}': '\\S+', '{wall_time}': '[0-9]+(\\.[0-9]+)?', '{chunk_id}': '[0-9a-f]+' }

function matches(recorded, actual) {
  // Most outputs have no volatile piece (and some are too long for one RegExp).
  if (!/\{project_temp\}|\{wall_time\}|\{chunk_id\}/.test(recorded)) return recorded === actual
  const pattern = recorded
    .split(/(\{project_temp\}|\{wall_time\}|\{chunk_id\})/)
    .map((piece) => VOLATILE[piece] || piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('')
  return new RegExp(`^${pattern}$`, 's').test(actual)
}

// The documented deviation a call meets (as hunkloom_testkit::toolsets::deviation).
// `before` is the tree before the call.
function deviation(c, call, before) {
  if (c.profile === 'gemini' && (call.tool === 'replace' || call.tool === 'write_file')) {
    const rel = (call.input.file_path || '').replace(/^\{root\}\//, '').replace(/^\.\//, '')
    const bytes = before[rel]
    if (bytes === undefined) return null
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes)
      return null
    } catch {
      return 'not_utf8_kept'
    }
  }
  if (c.profile !== 'codex') return null
  if ((call.output || '').includes('Process exited with code')) return 'not_run'
  if (call.tool === 'apply_patch_json') return null
  const text = JSON.stringify(call.input)
  if ((call.outside && Object.keys(call.outside).length) || text.includes('{root}/..') || text.includes('../')) return 'outside_root'
  for (const rest of text.split('*** Update File: ').slice(1)) {
    const lines = rest.split('\\n')
    if (lines.length > 1 && lines[1] === `*** Move to: ${lines[0]}`) return 'move_onto_itself'
  }
  return null
}

function runCase(c) {
  const parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-ts-')))
  const root = path.join(parent, 'work')
  fs.mkdirSync(root)
  try {
    let before = parseTree(c.tree)
    for (const [rel, data] of Object.entries(before)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true })
      fs.writeFileSync(path.join(root, rel), data)
    }
    const toolset = new Toolset(root, { profile: c.profile })
    const crash = c.reference_crash ? c.reference_crash.call : -1
    for (const [i, call] of c.calls.entries()) {
      const at = `#${i} (${call.kind})`
      const result = toolset.call(call.tool, withRoot(call.input, root))
      const output = result.output.split(root).join('{root}').split(parent + '/').join('{root_parent}/')
      const tree = readTree(root)
      const kind = deviation(c, call, before)
      if (kind !== null) {
        const nothingWritten = sameTree(tree, before) && Object.keys(readTree(parent, 'work')).length === 0
        const fine = {
          not_run: result.isError && result.code === 'not_an_edit' && nothingWritten,
          outside_root: result.isError && result.code === 'path_outside_root' && nothingWritten,
          move_onto_itself: !result.isError && JSON.stringify(Object.keys(tree).sort()) === JSON.stringify(Object.keys(before).sort()),
          not_utf8_kept: result.isError && result.code === 'unsupported_encoding' && nothingWritten,
        }[kind]
        return fine ? null : `${at}: deviation ${kind} not met: ${JSON.stringify(output)}`
      }
      if (i === crash) {
        if (!result.isError || !output) return `${at}: not an error result`
        return sameTree(tree, before) ? null : `${at}: the tree changed`
      }
      if (!matches(call.output, output)) return `${at}: output\n  want ${JSON.stringify(call.output)}\n  got  ${JSON.stringify(output)}`
      if (result.isError !== call.is_error) return `${at}: isError ${result.isError}`
      if (!sameTree(tree, parseTree(call.tree))) return `${at}: tree differs`
      if (JSON.stringify(emptyDirs(root)) !== JSON.stringify(call.empty_dirs || [])) return `${at}: empty dirs`
      if (!sameTree(readTree(parent, 'work'), parseTree(call.outside))) return `${at}: files outside the root`
      before = tree
    }
    return null
  } finally {
    fs.rmSync(parent, { recursive: true, force: true })
  }
}

for (const name of ['openai', 'openai-crashes', 'codex', 'codex-shell-passthrough', 'gemini', 'gemini-differences', 'copilot', 'copilot-differences']) {
  test(`toolset-${name}: every case`, () => {
    const cases = load(name)
    assert.ok(cases.length > 0)
    const failures = []
    for (const c of cases) {
      const why = runCase(c)
      if (why !== null) failures.push(`${c.id} ${why}`)
    }
    console.log(`# toolset-${name}: ${cases.length - failures.length}/${cases.length} passed`)
    assert.deepEqual(failures.slice(0, 5), [])
  })
}

test('tools(), an unknown tool name, an unknown profile', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-ts-'))
  const toolset = new Toolset(dir, { profile: 'openai' })
  assert.equal(toolset.profile, 'openai')
  const tools = toolset.tools()
  assert.deepEqual(tools.map((t) => t.name), ['apply_patch'])
  assert.deepEqual(tools[0].input_schema.required, ['operation'])
  const unknown = toolset.call('write_file', { file_path: 'x' })
  assert.equal(unknown.isError, true)
  assert.equal(unknown.code, 'unknown_tool')
  assert.throws(() => new Toolset(dir, { profile: 'gpt' }), (e) => e.code === 'invalid_profile')
  assert.throws(() => new Toolset(dir, { profil: 'openai' }), TypeError)
  const created = toolset.call('apply_patch', { operation: { type: 'create_file', path: 'a.py', diff: '+x = 1\n' } })
  assert.equal(created.output, 'Created a.py')
  assert.equal(fs.readFileSync(path.join(dir, 'a.py'), 'utf8'), 'x = 1')
})

test('the native toolset serves its six tools; readOnly keeps read_file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-ts-'))
  fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n')
  const native = new Toolset(dir)
  const tools = native.tools()
  assert.deepEqual(tools.map((t) => t.name), ['str_replace_based_edit_tool', 'apply_diff', 'apply_lazy', 'apply_patch', 'read_file', 'undo_edit'])
  assert.deepEqual(tools.map((t) => t.readOnly), [false, false, false, false, true, false])
  assert.equal(tools[4].title, 'Read a file')
  assert.equal(native.call('read_file', { path: 'a.txt' }).output, '     1\ta\n')
  const reader = new Toolset(dir, { readOnly: true })
  assert.deepEqual(reader.tools().map((t) => t.name), ['read_file'])
  const refused = reader.call('apply_diff', { path: 'a.txt', diff: '' })
  assert.equal(refused.code, 'read_only')
  assert.equal(new Toolset(dir, { profile: 'openai' }).tools()[0].title, undefined)
})

test('the anthropic toolset also answers str_replace_based_edit_tool, views cut at maxCharacters', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-ts-')))
  fs.writeFileSync(path.join(root, 'a.txt'), 'abcdef\nghijkl\n')
  const tools = new Toolset(root, { profile: 'anthropic', maxCharacters: 10 })
  assert.deepStrictEqual(tools.tools().map((t) => t.name), ['str_replace_editor', 'str_replace_based_edit_tool'])
  const view = tools.call('str_replace_based_edit_tool', { command: 'view', path: path.join(root, 'a.txt') })
  assert.ok(view.output.includes('     2\tghi<response clipped>'), view.output)
  const undo = tools.call('str_replace_based_edit_tool', { command: 'undo_edit', path: path.join(root, 'a.txt') })
  assert.equal(undo.code, 'unknown_command')
})

test('the claude-code toolset reads, then edits', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-ts-')))
  fs.writeFileSync(path.join(root, 'a.py'), 'x = 1\n')
  const tools = new Toolset(root, { profile: 'claude-code' })
  assert.deepStrictEqual(tools.tools().map((t) => t.name), ['Read', 'Write', 'Edit', 'MultiEdit'])
  assert.equal(tools.call('Edit', { file_path: 'a.py', old_string: 'x = 1', new_string: 'x = 2' }).code, 'not_read')
  assert.equal(tools.call('Read', { file_path: 'a.py' }).output, '     1→x = 1\n')
  assert.equal(tools.call('Edit', { file_path: 'a.py', old_string: 'x = 1', new_string: 'x = 2' }).isError, false)
  assert.equal(fs.readFileSync(path.join(root, 'a.py'), 'utf8'), 'x = 2\n')
})

test('semantics "native" reads the openai operations natively', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-ts-'))
  fs.writeFileSync(path.join(dir, 'a.py'), 'x = 1\ny = 2\nx = 1\ny = 2\n')
  const op = { operation: { type: 'update_file', path: 'a.py', diff: ' x = 1\n-y = 2\n+y = 3\n' } }
  const refused = new Toolset(dir, { profile: 'openai', semantics: 'native' }).call('apply_patch', op)
  assert.equal(refused.isError, true)
  assert.ok(refused.output.includes('at lines 1 and 3'), refused.output)
  assert.equal(fs.readFileSync(path.join(dir, 'a.py'), 'utf8'), 'x = 1\ny = 2\nx = 1\ny = 2\n')
  // Gemini's replace and Copilot's replacements: refused in two places, placed by whole lines.
  const gemini = new Toolset(dir, { profile: 'gemini', semantics: 'native' })
  const twice = gemini.call('replace', { file_path: 'a.py', instruction: 'y', old_string: 'y = 2', new_string: 'y = 3' })
  assert.equal(twice.isError, true)
  assert.equal(twice.code, 'multiple_matches')
  assert.ok(twice.output.includes('starting at lines 2, 4'), twice.output)
  const b = path.join(fs.realpathSync(dir), 'b.py')
  fs.writeFileSync(b, 'class A:\n    def f(self):\n        return 1\n')
  const copilot = new Toolset(dir, { profile: 'copilot', semantics: 'native' })
  const item = { filePath: b, oldString: 'def f(self):\n    return 1', newString: 'def f(self):\n    return 2' }
  const placed = copilot.call('replace_string_in_file', item)
  assert.equal(placed.isError, false, placed.output)
  assert.equal(fs.readFileSync(b, 'utf8'), 'class A:\n    def f(self):\n        return 2\n')
})

test('Toolset.stream(name): the editor tool and the native apply_diff preview, the others run at finish', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hl-ts-stream-')))
  try {
    const file = path.join(root, 'a.py')
    fs.writeFileSync(file, 'x = 1\ny = 2\n')
    const anthropic = new hl.Toolset(root, { profile: 'anthropic' })
    const text = JSON.stringify({ command: 'str_replace', path: file, old_str: 'y = 2', new_str: 'y = 3' })
    const stream = anthropic.stream('str_replace_based_edit_tool')
    assert.ok(stream instanceof hl.EditStream)
    let shown = ''
    for (let i = 0; i < text.length; i += 3) {
      const u = stream.push(text.slice(i, i + 3))
      shown = shown.slice(0, u.start) + u.inserted + shown.slice(u.start + u.removed)
    }
    assert.equal(shown, 'x = 1\ny = 3\n')
    assert.equal(stream.preview, shown)
    assert.equal(stream.command, 'str_replace')
    assert.equal(stream.path, file)
    assert.equal(stream.finish().isError, false)
    const native = new hl.Toolset(root)
    native.call('read_file', { path: 'a.py' })
    const diff = native.stream('apply_diff')
    const call = JSON.stringify({ path: 'a.py', diff: '<<<<<<< SEARCH\nx = 1\n=======\nx = 0\n>>>>>>> REPLACE\n' })
    let rebuilt = ''
    const seen = []
    for (const piece of call) {
      const u = diff.push(piece)
      rebuilt = rebuilt.slice(0, u.start) + u.inserted + rebuilt.slice(u.start + u.removed)
      assert.equal(diff.preview ?? '', rebuilt)
      seen.push(diff.preview)
    }
    // The file once the path is complete, then the block applied as it streams.
    assert.ok(seen.includes('x = 1\ny = 3\n'))
    assert.equal(seen.at(-1), 'x = 0\ny = 3\n')
    const done = diff.finish()
    assert.equal(done.isError, false)
    assert.equal(done.newContent, 'x = 0\ny = 3\n')
    assert.equal(fs.readFileSync(file, 'utf8'), 'x = 0\ny = 3\n')
    const read = native.stream('read_file')
    read.push(JSON.stringify({ path: 'a.py' }))
    assert.equal(read.preview, null)
    assert.equal(read.finish().isError, false)
    const broken = native.stream('apply_diff')
    broken.push('{"path": ')
    assert.equal(broken.finish().code, 'invalid_arguments')
    assert.throws(() => native.stream(5), { name: 'TypeError' })
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
})

test('durability: "none" writes the same files; another name throws invalid_input', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hl-durability-')))
  try {
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\n')
    const ws = new hl.Workspace(root, { durability: 'none' })
    ws.read('a.txt')
    ws.strReplace('a.txt', 'one', 'two')
    assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'two\n')
    const editor = new hl.TextEditor(root, { profile: 'openhands', durability: 'none' })
    assert.equal(editor.call({ command: 'create', path: path.join(root, 'b.txt'), file_text: 'b\n' }).isError, false)
    assert.equal(fs.readFileSync(path.join(root, 'b.txt'), 'utf8'), 'b\n')
    assert.equal(new hl.Toolset(root, { durability: 'full' }).call('read_file', { path: 'b.txt' }).isError, false)
    for (const make of [
      () => new hl.Workspace(root, { durability: 'fast' }),
      () => new hl.TextEditor(root, { durability: 'fast' }),
      () => new hl.Toolset(root, { durability: 'fast' }),
    ]) {
      assert.throws(make, { code: 'invalid_input', message: /unknown durability 'fast'/ })
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
})

/**
 * Pushes `text` to `stream` a character at a time, checking after each push that the splices
 * rebuild the preview; returns the distinct `[path, preview]` states seen, in order.
 */
function streamStates(stream, text) {
  let rebuilt = ''
  const seen = []
  for (const piece of text) {
    rebuilt = applySplice(rebuilt, stream.push(piece))
    assert.equal(stream.preview ?? '', rebuilt)
    const last = seen.at(-1)
    if (!last || last[0] !== stream.path || last[1] !== stream.preview) {
      seen.push([stream.path, stream.preview])
    }
  }
  return seen
}

test('the openai apply_patch streams its operation section by section', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hl-ts-op-')))
  try {
    const original = 'def a():\n    return 1\n\ndef b():\n    return 2\n'
    const first = 'def a():\n    return 10\n\ndef b():\n    return 2\n'
    const both = 'def a():\n    return 10\n\ndef b():\n    return 20\n'
    const diff = '@@ def a():\n-    return 1\n+    return 10\n@@ def b():\n-    return 2\n+    return 20\n'
    for (const semantics of ['reference', 'native']) {
      fs.writeFileSync(path.join(root, 'm.py'), original)
      const tools = new hl.Toolset(root, { profile: 'openai', semantics })
      const stream = tools.stream('apply_patch')
      const call = JSON.stringify({ operation: { type: 'update_file', path: 'm.py', diff } })
      const seen = streamStates(stream, call).map(([, preview]) => preview)
      assert.deepEqual(seen, [null, original, first, both], semantics)
      assert.equal(stream.command, 'update_file')
      assert.equal(stream.path, 'm.py')
      const done = stream.finish()
      assert.equal(done.isError, false, done.output)
      assert.equal(done.oldContent, original)
      assert.equal(done.newContent, both)
      assert.equal(fs.readFileSync(path.join(root, 'm.py'), 'utf8'), both)
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
})

test('the native apply_patch streams its envelope file by file', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hl-ts-patch-')))
  try {
    fs.writeFileSync(path.join(root, 'm.py'), 'a = 1\n')
    fs.writeFileSync(path.join(root, 'n.py'), 'b = 2\n')
    const tools = new hl.Toolset(root)
    for (const name of ['m.py', 'n.py']) tools.call('read_file', { path: name })
    const patch = '*** Begin Patch\n*** Update File: m.py\n@@\n-a = 1\n+a = 10\n' +
      '*** Update File: n.py\n@@\n-b = 2\n+b = 20\n*** End Patch\n'
    const stream = tools.stream('apply_patch')
    const seen = streamStates(stream, JSON.stringify({ patch }))
    assert.deepEqual(seen, [[null, null], ['m.py', 'a = 1\n'], ['n.py', 'b = 2\n'], ['n.py', 'b = 20\n'], [null, null]])
    const done = stream.finish()
    assert.equal(done.isError, false, done.output)
    assert.equal(fs.readFileSync(path.join(root, 'm.py'), 'utf8'), 'a = 10\n')
    assert.equal(fs.readFileSync(path.join(root, 'n.py'), 'utf8'), 'b = 20\n')
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
})

test('the codex apply_patch streams and settles on what it writes', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hl-ts-codex-')))
  try {
    fs.writeFileSync(path.join(root, 'm.py'), 'a = 1\nb = 2\n')
    const tools = new hl.Toolset(root, { profile: 'codex' })
    const patch = '*** Begin Patch\n*** Update File: m.py\n@@\n a = 1\n-b = 2\n+b = 3\n*** End Patch\n'
    const stream = tools.stream('apply_patch')
    const seen = streamStates(stream, JSON.stringify({ input: patch }))
    assert.deepEqual(seen.at(-1), [null, 'a = 1\nb = 3\n'])
    const done = stream.finish()
    assert.equal(done.isError, false, done.output)
    assert.equal(done.newContent, 'a = 1\nb = 3\n')
    assert.equal(fs.readFileSync(path.join(root, 'm.py'), 'utf8'), 'a = 1\nb = 3\n')
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
})
