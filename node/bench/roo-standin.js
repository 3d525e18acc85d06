'use strict'
// The plain-JavaScript stand-in of Roo Code's `MultiSearchReplaceDiffStrategy.applyDiff` that
// bench/roo.js compares with, written from Roo's observed behaviour: the original split into an
// array of lines; each block (in `:start_line:` order) compared at its hinted line and, failing
// that, searched middle-out over the 40 lines around the hint (over the whole file without a
// hint), every window joined and scored by the similarity of its normalised text (smart quotes
// and typographic characters replaced, whitespace runs collapsed, trimmed; Levenshtein distance
// with `fastest-levenshtein`, the package Roo uses, unless equal); replacement lines re-indented
// against the matched lines; the array spliced by copying and joined with the file's line ending.
// Each call also does Roo's per-call checks (the marker sequence validated line by line, escaped
// markers unescaped in each SEARCH and REPLACE text, the texts tested for read-tool line numbers),
// since they are part of what a call costs on a small file. It follows Roo's rules for the
// bench's inputs, and roo.js checks that it returns what hunkloom returns on every one of them;
// it is not a complete implementation (no line-number stripping, no failure texts).

const { distance } = require('fastest-levenshtein')

const BUFFER_LINES = 40
const FOLDED = [
  ['\u201C', '"'],
  ['\u201D', '"'],
  ['\u2018', "'"],
  ['\u2019', "'"],
  ['\u2026', '...'],
  ['\u2014', '-'],
  ['\u2013', '-'],
  ['\u00A0', ' '],
]

function normalise(text) {
  let folded = text
  for (const [from, to] of FOLDED) folded = folded.replace(new RegExp(from, 'g'), to)
  return folded.replace(/\s+/g, ' ').trim()
}

function similarity(window, search) {
  if (search === '') return 0
  const [a, b] = [normalise(window), normalise(search)]
  if (a === b) return 1
  return 1 - distance(a, b) / Math.max(a.length, b.length)
}

/** The best-scoring window of `count` lines between `from` and `to`, searched from the middle out. */
function middleOut(lines, search, count, from, to) {
  let best = { score: 0, index: -1 }
  const consider = (index) => {
    const score = similarity(lines.slice(index, index + count).join('\n'), search)
    if (score > best.score) best = { score, index }
  }
  let left = Math.floor((from + to) / 2)
  let right = left + 1
  while (left >= from || right <= to - count) {
    if (left >= from) consider(left--)
    if (right <= to - count) consider(right++)
  }
  return best
}

/** The blocks of a diff in the plain shape the bench writes (hint optional, `-------` optional). */
function blocksOf(diff) {
  const lines = diff.split('\n')
  const blocks = []
  for (let i = 0; i < lines.length; ) {
    if (lines[i++].trimEnd() !== '<<<<<<< SEARCH') continue
    const hint = /^:start_line:\s*(\d+)\s*$/.exec(lines[i] ?? '')
    if (hint) i++
    if ((lines[i] ?? '').trimEnd() === '-------') i++
    const search = []
    while (i < lines.length && lines[i].trimEnd() !== '=======') search.push(lines[i++])
    i++
    const replace = []
    while (i < lines.length && lines[i] !== '>>>>>>> REPLACE') replace.push(lines[i++])
    i++
    blocks.push({ startLine: hint ? Number(hint[1]) : 0, search: search.join('\n'), replace: replace.join('\n') })
  }
  return blocks.sort((a, b) => a.startLine - b.startLine)
}

const indentOf = (line) => /^[\t ]*/.exec(line)[0]

/** Whether the marker lines come in SEARCH, `=======`, REPLACE order (Roo's first check). */
function markersInOrder(diff) {
  const lines = diff.split('\n')
  const searches = lines.filter((l) => /^<<<<<<< SEARCH>?$/.test(l.trim())).length
  const separators = lines.filter((l) => l.trim() === '=======').length
  const replaces = lines.filter((l) => l.trim() === '>>>>>>> REPLACE').length
  if (searches !== replaces || separators < searches) return false
  let state = 0
  for (const line of diff.split('\n')) {
    const marker = line.trim()
    if (state === 2 && (marker.startsWith(':start_line:') || marker.startsWith(':end_line:'))) return false
    if (/^<<<<<<< SEARCH>?$/.test(marker)) {
      if (state !== 0) return false
      state = 1
    } else if (marker === '=======') {
      if (state !== 1) return false
      state = 2
    } else if (marker === '>>>>>>> REPLACE') {
      if (state !== 2) return false
      state = 0
    } else if (marker.startsWith('<<<<<<<') || marker.startsWith('>>>>>>>')) return false
  }
  return state === 0
}

const ESCAPED = ['<<<<<<<', '=======', '>>>>>>>', '-------', ':end_line:', ':start_line:'].map((m) => [
  new RegExp(`^\\\\${m}`, 'gm'),
  m,
])
const unescape = (text) => ESCAPED.reduce((t, [escaped, marker]) => t.replace(escaped, marker), text)
const numbered = (text) => text.split(/\r?\n/).every((line) => /^\s*\d+\s+\|(?!\|)/.test(line))

function applyDiff(original, diff, fuzzyThreshold = 1.0) {
  const ending = original.includes('\r\n') ? '\r\n' : '\n'
  let lines = original.split(/\r?\n/)
  let delta = 0
  let applied = 0
  if (!markersInOrder(diff)) return { success: false, error: 'markers out of order' }
  for (const block of blocksOf(diff)) {
    block.search = unescape(block.search)
    block.replace = unescape(block.replace)
    if ((numbered(block.search) && numbered(block.replace)) || (numbered(block.search) && block.replace.trim() === '')) {
      return { success: false, error: 'line numbers are not stripped by the stand-in' }
    }
    const searchLines = block.search === '' ? [] : block.search.split(/\r?\n/)
    const replaceLines = block.replace === '' ? [] : block.replace.split(/\r?\n/)
    if (searchLines.length === 0 || block.search === block.replace) continue
    const startLine = block.startLine === 0 ? 0 : block.startLine + delta
    const search = searchLines.join('\n')
    let found = { score: 0, index: -1 }
    let [from, to] = [0, lines.length]
    if (startLine) {
      const at = startLine - 1
      const score = similarity(lines.slice(at, at + searchLines.length).join('\n'), search)
      if (score >= fuzzyThreshold) found = { score, index: at }
      else [from, to] = [Math.max(0, startLine - (BUFFER_LINES + 1)), Math.min(lines.length, startLine + searchLines.length + BUFFER_LINES)]
    }
    if (found.index === -1) found = middleOut(lines, search, searchLines.length, from, to)
    if (found.index === -1 || found.score < fuzzyThreshold) continue
    const matched = lines.slice(found.index, found.index + searchLines.length)
    const matchedIndent = indentOf(matched[0] ?? '')
    const searchIndent = indentOf(searchLines[0]).length
    const written = replaceLines.map((line) => {
      const own = indentOf(line)
      const relative = own.length - searchIndent
      const indent =
        relative < 0 ? matchedIndent.slice(0, Math.max(0, matchedIndent.length + relative)) : matchedIndent + own.slice(searchIndent)
      return indent + line.trim()
    })
    lines = [...lines.slice(0, found.index), ...written, ...lines.slice(found.index + searchLines.length)]
    delta += replaceLines.length - matched.length
    applied++
  }
  return applied === 0 ? { success: false, failParts: [] } : { success: true, content: lines.join(ending) }
}

module.exports = { applyDiff }
