'use strict'
// The drop-in `constructNewFileContent` (Promise and sync): Cline's results, computed per call in
// proportion to what is new in the diff, not to the file.
//
// Cline calls it on every growing prefix of a streamed diff with the same original string. This
// layer keeps a few streams: the original string (transcoded into native memory once, see
// originals.js), the diff so far and the result as a rope of slices of that original (see
// rope.js). A call whose diff extends a kept
// stream's pushes only the new text; the native side answers with what changed in the result,
// and the result is assembled here from slices of the caller's own original. Results are
// identical to a call from scratch: the native stream is the core's StreamingApplier, which
// equals Cline's partial call after every prefix (the conformance runners check it in every
// chunking, and node/test/dropin.test.js checks this layer against the stateless call).

const native = require('./native.js')
const { Rope, decode, join, numbersAt, read, scratch } = require('./rope.js')
const { originalHandle, setOriginalsCapacity } = require('./originals.js')

/** Originals at least this long (UTF-16 units) send pushes that may search to the thread pool. */
const POOL_MIN_LENGTH = 1 << 20

let capacity = 4
/** Kept streams, least recently used first: `{ original, version, diff, handle, rope }`. */
const streams = []
let hits = 0
let misses = 0

/** A high surrogate: a diff cut after one must not be resumed (the pair was split). */
function endsInsidePair(s) {
  const c = s.charCodeAt(s.length - 1)
  return c >= 0xd800 && c <= 0xdbff
}

/** Removes and returns the most recently used stream that `diff` continues, if any. */
function takeStream(diff, original, version) {
  for (let i = streams.length - 1; i >= 0; i--) {
    const s = streams[i]
    if (
      s.version === version &&
      s.original === original &&
      diff.length >= s.diff.length &&
      (diff === s.diff || diff.slice(0, s.diff.length) === s.diff) &&
      !endsInsidePair(s.diff)
    ) {
      streams.splice(i, 1)
      return s
    }
  }
  return undefined
}

function keepStream(s) {
  streams.push(s)
  if (streams.length > capacity) streams.splice(0, streams.length - capacity)
}

/** Whether the arguments are well typed (else the addon's function throws what Node would). */
function wellTyped(diff, original, isFinal, version) {
  return (
    typeof diff === 'string' &&
    typeof original === 'string' &&
    typeof isFinal === 'boolean' &&
    (version === undefined || version === 'v1' || version === 'v2')
  )
}

/** The stream a call works on and the text to push into it. */
function begin(diff, original, version) {
  const s = takeStream(diff, original, version)
  if (s !== undefined) {
    hits++
    return { stream: s, text: diff.length === s.diff.length ? '' : diff.slice(s.diff.length) }
  }
  misses++
  const handle = native.__streamNew(originalHandle(original), version)
  return { stream: { original, version, diff: '', handle, rope: new Rope() }, text: diff }
}

/**
 * Turns a native reply into Cline's result (or throws its rejection). Its numbers hold where
 * the result stops matching the previous one, the counted `matchIndices` and the pieces from
 * there on; its extra value is a partial call's error.
 */
function end(s, diff, isFinal, reply) {
  const { numbers, texts, extra } = read(reply)
  const count = numbers[2]
  const matchIndices = numbersAt(numbers, 3, count)
  const pieces = decode(numbers, 3 + count, texts, s.original)
  if (isFinal) return { newContent: join(pieces), matchIndices }
  const keep = numbers[1]
  s.diff = diff
  s.rope.splice(keep, s.rope.length - keep, pieces)
  keepStream(s)
  if (extra !== null) throw extra
  return { newContent: s.rope.toString(), matchIndices }
}

function constructNewFileContentSync(diffContent, originalContent, isFinal, version) {
  if (!wellTyped(diffContent, originalContent, isFinal, version)) {
    return native.constructNewFileContentSync(diffContent, originalContent, isFinal, version)
  }
  const v = version ?? 'v1'
  const { stream, text } = begin(diffContent, originalContent, v)
  const answer = native.__streamPush(stream.handle, text, isFinal, scratch)
  return end(stream, diffContent, isFinal, answer)
}

function constructNewFileContent(diffContent, originalContent, isFinal, version) {
  if (!wellTyped(diffContent, originalContent, isFinal, version)) {
    return native.constructNewFileContent(diffContent, originalContent, isFinal, version)
  }
  try {
    const v = version ?? 'v1'
    const { stream, text } = begin(diffContent, originalContent, v)
    // Only a push that may search a large original goes to the pool (one in which a separator
    // line appears, as the core tells in O(text)); the rest is cheaper than a trip to the pool.
    if (originalContent.length >= POOL_MIN_LENGTH && native.__streamMaySearch(stream.handle, text)) {
      return native
        .__streamPushAsync(stream.handle, text, isFinal)
        .then((answer) => end(stream, diffContent, isFinal, answer))
    }
    return Promise.resolve(end(stream, diffContent, isFinal, native.__streamPush(stream.handle, text, isFinal, scratch)))
  } catch (e) {
    return Promise.reject(e)
  }
}

function setResumeCacheCapacity(n) {
  native.setResumeCacheCapacity(n) // checks the argument and throws what Node would
  capacity = n
  if (streams.length > n) streams.splice(0, streams.length - n)
  setOriginalsCapacity(n)
}

function resumeCacheStats() {
  return { hits, misses, entries: streams.length, capacity }
}

module.exports = {
  constructNewFileContent,
  constructNewFileContentSync,
  resumeCacheStats,
  setResumeCacheCapacity,
}
