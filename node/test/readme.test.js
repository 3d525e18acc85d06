'use strict'
// The README's Node examples are code, not prose: this test extracts every ```ts block from
// the "## Node (TypeScript)" section, type-checks them together with test/types-check.mts
// against the generated index.d.ts (tsc --strict, via tsconfig.json), then runs each one.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { pathToFileURL } = require('node:url')
const ts = require('typescript')

const ROOT = path.join(__dirname, '..')
const README = path.join(ROOT, '..', 'README.md')

function nodeExamples() {
  const text = fs.readFileSync(README, 'utf8')
  const start = text.indexOf('\n## Node (TypeScript)\n')
  assert.ok(start >= 0, 'README has a "## Node (TypeScript)" section')
  const end = text.indexOf('\n## ', start + 1)
  const section = text.slice(start, end < 0 ? undefined : end)
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1])
}

/** Type-checks `files` with tsconfig.json's options, `hunkloom` resolved to this package. */
function typeCheck(extraFiles) {
  const configPath = path.join(ROOT, 'tsconfig.json')
  const config = ts.readConfigFile(configPath, ts.sys.readFile)
  assert.equal(config.error, undefined)
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT)
  const options = { ...parsed.options, baseUrl: ROOT, paths: { hunkloom: ['./index.d.ts'] } }
  const program = ts.createProgram([...parsed.fileNames, ...extraFiles], options)
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : ''
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
  })
}

const examples = nodeExamples()
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-readme-'))
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }))
const files = examples.map((code, i) => {
  const file = path.join(dir, `readme-example-${i + 1}.mts`)
  fs.writeFileSync(file, code)
  return file
})

test('the README shows the drop-in import and a streaming example', () => {
  assert.ok(examples.length >= 2, `found ${examples.length} examples`)
  assert.ok(examples.some((c) => /import \{ constructNewFileContent \} from "hunkloom"/.test(c)))
  assert.ok(examples.some((c) => /new StreamingApplier\(/.test(c)))
})

test('index.d.ts, the README examples and types-check.mts pass tsc --strict', () => {
  assert.deepEqual(typeCheck(files), [])
  // tsconfig.json skips checking declaration files (@types/node is slow to check), so the
  // generated index.d.ts is checked on its own, with nothing else loaded.
  const program = ts.createProgram([path.join(ROOT, 'index.d.ts')], {
    strict: true,
    noEmit: true,
    types: [],
    skipDefaultLibCheck: true,
  })
  assert.deepEqual(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), [])
})

test('the type check can fail: a wrong argument type is an error', () => {
  const bad = path.join(dir, 'bad.mts')
  fs.writeFileSync(bad, 'import { constructNewFileContentSync } from "hunkloom"\nconstructNewFileContentSync(1, "", true)\n')
  const errors = typeCheck([bad])
  assert.equal(errors.length, 1, errors.join('\n'))
  assert.match(errors[0], /^bad\.mts:2 .*number.*string/)
})

examples.forEach((code, i) => {
  test(`README Node example ${i + 1} runs`, async () => {
    const js = ts.transpileModule(code, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText
    // The package's entry point, as `import ... from "hunkloom"` resolves it.
    const entry = pathToFileURL(require.resolve('..')).href
    const runnable = js.replace(/from "hunkloom"/g, `from ${JSON.stringify(entry)}`)
    assert.notEqual(runnable, js, 'the example imports "hunkloom"')
    const file = path.join(dir, `readme-example-${i + 1}.mjs`)
    fs.writeFileSync(file, runnable)
    await import(pathToFileURL(file).href)
  })
})
