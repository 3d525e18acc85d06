'use strict'
// What is specific to the JavaScript boundary: UTF-16 positions, error objects and codes,
// argument types, large inputs, memory, the resume cache, concurrency.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const v8 = require('node:v8')
const vm = require('node:vm')

const hl = require('..')
const h = require('./helpers')

const block = (search, replace) => `------- SEARCH\n${search}=======\n${replace}+++++++ REPLACE\n`

/** Cline's getLineNumberFromCharIndex, verbatim. */
function clineLineNumber(content, charIndex) {
  return content.substring(0, charIndex).split('\n').length
}

/** A full garbage collection, with or without --expose-gc. */
function collect() {
  if (typeof global.gc === 'function') return global.gc()
  v8.setFlagsFromString('--expose-gc')
  vm.runInNewContext('gc')()
}

test('emoji before a match: offsets are JavaScript string indices', async () => {
  const original = '🚀🚀 é\nb\n中🚀\nc\n'
  const diff = block('b\n', 'B🚀\n') + block('c\n', 'C\n')
  const want = original.replace('b\n', 'B🚀\n').replace('c\n', 'C\n')
  const indices = [original.indexOf('b\n'), original.indexOf('c\n')]
  assert.deepEqual(indices, [7, 13])
  assert.deepEqual(await hl.constructNewFileContent(diff, original, true), { newContent: want, matchIndices: indices })
  assert.deepEqual(hl.constructNewFileContentSync(diff, original, true), { newContent: want, matchIndices: indices })

  const applier = new hl.StreamingApplier(original)
  let view = ''
  const starts = []
  for (const piece of h.split(diff, 'char')) {
    const u = applier.push(piece)
    assert.ok(u.start <= view.length && u.start + u.removed <= view.length)
    view = h.applySplice(view, u)
    starts.push(...u.completed.map((b) => b.start))
  }
  assert.equal(view, applier.preview)
  assert.deepEqual(applier.matchIndices, indices)
  const outcome = applier.finish()
  assert.equal(outcome.newContent, want)
  assert.deepEqual(outcome.matchIndices, indices)
  assert.deepEqual(starts, indices)
  assert.deepEqual(
    outcome.blocks.map((b) => [b.start, b.end, b.startLine, b.endLine, b.strategy, b.status]),
    [
      [7, 9, 2, 2, 'exact', 'applied'],
      [13, 15, 4, 4, 'exact', 'applied'],
    ],
  )
})

test('getLineNumberFromCharIndex equals Cline at every index, including out of range', () => {
  const content = '🚀\nb\r\n\n中🚀x\n'
  for (const i of [-5, -0.5, NaN, 0, 0.9, 1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 100, Infinity, -Infinity]) {
    assert.equal(hl.getLineNumberFromCharIndex(content, i), clineLineNumber(content, i), `index ${i}`)
  }
})

test('core errors are Errors with a code and the exact message, from every API', async () => {
  const diff = block('missing\n', 'x\n')
  const message = 'The SEARCH block:\nmissing\n...does not match anything in the file.'
  const check = (err) => {
    assert.ok(err instanceof Error)
    assert.equal(err.constructor, Error)
    assert.equal(err.code, 'search_not_found')
    assert.equal(err.message, message)
    return true
  }
  await assert.rejects(hl.constructNewFileContent(diff, 'a\n', true), check)
  assert.throws(() => hl.constructNewFileContentSync(diff, 'a\n', true), check)
  const applier = new hl.StreamingApplier('a\n')
  applier.push(diff)
  check(applier.error)
  assert.throws(() => applier.finish(), check)

  const version = (err) => err instanceof Error && err.code === 'invalid_version' && err.message === "Invalid version 'v3' for file content constructor"
  await assert.rejects(hl.constructNewFileContent(diff, 'a\n', true, 'v3'), version)
  assert.throws(() => hl.constructNewFileContentSync(diff, 'a\n', true, 'v3'), version)

  // v2's empty messages stay empty.
  const v2 = ['------- SEARCH\nline2\n+++++++ REPLACE\nreplaced', 'line1\nline2\nline3', true, 'v2']
  await assert.rejects(hl.constructNewFileContent(...v2), (err) => err instanceof Error && err.code === 'malformed_block' && err.message === '')

  // An unknown name (`native` is a dialect: see native.test.js).
  assert.throws(() => new hl.StreamingApplier('a', { dialect: 'cline-v3' }), (err) => err instanceof Error && err.code === 'invalid_dialect')
  assert.equal(new hl.StreamingApplier('a', {}).dialect, 'cline-v1')
  assert.equal(new hl.StreamingApplier('a', { dialect: undefined }).dialect, 'cline-v1')
  assert.equal(new hl.StreamingApplier('a', { dialect: 'cline-v2' }).dialect, 'cline-v2')
})

test('an applier used after finish throws already_finished, even after a failed finish', () => {
  for (const diff of [block('a\n', 'b\n'), block('zzz\n', 'b\n')]) {
    const applier = new hl.StreamingApplier('a\n')
    applier.push(diff)
    try {
      applier.finish()
    } catch {}
    const finished = (err) => err instanceof Error && err.code === 'already_finished'
    assert.throws(() => applier.push('x'), finished)
    assert.throws(() => applier.finish(), finished)
    for (const getter of ['preview', 'error', 'matchIndices', 'blocksCompleted', 'dialect']) {
      assert.throws(() => applier[getter], finished, getter)
    }
  }
})

test('wrong argument types: a TypeError, rejected by the Promise API and thrown by the others', async () => {
  const typeError = (err) => err instanceof TypeError && err.code === 'ERR_INVALID_ARG_TYPE'
  const promiseCalls = [
    [1, '', true],
    ['', null, true],
    ['', '', 'true'],
    ['', ''],
    ['', '', true, 2],
    ['', '', true, null],
    [Symbol('x'), '', true],
  ]
  for (const args of promiseCalls) {
    let promise
    assert.doesNotThrow(() => {
      promise = hl.constructNewFileContent(...args)
    }, 'the Promise API never throws')
    await assert.rejects(promise, typeError, String(args[0]))
    assert.throws(() => hl.constructNewFileContentSync(...args), typeError)
  }
  assert.throws(() => new hl.StreamingApplier(5), typeError)
  assert.throws(() => new hl.StreamingApplier('a', 'cline-v1'), typeError)
  assert.throws(() => new hl.StreamingApplier('a', { dialect: 2 }), typeError)
  assert.throws(() => new hl.StreamingApplier('a').push(['x']), typeError)
  assert.throws(() => hl.getLineNumberFromCharIndex(1, 1), typeError)
  assert.throws(() => hl.getLineNumberFromCharIndex('a', '1'), typeError)
  assert.throws(() => hl.setResumeCacheCapacity('4'), typeError)
  assert.throws(() => hl.setResumeCacheCapacity(-1), (err) => err instanceof RangeError && err.code === 'ERR_OUT_OF_RANGE')
  assert.throws(() => hl.setResumeCacheCapacity(1.5), RangeError)
  assert.throws(() => new hl.StreamingApplier('a').push(), /"chunk" argument must be of type string. Received type undefined/)
})

test('a lone surrogate crosses as U+FFFD (the documented exception); everything else is exact', () => {
  const { newContent } = hl.constructNewFileContentSync(block('b\n', '\uD800x\n'), 'a\nb\n', true)
  assert.equal(newContent, 'a\n\uFFFDx\n')
  const exact = 'a\n\uD83D\uDE80\u0000\uFEFF\u2028\n'
  assert.equal(hl.constructNewFileContentSync('', exact, false).newContent, '')
  assert.equal(hl.constructNewFileContentSync(block('a\n', 'z\n'), exact, true).newContent, 'z' + exact.slice(1))
})

test('a 200,000-line input', async () => {
  const lines = Array.from({ length: 200_000 }, (_, i) => `    line_${i} = value_${i % 97} + ${i} # é🚀`)
  const original = lines.join('\n') + '\n'
  const search = lines.slice(199_900, 199_904).join('\n') + '\n'
  const replace = search.replace(/# /g, '# reviewed ')
  const diff = block(search, replace)
  const want = original.replace(search, replace)
  const index = original.indexOf(search)

  assert.deepEqual(await hl.constructNewFileContent(diff, original, true), { newContent: want, matchIndices: [index] })
  assert.deepEqual(hl.constructNewFileContentSync(diff, original, true), { newContent: want, matchIndices: [index] })
  const applier = new hl.StreamingApplier(original)
  let view = ''
  for (const piece of h.split(diff, 'line')) view = h.applySplice(view, applier.push(piece))
  assert.equal(view, applier.preview)
  const outcome = applier.finish()
  assert.equal(outcome.newContent, want)
  assert.deepEqual([outcome.blocks[0].start, outcome.blocks[0].startLine], [index, 199_901])
  assert.equal(hl.getLineNumberFromCharIndex(original, index), 199_901)
})

test('10,000 appliers created and dropped: memory does not grow', async () => {
  const original = 'x'.repeat(100) + '\n' + 'abcdefghij\n'.repeat(1000) // ~11 KB, copied into each applier
  const diff = block('abcdefghij\nabcdefghij\n', 'changed\n')
  // Node runs napi finalizers on the event loop after a collection, so the rounds yield to it
  // now and then, as any program that streams does.
  const round = async () => {
    for (let i = 0; i < 10_000; i++) {
      const applier = new hl.StreamingApplier(original)
      applier.push(diff.slice(0, 40))
      applier.push(diff.slice(40))
      if (i % 2 === 0) applier.finish()
      if (i % 500 === 0) await new Promise((resolve) => setImmediate(resolve))
    }
  }
  const settle = async () => {
    for (let i = 0; i < 5; i++) {
      collect()
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    return process.memoryUsage()
  }
  await round()
  const warm = await settle()
  await round()
  await round()
  const after = await settle()
  const growth = (after.rss - warm.rss) / 2 ** 20
  const heapGrowth = (after.heapUsed - warm.heapUsed) / 2 ** 20
  console.log(`10,000 appliers x2 rounds: rss ${(warm.rss / 2 ** 20).toFixed(1)} -> ${(after.rss / 2 ** 20).toFixed(1)} MiB, heap +${heapGrowth.toFixed(1)} MiB`)
  // Leaking the 20,000 appliers of the last two rounds would hold >= 2 x 11 KB each: ~440 MiB.
  assert.ok(growth < 40, `rss grew by ${growth.toFixed(1)} MiB`)
  assert.ok(heapGrowth < 10, `heap grew by ${heapGrowth.toFixed(1)} MiB`)
})

test('the resume cache: hits on growing prefixes, bounded, released by the final call, switchable', async () => {
  hl.setResumeCacheCapacity(0)
  hl.setResumeCacheCapacity(2)
  const original = 'a\nb\nc\n'
  const diff = block('b\n', 'B\n')
  const before = hl.resumeCacheStats()
  assert.deepEqual([before.entries, before.capacity], [0, 2])
  for (let end = 1; end <= diff.length; end++) {
    const got = await hl.constructNewFileContent(diff.slice(0, end), original, false)
    assert.deepEqual(got, hl.constructNewFileContentSync(diff.slice(0, end), original, false))
  }
  let stats = hl.resumeCacheStats()
  // Each async call resumed the stream (the sync comparison then resumed it again, unchanged).
  assert.equal(stats.misses - before.misses, 1)
  assert.equal(stats.hits - before.hits, 2 * diff.length - 1)
  assert.equal(stats.entries, 1)
  assert.deepEqual(await hl.constructNewFileContent(diff, original, true), { newContent: 'a\nB\nc\n', matchIndices: [2] })
  assert.equal(hl.resumeCacheStats().entries, 0, 'the final call released its stream')

  for (let i = 0; i < 5; i++) hl.constructNewFileContentSync(diff.slice(0, 20), `${i}\n${original}`, false)
  assert.equal(hl.resumeCacheStats().entries, 2, 'bounded by the capacity')

  hl.setResumeCacheCapacity(0)
  stats = hl.resumeCacheStats()
  assert.deepEqual([stats.entries, stats.capacity], [0, 0])
  for (let end = 1; end <= diff.length; end++) hl.constructNewFileContentSync(diff.slice(0, end), original, false)
  assert.equal(hl.resumeCacheStats().hits, stats.hits, 'capacity 0 disables resuming')
  hl.setResumeCacheCapacity(4)
})

test('concurrent Promise calls on interleaved streams all settle correctly', async () => {
  const vectors = h.load('cline-diff-streaming-exhaustive')
  const results = await Promise.all(
    vectors.map((v) =>
      hl.constructNewFileContent(v.diff, v.original, v.is_final, v.version).then(h.observe, h.observeError),
    ),
  )
  results.forEach((got, i) => assert.deepEqual(got, h.expected(vectors[i]), vectors[i].id))
})

test('the unions index.d.ts declares are exactly the names the core lists', () => {
  const dts = fs.readFileSync(path.join(__dirname, '..', 'index.d.ts'), 'utf8')
  /** The string literals of the union declared for `field` inside `interface name`. */
  const union = (name, field) => {
    const body = dts.slice(dts.indexOf(`export interface ${name} {`))
    const line = body.slice(0, body.indexOf('\n}')).match(new RegExp(`\\n  ${field}: ([^\\n]+)`))[1]
    return [...line.matchAll(/'([^']+)'/g)].map((m) => m[1])
  }
  const names = hl.names()
  assert.deepEqual(union('BlockReport', 'strategy'), names.strategies)
  assert.deepEqual(union('BlockReport', 'normalizations'), names.normalizations)
  assert.deepEqual(union('BlockReport', 'status'), names.blockStatuses)
  assert.deepEqual(union('PatchChange', 'kind'), names.patchChangeKinds)
  assert.ok(names.strategies.includes('indentation') && names.strategies.includes('unmatched'))
})

test('the input unions index.d.ts declares are the names the core accepts', () => {
  const dts = fs.readFileSync(path.join(__dirname, '..', 'index.d.ts'), 'utf8')
  const names = hl.names()
  /** The string literals of the union after `pattern` on its line, sorted. */
  const literals = (line) => [...line.matchAll(/'([^']+)'/g)].map((m) => m[1]).sort()
  const unionsAfter = (pattern) =>
    dts
      .split('\n')
      .filter((line) => pattern.test(line))
      .map((line) => literals(line.slice(line.search(pattern))))
  const sorted = (list) => [...list].sort()
  const checks = [
    [/^\s*dialect\?: 'cline/, names.dialects, 1],
    [/^\s*dialect\?: 'native' \| 'cline/, names.dialects, 1],
    [/^\s*get dialect\(\): /, names.dialects, 1],
    [/^\s*dialect\?: 'codex'/, names.patchDialects, 1],
    [/policy\?: 'all_or_nothing'/, names.policies, 4],
    [/convention: 'before'/, names.conventions, 3],
    [/mode\?: 'default'/, names.v4aModes, 3],
    [/fixesApplied: Array</, names.fixes, 1],
    [/profile\??(\(\))?: 'anthropic' \| 'openhands' \| 'native'$/, names.profiles, 2],
    [/profile\??(\(\))?: 'anthropic' \| 'openhands' \| 'native' \| 'openai'/, names.toolsetProfiles, 2],
    [/semantics\?: 'reference'/, names.semantics, 1],
    [/durability\?: 'full'/, names.durabilities, 3],
  ]
  for (const [pattern, list, atLeast] of checks) {
    const found = unionsAfter(pattern)
    assert.ok(found.length >= atLeast, `${pattern}: ${found.length} unions`)
    for (const union of found) assert.deepEqual(union, sorted(list), String(pattern))
  }
})
