'use strict'
// The originals kept in native memory, shared by the drop-in's streams and by StreamingApplier:
// an editor passes the same string object on every call while a diff streams (and to every
// applier over that file), and `===` on the same object is a pointer check, so the string is
// transcoded into native memory once instead of once per call.

const native = require('./native.js')

let capacity = 4
/** Kept originals, least recently used first: `{ text, handle }`. */
const originals = []

/** The native copy of `text`, transcoded on first sight. */
function originalHandle(text) {
  for (let i = originals.length - 1; i >= 0; i--) {
    const kept = originals[i]
    if (kept.text === text) {
      if (i !== originals.length - 1) originals.push(originals.splice(i, 1)[0])
      return kept.handle
    }
  }
  const handle = native.__originalNew(text)
  originals.push({ text, handle })
  if (originals.length > capacity) originals.splice(0, originals.length - capacity)
  return handle
}

/** Keeps at most `n` originals (0: none; each call then transcodes its own). */
function setOriginalsCapacity(n) {
  capacity = n
  if (originals.length > n) originals.splice(0, originals.length - n)
}

module.exports = { originalHandle, setOriginalsCapacity }
