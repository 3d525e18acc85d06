'use strict'
// Packs the npm packages into OUT as `npm pack` tarballs, the napi-rs layout:
//   - per addon given, its platform package `@hunkloom/<platform>` (node/npm/<platform>/ plus the
//     addon `hunkloom.<platform>.node`);
//   - the main package `hunkloom` (index.js, index.d.ts, lib/), whose package.json lists every
//     platform package of node/npm/ as an optional dependency, so npm installs the one that fits;
//     development fields (scripts, devDependencies) are left out.
// make dist runs it with the addon it built; the release workflow with the addon of each platform.
//
// Usage: node scripts/dist.js OUT [hunkloom.<platform>.node ...]

const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const NODE_DIR = path.join(__dirname, '..')
const REPO = path.join(NODE_DIR, '..')
const [out, ...addons] = process.argv.slice(2)
if (!out) {
  console.error('usage: node scripts/dist.js OUT [hunkloom.<platform>.node ...]')
  process.exit(2)
}
const pkg = JSON.parse(fs.readFileSync(path.join(NODE_DIR, 'package.json'), 'utf8'))
const platforms = fs.readdirSync(path.join(NODE_DIR, 'npm')).sort()
fs.mkdirSync(out, { recursive: true })
const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'hunkloom-npm-'))

/** `npm pack` of `dir` into OUT; the tarball's path. */
function pack(dir) {
  const json = execFileSync('npm', ['pack', '--json', '--pack-destination', path.resolve(out)], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return path.join(out, JSON.parse(json)[0].filename)
}

try {
  for (const addon of addons) {
    const platform = /^hunkloom\.(.+)\.node$/.exec(path.basename(addon))?.[1]
    if (!platform || !platforms.includes(platform)) {
      throw new Error(`${addon}: not hunkloom.<platform>.node for a platform of node/npm/ (${platforms.join(', ')})`)
    }
    const dir = path.join(stage, platform)
    fs.cpSync(path.join(NODE_DIR, 'npm', platform), dir, { recursive: true })
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
    if (manifest.version !== pkg.version) {
      throw new Error(`node/npm/${platform}/package.json has version ${manifest.version}, not ${pkg.version}`)
    }
    fs.copyFileSync(addon, path.join(dir, path.basename(addon)))
    fs.copyFileSync(path.join(REPO, 'LICENSE'), path.join(dir, 'LICENSE'))
    console.log(pack(dir))
  }

  const dir = path.join(stage, 'hunkloom')
  fs.mkdirSync(dir)
  for (const file of ['index.js', 'index.d.ts', 'lib', 'bin', 'README.md']) {
    fs.cpSync(path.join(NODE_DIR, file), path.join(dir, file), { recursive: true })
  }
  fs.copyFileSync(path.join(REPO, 'LICENSE'), path.join(dir, 'LICENSE'))
  const { scripts, devDependencies, ...published } = pkg
  published.files = ['index.js', 'index.d.ts', 'lib/', 'bin/']
  published.optionalDependencies = Object.fromEntries(platforms.map((p) => [`@hunkloom/${p}`, pkg.version]))
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(published, null, 2)}\n`)
  console.log(pack(dir))
} finally {
  fs.rmSync(stage, { recursive: true, force: true })
}
