'use strict'
// The platforms with a prebuilt package `@hunkloom/<platform>`: one directory each under
// node/npm/, one build each in the release workflow (test/packaging.test.js keeps them equal).
module.exports = [
  'linux-x64-gnu',
  'linux-arm64-gnu',
  'linux-x64-musl',
  'linux-arm64-musl',
  'darwin-x64',
  'darwin-arm64',
  'win32-x64-msvc',
]
