'use strict'
// The plain-JavaScript stand-in the bench compares with: what a JavaScript engine does per call.
// It re-parses the whole diff on every call (every growing prefix while a diff streams), finds
// each SEARCH text with `indexOf` and, failing that, line by line with `trim()`, and builds the
// result by concatenating slices of the original and the replacement lines (V8 makes that a rope
// sharing the original's memory). It follows Cline v1's rules for the inputs of the bench, and
// bench.js checks that it returns what hunkloom returns on every one of them; it is not a
// complete implementation (no block-anchor tier, no out-of-order blocks).

const SEARCH = /^[-]{3,} SEARCH>?$/
const SEPARATOR = /^[=]{3,}$/
const REPLACE = /^[+]{3,} REPLACE>?$/

/** The SEARCH text located line by line after `trim()`, from the line at or after `from`. */
function lineTrimmed(original, search, from) {
  const lines = original.split('\n')
  const wanted = search.split('\n')
  if (wanted[wanted.length - 1] === '') wanted.pop()
  let start = 0
  let line = 0
  while (line < lines.length && start < from) {
    start += lines[line].length + 1
    line++
  }
  for (let i = line, at = start; i <= lines.length - wanted.length; at += lines[i].length + 1, i++) {
    let ok = true
    for (let j = 0; j < wanted.length; j++) {
      if (lines[i + j].trim() !== wanted[j].trim()) {
        ok = false
        break
      }
    }
    if (ok) {
      let end = at
      for (let j = 0; j < wanted.length; j++) end += lines[i + j].length + 1
      return [at, end]
    }
  }
  return null
}

/** `constructNewFileContent(diff, original, isFinal)` for the bench's inputs. */
function construct(diff, original, isFinal) {
  let result = ''
  let last = 0
  let search = ''
  let inSearch = false
  let inReplace = false
  let matchStart = -1
  let matchEnd = -1
  const matchIndices = []
  const lines = diff.split('\n')
  const tail = lines[lines.length - 1]
  if (/^[-<=+>]/.test(tail) && !SEARCH.test(tail) && !SEPARATOR.test(tail) && !REPLACE.test(tail)) {
    lines.pop()
  }
  for (const line of lines) {
    if (SEARCH.test(line)) {
      inSearch = true
      search = ''
    } else if (SEPARATOR.test(line)) {
      inSearch = false
      inReplace = true
      const exact = original.indexOf(search, last)
      if (exact !== -1) {
        matchStart = exact
        matchEnd = exact + search.length
      } else {
        const found = lineTrimmed(original, search, last)
        if (found === null) throw new Error(`The SEARCH block:\n${search.trimEnd()}\n...does not match anything in the file.`)
        ;[matchStart, matchEnd] = found
      }
      result += original.slice(last, matchStart)
    } else if (REPLACE.test(line)) {
      matchIndices.push(matchStart)
      last = matchEnd
      inSearch = false
      inReplace = false
      matchStart = -1
    } else if (inSearch) {
      search += line + '\n'
    } else if (inReplace && matchStart !== -1) {
      result += line + '\n'
    }
  }
  if (isFinal && last < original.length) result += original.slice(last)
  return { newContent: result, matchIndices }
}

module.exports = { construct }
