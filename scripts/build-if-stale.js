#!/usr/bin/env node
/**
 * `npm test`'s build step: runs `npm run build` (dist/, the manifest, dist-bundle/) and
 * `npm run build:binary` (dist-bin/svc) only when their inputs changed since the last successful
 * build, so a second `npm test` does not rebuild anything.
 *
 * The inputs are hashed by content: everything under src/, scripts/, bin/ and fixtures/, and
 * package.json, package-lock.json, tsconfig.json, tsconfig.build.json. A build that succeeds
 * writes the hash into a stamp file under node_modules/.cache/svc-build/ (never in what `npm pack` ships);
 * a missing output, a missing stamp or another hash rebuilds. `--force` rebuilds regardless.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)))
const INPUT_DIRS = ['src', 'scripts', 'packaging', 'shell', 'bin', 'fixtures']
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']
const force = process.argv.includes('--force')

function files(dir) {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
}

function inputHash() {
  const paths = [...INPUT_DIRS.flatMap((d) => files(join(ROOT, d))), ...INPUT_FILES.map((f) => join(ROOT, f)).filter((f) => existsSync(f))].map((p) => relative(ROOT, p).split('\\').join('/')).sort()
  const hash = createHash('sha256')
  for (const p of paths)
    hash
      .update(p)
      .update('\0')
      .update(readFileSync(join(ROOT, p)))
      .update('\0')
  return { hash: hash.digest('hex'), count: paths.length }
}

function read(file) {
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    return undefined
  }
}

const { hash, count } = inputHash()
const targets = [
  { name: 'build', script: 'build', outputs: ['dist/root-help.js', 'oclif.manifest.json', 'dist-bundle', 'dist-bundle/root-help.json'], stamp: 'node_modules/.cache/svc-build/build.stamp' },
  { name: 'build:binary', script: 'build:binary', outputs: [join('dist-bin', process.platform === 'win32' ? 'svc.exe' : 'svc')], stamp: 'node_modules/.cache/svc-build/build-binary.stamp' },
]

for (const t of targets) {
  const missing = t.outputs.filter((o) => !existsSync(join(ROOT, o)))
  const stamped = read(join(ROOT, t.stamp))
  if (!force && missing.length === 0 && stamped === hash) {
    process.stdout.write(`build-if-stale: ${t.name} is up to date (${count} input files unchanged)\n`)
    continue
  }
  const why = force ? '--force' : missing.length > 0 ? `${missing.join(', ')} missing` : stamped ? 'inputs changed' : 'no stamp'
  process.stdout.write(`build-if-stale: npm run ${t.script} (${why})\n`)
  const r = spawnSync('npm', ['run', t.script], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' })
  if (r.status !== 0) process.exit(r.status ?? 1)
  mkdirSync(dirname(join(ROOT, t.stamp)), { recursive: true })
  writeFileSync(join(ROOT, t.stamp), `${hash}\n`)
}
