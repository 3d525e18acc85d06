'use strict'
// The npm packaging: the platform list, the platform packages under npm/ and napi's targets
// agree; the generated loader looks for `@hunkloom/<platform>`; and a load that fails says what
// to do (unsupported platform, a checkout without a built addon, a missing platform package).

const test = require('node:test')
const assert = require('node:assert/strict')
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const ROOT = path.join(__dirname, '..')
const PLATFORMS = require('../lib/platforms.js')
const pkg = require('../package.json')

/** napi-rs's name for a Rust target triple (`x86_64-unknown-linux-gnu` -> `linux-x64-gnu`). */
function platformOf(triple) {
  const [arch, , os_, abi] = triple.split('-')
  const cpu = { x86_64: 'x64', aarch64: 'arm64' }[arch]
  const system = { linux: 'linux', darwin: 'darwin', windows: 'win32' }[os_]
  return [system, cpu, abi].filter(Boolean).join('-')
}

test('the platforms, node/npm/ and napi.targets agree', () => {
  assert.deepEqual([...PLATFORMS].sort(), fs.readdirSync(path.join(ROOT, 'npm')).sort())
  assert.deepEqual(pkg.napi.targets.map(platformOf), PLATFORMS)
  for (const platform of PLATFORMS) {
    const manifest = require(`../npm/${platform}/package.json`)
    assert.equal(manifest.name, `@hunkloom/${platform}`)
    assert.equal(manifest.version, pkg.version)
    assert.deepEqual(manifest.files, [`hunkloom.${platform}.node`])
    assert.equal(manifest.main, `hunkloom.${platform}.node`)
  }
})

test('the loader looks for the @hunkloom/<platform> packages', () => {
  const loader = fs.readFileSync(path.join(ROOT, 'index.js'), 'utf8')
  assert.doesNotMatch(loader, /require\('hunkloom-/)
  for (const platform of PLATFORMS) {
    assert.ok(loader.includes(`require('@hunkloom/${platform}')`), platform)
  }
})

/** Runs `node -e "require(entry)"` with `preload` first; its error's code and message. */
function loadError(entry, preload = '') {
  const script = `${preload}
    try { require(${JSON.stringify(entry)}); console.log(JSON.stringify({ loaded: true })) }
    catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })) }`
  const out = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, NAPI_RS_NATIVE_LIBRARY_PATH: '' } })
  assert.equal(out.status, 0, out.stderr)
  return JSON.parse(out.stdout)
}

test('an unsupported platform is refused with the supported ones listed', () => {
  const error = loadError(ROOT, "Object.defineProperty(process, 'arch', { value: 'mips' })")
  assert.equal(error.code, 'ERR_HUNKLOOM_UNSUPPORTED_PLATFORM')
  assert.match(error.message, new RegExp(`no native addon for ${process.platform}-mips`))
  for (const platform of PLATFORMS) assert.ok(error.message.includes(platform), platform)
})

/** A copy of the package's JavaScript (no addon) in a temporary directory, as `dir/node`. */
function copyPackage(checkout) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-pkg-'))
  const copy = path.join(dir, 'node')
  for (const file of ['package.json', 'index.js', 'lib']) {
    fs.cpSync(path.join(ROOT, file), path.join(copy, file), { recursive: true })
  }
  if (checkout) {
    fs.mkdirSync(path.join(dir, 'bindings', 'node'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'bindings', 'node', 'Cargo.toml'), '')
  }
  return { dir, copy }
}

test('a checkout whose addon is not built says how to build it', (t) => {
  const { dir, copy } = copyPackage(true)
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const error = loadError(copy)
  assert.equal(error.code, 'ERR_HUNKLOOM_NOT_BUILT')
  assert.match(error.message, /npm ci && npm run build/)
  assert.match(error.message, /Rust/)
  assert.doesNotMatch(error.message, /npm has a bug/)
})

test('an install without its platform package names the package to get', (t) => {
  const { dir, copy } = copyPackage(false)
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const error = loadError(copy)
  if (PLATFORMS.includes(error.message.match(/for (\S+) did not load/)?.[1])) {
    assert.equal(error.code, 'ERR_HUNKLOOM_NATIVE_MISSING')
    assert.match(error.message, /@hunkloom\/\S+, an optional dependency/)
    assert.match(error.message, /--omit=optional/)
  } else {
    assert.equal(error.code, 'ERR_HUNKLOOM_UNSUPPORTED_PLATFORM')
  }
})
