'use strict'
// The native addon, loaded through the loader napi-rs generates (../index.js). That loader tries
// ./hunkloom.<platform>.node (an addon built in a checkout) and then the platform package
// @hunkloom/<platform> (an install from the registry). When neither loads it blames an npm bug;
// this module replaces that with what to do: which platforms have prebuilt packages, how to
// build the addon in a checkout, or how to get the optional platform package installed.

const fs = require('node:fs')
const path = require('node:path')

const PLATFORMS = require('./platforms.js')

/** This process's platform in napi-rs's naming (e.g. `linux-x64-gnu`, `win32-x64-msvc`). */
function currentPlatform() {
  const base = `${process.platform}-${process.arch}`
  if (process.platform === 'win32') return `${base}-msvc`
  if (process.platform !== 'linux') return base
  const report = typeof process.report?.getReport === 'function' ? process.report.getReport() : null
  return `${base}-${report?.header?.glibcVersionRuntime ? 'gnu' : 'musl'}`
}

/** An Error with `code`, and as its `cause` the loader's native attempts (not its generic advice). */
function loadError(code, message, failure) {
  const error = new Error(message)
  error.code = code
  let cause = failure?.cause
  while (cause && /wasi/.test(String(cause.message))) cause = cause.cause
  if (cause) error.cause = cause
  return error
}

/** The first line of each native (not WASI) attempt in the loader's chain of causes. */
function causes(error) {
  const lines = []
  for (let e = error?.cause ?? error; e; e = e.cause) {
    const line = String(e.message ?? e).split('\n')[0]
    if (!/wasi/.test(line)) lines.unshift(line)
  }
  return lines.join('; ')
}

function load() {
  const platform = currentPlatform()
  if (!PLATFORMS.includes(platform)) {
    throw loadError(
      'ERR_HUNKLOOM_UNSUPPORTED_PLATFORM',
      `hunkloom has no native addon for ${platform}. Prebuilt packages exist for: ` +
        `${PLATFORMS.join(', ')}. On another platform, build the addon from a checkout of ` +
        'hunkloom: `cd node && npm ci && npm run build` (needs a Rust toolchain).',
    )
  }
  try {
    return require('../index.js')
  } catch (error) {
    const packageDir = path.join(__dirname, '..')
    const checkout = fs.existsSync(path.join(packageDir, '..', 'bindings', 'node', 'Cargo.toml'))
    if (checkout) {
      throw loadError(
        'ERR_HUNKLOOM_NOT_BUILT',
        `The hunkloom native addon is not built: ${packageDir} is hunkloom's source tree, whose ` +
          `addon (hunkloom.${platform}.node) is compiled from Rust. Build it with ` +
          `\`cd ${packageDir} && npm ci && npm run build\` (needs a Rust toolchain; \`make test-node\` ` +
          'in the repository does the same), or install the prebuilt package instead: ' +
          `\`npm install hunkloom\`. Tried: ${causes(error)}`,
        error,
      )
    }
    throw loadError(
      'ERR_HUNKLOOM_NATIVE_MISSING',
      `The hunkloom native addon for ${platform} did not load: it comes in the package ` +
        `@hunkloom/${platform}, an optional dependency of hunkloom that npm installs on ` +
        `${platform} only. Reinstall without \`--omit=optional\` / \`--no-optional\`; if the lock ` +
        'file was made on another platform, delete node_modules and package-lock.json and run ' +
        `\`npm install\` again. Tried: ${causes(error)}`,
      error,
    )
  }
}

module.exports = load()
