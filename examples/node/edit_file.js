// Apply a model's edit to a file on disk: stream it into a live view, write it through a
// Workspace, let a wrong edit be refused, and undo. Run: node edit_file.js (after
// `npm install hunkloom`); it prints what examples/expected.txt holds.
'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { StreamingApplier, Workspace } = require('hunkloom')

// A project with a Windows (CRLF) file, and the edit a model streams for it (LF, as models write).
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'project-'))
const file = path.join(root, 'app.py')
fs.writeFileSync(file, 'def total(items):\r\n    return sum(items)\r\n')
const diff = '<<<<<<< SEARCH\n    return sum(items)\n=======\n    return sum(items, start=0)\n>>>>>>> REPLACE\n'
const chunks = diff.match(/[\s\S]{1,16}/g)

const ws = new Workspace(root)
const original = ws.read('app.py') // an edit needs a read first

// The live view starts from the applier's own preview (the original, in the native dialect)
// and takes each update as a splice, as an editor's document would.
const applier = new StreamingApplier(original, { dialect: 'native' })
let view = applier.preview
for (const chunk of chunks) {
  const u = applier.push(chunk)
  view = view.slice(0, u.start) + u.inserted + view.slice(u.start + u.removed)
  assert.equal(view, applier.preview)
}
console.log(`streamed ${chunks.length} chunks, the view equal to the applier's preview after each`)
const block = applier.finish().blocks[0]
console.log(`block 1: ${block.status} at line ${block.startLine} (${block.strategy})`)

// The same edit written to disk: atomically, keeping the file's encoding and line endings.
ws.applyDiff('app.py', diff)
assert.equal(fs.readFileSync(file, 'utf8'), 'def total(items):\r\n    return sum(items, start=0)\r\n')
console.log('app.py: edit written, CRLF line endings kept')

// A wrong edit is refused with a stable code and a message the model can act on.
try {
  ws.applyDiff('app.py', '<<<<<<< SEARCH\n    return total(items)\n=======\n    pass\n>>>>>>> REPLACE\n')
} catch (error) {
  console.log(`refused: ${error.code}`)
}

ws.undo('app.py')
assert.equal(fs.readFileSync(file, 'utf8'), 'def total(items):\r\n    return sum(items)\r\n')
console.log('undo: app.py has its original bytes again')
