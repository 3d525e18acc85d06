'use strict'
// The tool operations (strReplace, insert, insertContent) and the write content fixes (write,
// stripMarkdownFences, applyModelContentFixes, fixModelHtmlEscaping, removeInvalidChars):
//
//   - the corpora tests/vectors/cline-content-fixes.jsonl (every row through the function its
//     `op` names) and tests/vectors/roo-insert-content.jsonl (`tool` rows through insertContent,
//     `documented` rows checked where the core can check them), interpreted as
//     crates/hunkloom/tests/tool_vectors.rs does, printing `<corpus> <part>: <passed>/<total>
//     passed` and `<corpus>: <passed>/<total> passed` (skips named, with their reasons);
//   - table cases for each rule, error code and exact message, and the argument checks.

const test = require('node:test')
const assert = require('node:assert/strict')

const hl = require('..')
const h = require('./helpers')

// ---------------------------------------------------------------------------------------------
// Vector runners

/** Per-part tallies in first-seen order, printed like the Rust runner's. */
class Tally {
  constructor(corpus) {
    this.corpus = corpus
    this.parts = new Map()
    this.failures = []
  }
  /** `outcome`: `true` passed, `false` skipped, a string: the failure. */
  record(part, id, outcome) {
    const p = this.parts.get(part) ?? { passed: 0, total: 0, skipped: 0 }
    this.parts.set(part, p)
    p.total += 1
    if (outcome === true) p.passed += 1
    else if (outcome === false) p.skipped += 1
    else this.failures.push(`${id}: ${outcome}`)
  }
  print() {
    const skipNote = (s) => (s > 0 ? `, ${s} skipped` : '')
    let passed = 0
    let total = 0
    let skipped = 0
    for (const [part, p] of this.parts) {
      console.log(`${this.corpus} ${part}: ${p.passed}/${p.total} passed${skipNote(p.skipped)}`)
      passed += p.passed
      total += p.total
      skipped += p.skipped
    }
    console.log(`${this.corpus}: ${passed}/${total} passed${skipNote(skipped)}`)
  }
  assertClean() {
    assert.equal(this.failures.length, 0, this.failures.slice(0, 5).join('\n'))
  }
}

/** `true` when equal, else the difference as a string. */
function check(got, want, what = '') {
  if (got === want) return true
  return `${what}\n  want ${JSON.stringify(want)}\n  got  ${JSON.stringify(got)}`
}

/** Runs checks in order; the first that fails is the outcome. */
function all(...outcomes) {
  return outcomes.find((o) => o !== true) ?? true
}

/** The corpora's `null` is an omitted argument: pass `undefined`, as an omitting caller does. */
const omitted = (v) => (v === null ? undefined : v)

test('cline-content-fixes.jsonl: every row through the function its op names', () => {
  const tally = new Tally('cline-content-fixes')
  const rows = h.load('cline-content-fixes')
  assert.equal(rows.length, 523)
  for (const v of rows) {
    const modelId = omitted(v.model_id)
    const filePath = omitted(v.file_path)
    let outcome
    switch (v.op) {
      case 'apply_model_content_fixes': {
        // null (as the JSON holds it) and undefined both mean "omitted".
        outcome = all(
          check(hl.applyModelContentFixes(v.text, modelId, filePath), v.expect),
          check(hl.applyModelContentFixes(v.text, v.model_id, v.file_path), v.expect, 'with nulls'),
        )
        break
      }
      case 'strip_markdown_fences':
        outcome = check(hl.stripMarkdownFences(v.text), v.expect)
        break
      case 'write_to_file_content': {
        const written = hl.write(v.text, filePath, modelId)
        // fixesApplied names exactly the steps that changed the text.
        const stripped = hl.stripMarkdownFences(v.text)
        const fixed = hl.applyModelContentFixes(stripped, modelId, filePath)
        outcome = all(
          check(written.newContent, v.expect),
          check(fixed, v.expect, 'the two steps composed'),
          check(written.fixesApplied.includes('strip_markdown_fences'), stripped !== v.text, 'fences reported'),
          check(written.fixesApplied.length > 0, v.expect !== v.text, 'some fix reported'),
        )
        break
      }
      default:
        throw new Error(`${v.id}: unknown op ${v.op}`)
    }
    tally.record(v.op, v.id, outcome)
  }
  tally.print()
  tally.assertClean()
})

/** Vectors the Node package cannot check, each with the reason (as in tool_vectors.rs). */
const SKIP = new Map([
  [
    'roo-insert-055',
    'the missing-`path` check happens in the tool before any file is read; the core takes the ' +
      "file's text, not a path, so there is nothing for it to reject",
  ],
])
/** Why the `insert_groups` rows are not run here. */
const INSERT_GROUPS_SKIP =
  "they exercise the core's array primitive ops::roo::insert_groups, which the Node package does " +
  'not expose (insertContent is the tool as a whole); the core runner checks them'

/**
 * What the tool hands `pushToolResult` for an error: invalid lines are wrapped in Roo's generic
 * tool-error text, the missing-file refusal is pushed as is (and also said as an error).
 */
function toolResult(err) {
  if (err.code === 'invalid_line_number') {
    return `The tool execution failed with the following error:\n<error>\n${err.message}\n</error>`
  }
  return err.message
}

function rooTool(v) {
  if (v.file_exists !== (v.original !== null)) return 'file_exists disagrees with original'
  const expect = v.expect
  let got
  try {
    got = hl.insertContent(v.original, omitted(v.line), omitted(v.content))
  } catch (err) {
    if (!(err instanceof Error) || err.constructor !== Error || typeof err.code !== 'string') throw err
    if (expect.success !== false) return `threw ${err.code}: ${err.message}`
    const said = err.code === 'invalid_line_for_new_file' ? [['error', err.message]] : null
    return all(
      check(err.message, expect.error, 'error'),
      check(toolResult(err), expect.tool_result, 'tool_result'),
      check(JSON.stringify(said), JSON.stringify(expect.say ?? null), 'say'),
    )
  }
  if (expect.success !== true) return `returned ${JSON.stringify(got)}, want ${JSON.stringify(expect)}`
  // The diff-view path re-adds a final newline the original had (documented rule).
  let view = got.newContent
  if (v.original?.endsWith('\n') && !view.endsWith('\n')) view += '\n'
  return all(
    check(got.newContent, expect.content, 'content'),
    check(got.editType, expect.edit_type, 'edit_type'),
    expect.diff_view_final_content == null ? true : check(view, expect.diff_view_final_content, 'diff view'),
  )
}

/** A `documented` rule: checked where the core can observe what it states. */
function rooRule(v) {
  if (SKIP.has(v.id)) return false
  switch (v.id) {
    // The JSON schema (enforced by the model API) says integer >= 0; the note states that a
    // non-integer reaching the tool anyway is not rejected. That part is the core's.
    case 'roo-insert-054':
      try {
        hl.insertContent(v.original, v.line, omitted(v.content))
        return true
      } catch (err) {
        return `a non-integer line was rejected: ${err.message}`
      }
    default:
      return `documented rule ${v.id} has no check and no skip reason`
  }
}

test('roo-insert-content.jsonl: tool rows through insertContent, documented rules', () => {
  const tally = new Tally('roo-insert-content')
  const rows = h.load('roo-insert-content')
  assert.equal(rows.length, 55)
  let groupRows = 0
  for (const v of rows) {
    switch (v.kind) {
      case 'tool':
        tally.record('tool', v.id, rooTool(v))
        break
      case 'insert_groups':
        groupRows += 1
        tally.record('insert_groups', v.id, false)
        break
      case 'rule':
        tally.record('documented', v.id, rooRule(v))
        break
      default:
        throw new Error(`${v.id}: unknown kind ${v.kind}`)
    }
  }
  tally.print()
  for (const [id, reason] of SKIP) console.log(`  skipped ${id}: ${reason}`)
  console.log(`  skipped ${groupRows} insert_groups rows: ${INSERT_GROUPS_SKIP}`)
  tally.assertClean()
  assert.equal(tally.parts.get('tool').passed, 40)
})

// ---------------------------------------------------------------------------------------------
// strReplace

/** A thrown core error with this code and exact message. */
function coreError(code, message) {
  return (err) => {
    assert.ok(err instanceof Error)
    assert.equal(err.constructor, Error)
    assert.equal(err.code, code)
    assert.equal(err.message, message)
    return true
  }
}

const typeError = (name, expected, received) => (err) => {
  assert.ok(err instanceof TypeError, `${err}`)
  assert.equal(err.code, 'ERR_INVALID_ARG_TYPE')
  assert.equal(err.message, `The "${name}" argument must be ${expected}. Received type ${received}`)
  return true
}

const L = (start, end = start) => ({ start, end })

test('strReplace: table', async (t) => {
  // [name, [content, oldStr, newStr, replaceAll, path], want: {newContent, replacements, normalizations, firstEdit}]
  const cases = [
    ['exact, unique', ['a\nb\nc\n', 'b', 'B'], ['a\nB\nc\n', 1, [], L(2)]],
    [
      'curly double quotes in the file, straight in oldStr: newStr takes the file style',
      ['x = 1\nprint(\u201Chi\u201D)\n', 'print("hi")', 'print("bye")', false, 'a.py'],
      ['x = 1\nprint(\u201Cbye\u201D)\n', 1, ['curly_quotes'], L(2)],
    ],
    [
      'an apostrophe between letters is U+2019; single quotes open and close',
      ['s = \u2018it\u2019s\u2019\n', "s = 'it's'", "s = 'don't'"],
      ['s = \u2018don\u2019t\u2019\n', 1, ['curly_quotes'], L(1)],
    ],
    [
      'replaceAll: non-overlapping, left to right',
      ['aaa', 'aa', 'b', true],
      ['ba', 1, [], L(1)],
    ],
    ['replaceAll: every occurrence', ['x.x\nx\n', 'x', 'y', true], ['y.y\ny\n', 3, [], L(1)]],
    [
      '.md keeps trailing whitespace (a Markdown line break)',
      ['a\nb\n', 'a', 'A  ', false, 'README.md'],
      ['A  \nb\n', 1, [], L(1)],
    ],
    ['.MDX, any case, keeps it too', ['a\n', 'a', 'A \t', false, 'doc.MDX'], ['A \t\n', 1, [], L(1)]],
    [
      '.py strips it from every line',
      ['a\nb\n', 'a', 'A  \nZ\t', false, 'a.py'],
      ['A\nZ\nb\n', 1, ['trailing_whitespace'], L(1, 2)],
    ],
    ['no path strips it', ['a\n', 'a', 'A ', false, null], ['A\n', 1, ['trailing_whitespace'], L(1)]],
    [
      'deleting a whole line takes its line ending',
      ['a\nb\nc\n', 'b', ''],
      ['a\nc\n', 1, ['deleted_line_ending'], L(2)],
    ],
    [
      'CRLF file, LF oldStr: newStr written with CRLF',
      ['a\r\nb\r\nc\r\n', 'a\nb', 'x\ny'],
      ['x\r\ny\r\nc\r\n', 1, ['line_endings'], L(1, 2)],
    ],
    ['emoji: lines, not code units', ['🚀\n中🚀 x\n', '🚀 x', '🚀 y'], ['🚀\n中🚀 y\n', 1, [], L(2)]],
    ['empty oldStr creates a missing file', [null, '', 'hello\n'], ['hello\n', 1, [], L(1)]],
    ['empty oldStr fills an empty file', ['', '', 'a\nb'], ['a\nb', 1, [], L(1, 2)]],
    [
      'desanitised: <fnr> in oldStr is <function_results> in the file, newStr too',
      ['<function_results>1</function_results>\n', '<fnr>1</function_results>', '<fnr>2</function_results>'],
      ['<function_results>2</function_results>\n', 1, ['desanitized'], L(1)],
    ],
    [
      // The match starts with the line break ending line 1, so the first edit starts there.
      'desanitised: \\n\\nH: is \\n\\nHuman:',
      ['x\n\nHuman: hi\n', '\n\nH: hi', '\n\nH: bye'],
      ['x\n\nHuman: bye\n', 1, ['desanitized'], L(1, 3)],
    ],
  ]
  for (const [name, args, [newContent, replacements, normalizations, firstEdit]] of cases) {
    await t.test(name, () => {
      assert.deepEqual(hl.strReplace(...args), { newContent, replacements, normalizations, firstEdit })
    })
  }
})

test('strReplace: each error code with its exact message', () => {
  assert.throws(
    () => hl.strReplace('a\n', 'a', 'a'),
    coreError('old_equals_new', 'No changes to make: old_string and new_string are exactly the same.'),
  )
  assert.throws(
    () => hl.strReplace('a\n', '', 'x'),
    coreError('file_exists', 'Cannot create new file - file already exists.'),
  )
  assert.throws(() => hl.strReplace(null, 'a', 'b'), coreError('file_not_found', 'File does not exist.'))
  assert.throws(
    () => hl.strReplace('a\n', 'zz', 'y'),
    coreError('not_found', 'String to replace not found in file.\nString: zz'),
  )
  assert.throws(
    () => hl.strReplace('a b a', 'a', 'c'),
    coreError(
      'multiple_matches',
      'Found 2 matches of the string to replace, but replace_all is false. To replace all occurrences, ' +
        'set replace_all to true. To replace only one occurrence, please provide more context to ' +
        'uniquely identify the instance.',
    ),
  )
  // The same call with replaceAll succeeds; `false` and omitted are the same.
  assert.equal(hl.strReplace('a b a', 'a', 'c', true).newContent, 'c b c')
  assert.throws(() => hl.strReplace('a b a', 'a', 'c', false), (e) => e.code === 'multiple_matches')
  assert.throws(() => hl.strReplace('a b a', 'a', 'c', undefined, 'x.md'), (e) => e.code === 'multiple_matches')
})

test('strReplace: argument types', () => {
  assert.throws(() => hl.strReplace(undefined, 'a', 'b'), typeError('content', 'of type string or null', 'undefined'))
  assert.throws(() => hl.strReplace(1, 'a', 'b'), typeError('content', 'of type string or null', 'number'))
  assert.throws(() => hl.strReplace('a', null, 'b'), typeError('oldStr', 'of type string', 'null'))
  assert.throws(() => hl.strReplace('a', 'a'), typeError('newStr', 'of type string', 'undefined'))
  assert.throws(() => hl.strReplace('a', 'a', 'b', 'true'), typeError('replaceAll', 'of type boolean', 'string'))
  assert.throws(() => hl.strReplace('a', 'a', 'b', false, 3), typeError('path', 'of type string', 'number'))
})

// ---------------------------------------------------------------------------------------------
// insert

test('insert: both conventions', () => {
  const file = 'a\nb\n'
  const edit = (newContent, firstEdit, normalizations = []) => ({ newContent, replacements: 1, normalizations, firstEdit })
  // "after" (Anthropic's insert): after line N, 0 = top.
  assert.deepEqual(hl.insert(file, 0, 'x', 'after'), edit('x\na\nb\n', L(1)))
  assert.deepEqual(hl.insert(file, 1, 'x', 'after'), edit('a\nx\nb\n', L(2)))
  assert.deepEqual(hl.insert(file, 2, 'x\ny\n', 'after'), edit('a\nb\nx\ny\n', L(3, 4)))
  // "before" (Roo's numbering): before 1-based line N, 0 or past the end = append.
  assert.deepEqual(hl.insert(file, 1, 'x', 'before'), edit('x\na\nb\n', L(1)))
  assert.deepEqual(hl.insert(file, 2, 'x', 'before'), edit('a\nx\nb\n', L(2)))
  assert.deepEqual(hl.insert(file, 0, 'x', 'before'), edit('a\nb\nx\n', L(3)))
  assert.deepEqual(hl.insert(file, 9, 'x', 'before'), edit('a\nb\nx\n', L(3)))
  // The file's line endings, in both conventions.
  for (const convention of ['before', 'after']) {
    assert.equal(hl.insert('a\r\nb\r\n', 1, 'x\ny', convention).newContent.split('\r\n').length, 5)
  }
  assert.equal(hl.insert('a\r\nb\r\n', 1, 'x', 'after').newContent, 'a\r\nx\r\nb\r\n')
  assert.deepEqual(hl.insert('a\r\nb\r\n', 1, 'x\ny', 'before').normalizations, ['line_endings'])
})

test('insert: errors', () => {
  assert.throws(
    () => hl.insert('a\nb\n', 3, 'x', 'after'),
    coreError(
      'invalid_line',
      'Invalid `insert_line` parameter: 3. It should be within the range of lines of the file: [0, 2]',
    ),
  )
  assert.throws(
    () => hl.insert('a\n', 1, 'x', 'Before'),
    coreError('invalid_convention', "unknown insert convention 'Before': expected one of before, after"),
  )
  const range = (received) => (err) => {
    assert.ok(err instanceof RangeError)
    assert.equal(err.code, 'ERR_OUT_OF_RANGE')
    assert.equal(err.message, `The "line" argument must be a non-negative integer. Received ${received}`)
    return true
  }
  assert.throws(() => hl.insert('a\n', -1, 'x', 'after'), range('-1'))
  assert.throws(() => hl.insert('a\n', 1.5, 'x', 'after'), range('1.5'))
  assert.throws(() => hl.insert('a\n', NaN, 'x', 'after'), range('NaN'))
  assert.throws(() => hl.insert('a\n', Infinity, 'x', 'before'), range('Infinity'))
  assert.throws(() => hl.insert('a\n', 2 ** 53, 'x', 'before'), range('9007199254740992'))
  assert.equal(hl.insert('a\n', -0, 'x', 'after').newContent, 'x\na\n')
  assert.throws(() => hl.insert(null, 1, 'x', 'after'), typeError('content', 'of type string', 'null'))
  assert.throws(() => hl.insert('a\n', '1', 'x', 'after'), typeError('line', 'of type number', 'string'))
  assert.throws(() => hl.insert('a\n', 1, 5, 'after'), typeError('text', 'of type string', 'number'))
  assert.throws(() => hl.insert('a\n', 1, 'x'), typeError('convention', 'of type string', 'undefined'))
})

// ---------------------------------------------------------------------------------------------
// insertContent

test('insertContent: the raw line argument as a string, a number or missing', () => {
  const modify = (newContent) => ({ newContent, editType: 'modify' })
  assert.deepEqual(hl.insertContent('a\nb', '2', 'X'), modify('a\nX\nb'))
  assert.deepEqual(hl.insertContent('a\nb', 2, 'X'), modify('a\nX\nb'))
  assert.deepEqual(hl.insertContent('a\nb', ' 2abc', 'X'), modify('a\nX\nb'), 'parseInt')
  assert.deepEqual(hl.insertContent('a\nb', 1.5, 'X'), modify('X\na\nb'), 'a non-integer number is not rejected')
  assert.deepEqual(hl.insertContent('a\nb', '0', 'X'), modify('a\nb\nX'))
  // Roo's own joining: \n even in a CRLF file, and a blank line when appending after a final \n.
  assert.deepEqual(hl.insertContent('a\r\nb\r\n', 0, 'X'), modify('a\r\nb\r\n\nX'))
  assert.deepEqual(hl.insertContent('a', 1), modify('\na'), 'omitted content is an empty text')
  assert.deepEqual(hl.insertContent('a', 1, null), modify('\na'))
  // A missing file takes line 0 or 1 only.
  assert.deepEqual(hl.insertContent(null, '1', 'X'), { newContent: 'X', editType: 'create' })
  assert.deepEqual(hl.insertContent(null, 0, 'X'), { newContent: 'X', editType: 'create' })
  const invalid = coreError('invalid_line_number', 'Invalid line number. Must be a non-negative integer.')
  for (const line of [undefined, null, '', 'abc', '-1', -1, NaN]) {
    assert.throws(() => hl.insertContent('a\nb', line, 'X'), invalid, String(line))
  }
  assert.throws(() => hl.insertContent('a\nb'), invalid, 'the line argument left out')
  assert.throws(
    () => hl.insertContent(null, 5, 'X'),
    coreError(
      'invalid_line_for_new_file',
      "Cannot insert content at line 5 into a non-existent file. For new files, 'line' must be 0 (to append) or 1 (to insert at the beginning).",
    ),
  )
  assert.throws(() => hl.insertContent(null, '2.5', 'X'), (e) => e.code === 'invalid_line_for_new_file' && /at line 2 /.test(e.message))
  assert.throws(() => hl.insertContent(null, 2.5, 'X'), (e) => e.code === 'invalid_line_for_new_file' && /at line 2\.5 /.test(e.message))
})

test('insertContent: argument types', () => {
  assert.throws(() => hl.insertContent(undefined, 1, 'X'), typeError('original', 'of type string or null', 'undefined'))
  assert.throws(() => hl.insertContent('a', true, 'X'), typeError('line', 'of type string or number', 'boolean'))
  assert.throws(() => hl.insertContent('a', 1n, 'X'), typeError('line', 'of type string or number', 'bigint'))
  assert.throws(() => hl.insertContent('a', 1, 5), typeError('content', 'of type string', 'number'))
})

// ---------------------------------------------------------------------------------------------
// write and the content fixes

test('write: the pipeline, and the fixes it names', () => {
  assert.deepEqual(hl.write('```js\nif (a &lt; b) go();\n```', 'src/a.js', 'gpt-4o'), {
    newContent: 'if (a < b) go();',
    fixesApplied: ['strip_markdown_fences', 'fix_model_html_escaping'],
  })
  // Claude models: no HTML or invalid-character fixes.
  assert.deepEqual(hl.write('```\n&lt;\uFFFD\n```', 'a.js', 'claude-sonnet-4'), {
    newContent: '&lt;\uFFFD',
    fixesApplied: ['strip_markdown_fences'],
  })
  // .xml keeps its entities; U+FFFD still goes.
  assert.deepEqual(hl.write('&lt;a\uFFFD', 'a.XML'), { newContent: '&lt;a', fixesApplied: ['remove_invalid_chars'] })
  assert.deepEqual(hl.write('&lt;a\uFFFD', null, null), {
    newContent: '<a',
    fixesApplied: ['fix_model_html_escaping', 'remove_invalid_chars'],
  })
  assert.deepEqual(hl.write('plain\n'), { newContent: 'plain\n', fixesApplied: [] })
  // Only the fixes named run.
  assert.deepEqual(hl.write('```\n&lt;\uFFFD\n```', undefined, undefined, ['remove_invalid_chars']), {
    newContent: '```\n&lt;\n```',
    fixesApplied: ['remove_invalid_chars'],
  })
  assert.deepEqual(hl.write('```\nx\n```', null, null, []), { newContent: '```\nx\n```', fixesApplied: [] })
  assert.deepEqual(hl.write('```\nx\n```', null, null, null).newContent, 'x')
  assert.throws(
    () => hl.write('x', null, null, ['strip_markdown_fences', 'html']),
    coreError(
      'invalid_fix',
      "unknown content fix 'html': expected one of strip_markdown_fences, fix_model_html_escaping, remove_invalid_chars",
    ),
  )
})

test('each content fix on its own', () => {
  assert.equal(hl.stripMarkdownFences('```py\nx = 1\n```'), 'x = 1')
  assert.equal(hl.stripMarkdownFences('  x  '), '  x  ')
  assert.equal(hl.stripMarkdownFences('a\nb```'), 'a')
  assert.equal(hl.fixModelHtmlEscaping('a &gt; b &amp;&amp; c &lt; d &quot;&apos;'), 'a > b && c < d "\'')
  assert.equal(hl.fixModelHtmlEscaping('&amp;lt; &#60;'), '&lt; &#60;', 'in order, named entities only')
  assert.equal(hl.removeInvalidChars('a\uFFFDb\uFFFD'), 'ab')
  assert.equal(hl.removeInvalidChars('🚀'), '🚀')
  assert.equal(hl.applyModelContentFixes('&lt;\uFFFD'), '<')
  assert.equal(hl.applyModelContentFixes('&lt;\uFFFD', 'gpt-4o', 'a.xml'), '&lt;')
  assert.equal(hl.applyModelContentFixes('&lt;\uFFFD', 'claude-3', null), '&lt;\uFFFD')
  assert.equal(hl.applyModelContentFixes('&lt;\uFFFD', 'Claude-3'), '<', 'the claude test is case-sensitive')
})

test('write and the fixes: argument types', () => {
  for (const fn of ['stripMarkdownFences', 'fixModelHtmlEscaping', 'removeInvalidChars', 'applyModelContentFixes']) {
    assert.throws(() => hl[fn](1), typeError('text', 'of type string', 'number'), fn)
    assert.throws(() => hl[fn](), typeError('text', 'of type string', 'undefined'), fn)
  }
  assert.throws(() => hl.applyModelContentFixes('x', 5), typeError('modelId', 'of type string', 'number'))
  assert.throws(() => hl.applyModelContentFixes('x', 'm', {}), typeError('filePath', 'of type string', 'object'))
  assert.throws(() => hl.write(null), typeError('modelContent', 'of type string', 'null'))
  assert.throws(() => hl.write('x', 1), typeError('path', 'of type string', 'number'))
  assert.throws(() => hl.write('x', 'a', false), typeError('modelId', 'of type string', 'boolean'))
  assert.throws(() => hl.write('x', 'a', 'm', 'remove_invalid_chars'), typeError('fixes', 'an instance of Array', 'string'))
  assert.throws(() => hl.write('x', 'a', 'm', { 0: 'x', length: 1 }), typeError('fixes', 'an instance of Array', 'object'))
  assert.throws(() => hl.write('x', 'a', 'm', ['remove_invalid_chars', 2]), typeError('fixes[1]', 'of type string', 'number'))
})

test('a lone surrogate crosses as U+FFFD, as everywhere in the package', () => {
  assert.equal(hl.strReplace('a\n', 'a', '\uD800').newContent, '\uFFFD\n')
  assert.equal(hl.removeInvalidChars('x\uDC00'), 'x', 'it became U+FFFD, then was removed')
})

test('strReplace: the omission guard refuses a placeholder and can be turned off', () => {
  const old = 'function f() {\n  const a = 1\n  const b = 2\n  const c = 3\n  return a + b + c\n}\n'
  const neu = 'function f() {\n  // ... existing code ...\n  return 0\n}\n'
  const content = 'let x = 0\n' + old
  assert.throws(() => hl.strReplace(content, old, neu), (e) => e.code === 'omission_placeholder')
  const edit = hl.strReplace(content, old, neu, false, null, { omissionGuard: false })
  assert.equal(edit.newContent, 'let x = 0\n' + neu)
  assert.throws(() => hl.strReplace(content, old, neu, false, null, { omissionGuard: 'no' }), TypeError)
})
