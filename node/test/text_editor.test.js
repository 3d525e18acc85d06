'use strict'
// The text-editor corpora (tests/vectors/text-editor/, format in its README) through
// `TextEditor`, printing `text-editor-<corpus>: P/T passed`:
//
//   anthropic, openhands   (main sets) every call exact: the output (with the root written
//                          `{root}`), the error flag and every file under the root after it
//   *-crashes              the calls before the one the reference crashed on are exact; that
//                          call gives an error result (never a throw) and changes no file
//   *-differences          hunkloom's documented behaviour rather than the reference's (which
//                          rewrites bytes): no call throws, an error result changes no file, a
//                          call changes no file but its target, and a BOM or CRLF line endings
//                          of a target that had them survive the edit
//
// and then again with every call made through `editor.stream()`: the call's JSON
// (`JSON.stringify`, non-ASCII as is and as `\uXXXX` escapes) pushed whole, a code point at a
// time or in the runners' seeded random pieces; the splices must rebuild the preview, the preview
// before `finish` must be the text the call leaves (null for a failure, `view`, `undo_edit`),
// and `finish()` must give what `call` gives. Each case is streamed in one of the six forms, in
// turn; HUNKLOOM_TE_STREAM=all streams every case in all six.
//
// plus the class's own contract: options, a non-object input, the schema.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const hl = require('..')
const { split } = require('./helpers.js')

const DIR = path.join(__dirname, '..', '..', 'tests', 'vectors', 'text-editor')
const utf8 = new TextDecoder('utf-8', { fatal: true })

function load(name) {
  return fs
    .readFileSync(path.join(DIR, `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l))
}

/** A fresh root: a real absolute path without spaces or components starting with a dot. */
function freshRoot() {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hl-te-')))
}

function materialize(root, tree) {
  for (const [rel, content] of Object.entries(tree)) {
    const file = path.join(root, rel)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content.base64, 'base64'))
  }
}

/** Every regular file under `root` (hidden ones too), as the vectors write trees. */
function readTree(root) {
  const tree = {}
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.isFile()) {
        const bytes = fs.readFileSync(full)
        let content
        try {
          content = utf8.decode(bytes)
        } catch {
          content = { base64: bytes.toString('base64') }
        }
        tree[path.relative(root, full).split(path.sep).join('/')] = content
      }
    }
  }
  walk(root)
  return Object.fromEntries(Object.entries(tree).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

function withRoot(input, root) {
  const out = { ...input }
  if (typeof out.path === 'string') out.path = out.path.split('{root}').join(root)
  return out
}

function sameTree(a, b) {
  try {
    assert.deepEqual(a, b)
    return true
  } catch {
    return false
  }
}

/** The file a call names, relative to the root, if it names one inside it. */
function targetOf(input, root) {
  if (typeof input.path !== 'string') return null
  const resolved = path.resolve(root, input.path)
  const rel = path.relative(root, resolved)
  return rel.startsWith('..') ? null : rel.split(path.sep).join('/')
}

function text(content) {
  return typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content.base64, 'base64')
}

const STREAM_FORMS = ['whole', 'char', 'random'].flatMap((mode) => [false, true].map((ascii) => ({ mode, ascii })))

/** JSON text of `value`, with every non-ASCII UTF-16 unit escaped when `ascii` is set. */
function jsonText(value, ascii) {
  const text = JSON.stringify(value)
  return ascii ? text.replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')) : text
}

/** The call made through `editor.stream()` in `form`, its preview checked (throws a string). */
function streamed(editor, input, form) {
  const stream = editor.stream()
  let rebuilt = ''
  for (const piece of split(jsonText(input, form.ascii), form.mode)) {
    const u = stream.push(piece)
    rebuilt = rebuilt.slice(0, u.start) + u.inserted + rebuilt.slice(u.start + u.removed)
  }
  const preview = stream.preview
  if ((preview ?? '') !== rebuilt) throw `the splices give ${JSON.stringify(rebuilt)}, the preview is ${JSON.stringify(preview)}`
  const result = stream.finish()
  let left = null
  if (!result.isError && ['create', 'str_replace', 'insert'].includes(input.command)) {
    left = result.newContent ?? fs.readFileSync(input.path, 'utf8')
  }
  if (preview !== left) throw `the preview before finish is ${JSON.stringify(preview)}, the call left ${JSON.stringify(left)}`
  return result
}

/** `null` when the case behaves as the corpus says, else why not. `form`: stream each call. */
function runCase(c, kind, form = null) {
  const root = freshRoot()
  try {
    materialize(root, c.tree)
    const editor = new hl.TextEditor(root, { profile: c.profile })
    let before = readTree(root)
    for (const [i, call] of c.calls.entries()) {
      const at = `#${i} (${call.kind})`
      let result
      try {
        const input = withRoot(call.input, root)
        result = form === null ? editor.call(input) : streamed(editor, input, form)
      } catch (err) {
        if (typeof err === 'string') return `${at} streamed ${JSON.stringify(form)}: ${err}`
        return `${at}: threw ${err.code}: ${err.message}`
      }
      const output = result.output.split(root).join('{root}')
      const after = readTree(root)
      const crashed = c.reference_crash !== undefined && c.reference_crash.call === i
      if (crashed) {
        if (!result.isError) return `${at}: not an error result: ${JSON.stringify(output)}`
        if (!sameTree(after, before)) return `${at}: the files changed`
      } else if (kind === 'differences') {
        if (result.isError && !sameTree(after, before)) return `${at}: an error changed files`
        const target = targetOf(withRoot(call.input, root), root)
        for (const file of new Set([...Object.keys(before), ...Object.keys(after)])) {
          if (file === target) continue
          if (!sameTree(before[file], after[file])) return `${at}: ${file} changed, not the target`
        }
        if (target !== null && before[target] !== undefined && after[target] !== undefined) {
          const was = text(before[target])
          const now = text(after[target])
          const bom = Buffer.from([0xef, 0xbb, 0xbf])
          if (was.subarray(0, 3).equals(bom) && !now.subarray(0, 3).equals(bom)) return `${at}: the BOM was lost`
          const crlf = (b) => b.includes('\r\n') && !/(^|[^\r])\n/.test(b.toString('latin1'))
          if (crlf(was) && !crlf(now) && now.includes('\n')) return `${at}: the CRLF line endings were lost`
        }
      } else {
        if (output !== call.output) return `${at}: output ${JSON.stringify(output)}, want ${JSON.stringify(call.output)}`
        if (result.isError !== call.is_error) return `${at}: isError ${result.isError}, want ${call.is_error}`
        if (!sameTree(after, call.tree)) return `${at}: the files differ from the reference's`
      }
      before = after
    }
    return null
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}

const CORPORA = [
  ['anthropic', 'main'],
  ['openhands', 'main'],
  ['anthropic-crashes', 'crashes'],
  ['openhands-crashes', 'crashes'],
  ['openhands-non-utf8', 'main'],
  ['anthropic-differences', 'differences'],
  ['openhands-differences', 'differences'],
]

for (const [name, kind] of CORPORA) {
  test(`text-editor-${name}: every case`, () => {
    const cases = load(name)
    assert.ok(cases.length > 0)
    const failures = []
    for (const c of cases) {
      const why = runCase(c, kind)
      if (why !== null) failures.push(`${c.id}${why}`)
    }
    console.log(`text-editor-${name}: ${cases.length - failures.length}/${cases.length} passed`)
    assert.deepEqual(failures.slice(0, 5), [])
  })
  test(`text-editor-${name}: every case streamed`, () => {
    const every = process.env.HUNKLOOM_TE_STREAM === 'all'
    const runs = load(name).flatMap((c, n) => (every ? STREAM_FORMS : [STREAM_FORMS[n % STREAM_FORMS.length]]).map((form) => [c, form]))
    const failures = []
    for (const [c, form] of runs) {
      const why = runCase(c, kind, form)
      if (why !== null) failures.push(`${c.id}${why}`)
    }
    console.log(`text-editor-${name} streamed: ${runs.length - failures.length}/${runs.length} passed`)
    assert.deepEqual(failures.slice(0, 5), [])
  })
}

test('EditStream: a streamed call previews then runs; bad JSON is an error result', () => {
  const root = freshRoot()
  try {
    fs.writeFileSync(path.join(root, 'a.py'), 'x = 1\ny = 2\n')
    const file = path.join(root, 'a.py')
    const editor = new hl.TextEditor(root, { profile: 'anthropic' })
    const stream = editor.stream()
    assert.ok(stream instanceof hl.EditStream)
    const head = JSON.stringify({ command: 'str_replace', path: file, old_str: 'y = 2' }).slice(0, -1)
    let shown = ''
    for (const piece of [head, ', "new_str": "y = \\u00e9', '\\ud83d', '\\ude00', '"}']) {
      const u = stream.push(piece)
      shown = shown.slice(0, u.start) + u.inserted + shown.slice(u.start + u.removed)
      assert.equal(shown, stream.preview ?? '')
    }
    assert.equal(stream.command, 'str_replace')
    assert.equal(stream.path, file)
    assert.equal(stream.preview, 'x = 1\ny = \u00e9\u{1F600}\n')
    assert.equal(fs.readFileSync(file, 'utf8'), 'x = 1\ny = 2\n')
    const result = stream.finish()
    assert.equal(result.isError, false)
    assert.equal(fs.readFileSync(file, 'utf8'), 'x = 1\ny = \u00e9\u{1F600}\n')
    assert.throws(() => stream.push('x'), { code: 'already_finished' })
    assert.throws(() => stream.finish(), { code: 'already_finished' })
    for (const text of ['{"command": "view", "path": "a', '[1]', '{"command": "view"} x', '']) {
      const s = editor.stream()
      if (text) s.push(text)
      assert.equal(s.preview, null)
      const r = s.finish()
      assert.equal(r.isError, true)
      assert.equal(r.code, 'invalid_arguments')
    }
    assert.throws(() => editor.stream().push(5), { name: 'TypeError' })
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
})

test('TextEditor: options, a non-object input, the schema', () => {
  const root = freshRoot()
  try {
    fs.writeFileSync(path.join(root, 'a.py'), 'x = 1\n')
    const native = new hl.TextEditor(root)
    assert.equal(native.profile, 'native')
    assert.equal(native.root, root)
    // native: a file must be viewed before it is edited (requireRead defaults to true).
    const edit = { command: 'str_replace', path: 'a.py', old_str: 'x = 1', new_str: 'x = 2' }
    assert.equal(native.call(edit).code, 'not_read')
    assert.equal(new hl.TextEditor(root, { requireRead: false }).call(edit).isError, false)
    assert.equal(fs.readFileSync(path.join(root, 'a.py'), 'utf8'), 'x = 2\n')
    const anthropic = new hl.TextEditor(root, { profile: 'anthropic' })
    const result = anthropic.call({ command: 'view', path: path.join(root, 'nope.py') })
    assert.equal(result.isError, true)
    assert.equal(typeof result.output, 'string')
    assert.notEqual(result.code, '')
    for (const bad of [5, 'view', null, undefined, [1]]) {
      assert.throws(() => anthropic.call(bad), { code: 'invalid_input' })
    }
    assert.throws(() => new hl.TextEditor(root, { profile: 'vim' }), { code: 'invalid_profile' })
    assert.throws(() => new hl.TextEditor(root, { requireRead: 'yes' }), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' })
    assert.throws(() => new hl.TextEditor(path.join(root, 'missing')), { code: 'io_error' })
    const schema = hl.TextEditor.schema('anthropic')
    assert.equal(schema.name, 'str_replace_editor')
    assert.ok(JSON.stringify(schema.input_schema).includes('undo_edit'))
    const newest = hl.TextEditor.schema('anthropic', 'str_replace_based_edit_tool')
    assert.equal(newest.name, 'str_replace_based_edit_tool')
    assert.ok(!JSON.stringify(newest.input_schema).includes('undo_edit'))
    assert.throws(() => hl.TextEditor.schema('vim'), { code: 'invalid_profile' })
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
})

test('ambiguity errors carry every match: UTF-16 indices and 1-based lines', () => {
  const content = '🚀 x = 1\ny = 2\nx = 1\n'
  let error
  try {
    hl.strReplace(content, 'x = 1', 'x = 3')
  } catch (err) {
    error = err
  }
  assert.equal(error.code, 'multiple_matches')
  assert.deepEqual(error.matches, [
    { start: 3, end: 8, startLine: 1, lastLine: 1 },
    { start: 15, end: 20, startLine: 3, lastLine: 3 },
  ])
  assert.equal(content.slice(error.matches[1].start, error.matches[1].end), 'x = 1')
  const twice = 'x = 1\ny = 2\nx = 1\n'
  assert.throws(() => hl.applyDiff('------- SEARCH\nx = 1\n=======\nx = 3\n+++++++ REPLACE\n', twice), (err) => {
    assert.equal(err.code, 'ambiguous_match')
    assert.deepEqual(err.matches.map((m) => [m.startLine, m.lastLine]), [[1, 1], [3, 3]])
    return true
  })
  assert.throws(() => hl.strReplace(content, 'nope', 'x'), (err) => err.code === 'not_found' && err.matches === undefined)
})
