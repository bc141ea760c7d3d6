#!/usr/bin/env node
/**
 * `npm run build:binary`: dist-bin/svc, one file that runs svc with no Node.js installed — a Node
 * single executable application (SEA) made from the pinned Node 24 binary this runs on
 * (node_modules/node, no download) and the bundle as its main script, with V8's code cache.
 *
 *   1. dist-bundle/ (as npm run build:bundle) and dist-sea/svc.cjs, the main script (CommonJS, as
 *      Node 24's SEA requires): a module hook that loads dist-bundle/'s chunks from the binary
 *   2. dist-sea/sea-prep.blob: `node --experimental-sea-config` with useCodeCache, the chunks, the
 *      package.json and the manifests as assets
 *   3. dist-bin/svc: a copy of this Node binary with the blob injected by postject
 *
 * Needs a build (npm run build) first; builds it when dist/ is missing.
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)))
const SEA = join(ROOT, 'dist-sea')
const OUT_DIR = join(ROOT, 'dist-bin')
const OUT = join(OUT_DIR, process.platform === 'win32' ? 'svc.exe' : 'svc')
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'

const started = performance.now()
const step = (what) => process.stdout.write(`build-binary: ${what} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`)

if (!existsSync(join(ROOT, 'dist/root-help.js')) || !existsSync(join(ROOT, 'oclif.manifest.json'))) {
  step('no build yet: npm run build')
  const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

const { buildEsm, buildSea } = await import('./build-bundle.js')
await buildEsm()
const { assets } = await buildSea()
step(`bundled dist-bundle/ and dist-sea/svc.cjs, ${Object.keys(assets).length} assets`)

const [major] = process.versions.node.split('.').map(Number)
if (major < 24) {
  process.stderr.write(`build-binary: needs the pinned Node 24 (node_modules/node); this is ${process.version}. Run it through npm run build:binary.\n`)
  process.exit(1)
}

const blob = join(SEA, 'sea-prep.blob')
const config = join(SEA, 'sea-config.json')
writeFileSync(config, JSON.stringify({ main: join(SEA, 'svc.cjs'), output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }, null, 2))
const gen = spawnSync(process.execPath, ['--experimental-sea-config', config], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
if (gen.status !== 0) process.exit(gen.status ?? 1)
step(`blob with code cache, ${(statSync(blob).size / 1024 / 1024).toFixed(1)} MiB`)

mkdirSync(OUT_DIR, { recursive: true })
rmSync(OUT, { force: true })
copyFileSync(process.execPath, OUT)
chmodSync(OUT, 0o755)
const { inject } = createRequire(import.meta.url)('postject')
await inject(OUT, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: FUSE, machoSegmentName: process.platform === 'darwin' ? 'NODE_SEA' : undefined })
if (process.platform === 'darwin') spawnSync('codesign', ['--sign', '-', OUT], { stdio: 'inherit' })
step(`${OUT.slice(ROOT.length + 1)} from ${process.execPath} (node ${process.version}), ${(statSync(OUT).size / 1024 / 1024).toFixed(0)} MiB`)
