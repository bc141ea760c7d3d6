#!/usr/bin/env node
// Installs svc the way a user does, from the tarball `npm pack` makes, and runs the installed copy:
// the tarball holds only what is needed (the bundle, the library part of dist/, npm-shrinkwrap.json),
// the install gets the dependency versions the build-time patches were written for, `svc --version`
// and `svc --help` work, one sandbox round trip works (start, create, get, stop), and an old Node gets
// the one clear line and exit 1.
// Needs the npm registry for the tarball's dependencies, nothing else; everything else is loopback.
//
//   node scripts/check-pack.js      (with Node >= 22.19 first on PATH, as `npm run pack:check` does)
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, relative, sep } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { libraryFiles } from '../packaging/build-bundle.js'
import { patchProblems } from '../packaging/patches.js'
import { SHRINKWRAP, shrinkwrapText } from '../packaging/shrinkwrap.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const tmp = mkdtempSync(join(tmpdir(), 'svc-pack-'))
const prefix = join(tmp, 'prefix')
const started = Date.now()
let failures = 0
const children = []

function ok(what) {
  process.stdout.write(`  ok    ${what}\n`)
}
function bad(what, detail = '') {
  failures++
  process.stdout.write(`  FAIL  ${what}${detail ? `\n        ${detail.trim().split('\n').join('\n        ')}` : ''}\n`)
}
function check(condition, what, detail) {
  condition ? ok(what) : bad(what, detail)
}

/** The environment a user's shell would give the installed `svc`: no project variables, its own config dir. */
function userEnv(extra = {}) {
  const env = { ...process.env, ...extra }
  for (const k of ['SVC_API_KEY', 'SVC_BASE_URL', 'SVC_PROFILE', 'SVC_WEBHOOK_SECRET', 'SVC_DEBUG', 'NO_COLOR', 'FORCE_COLOR']) delete env[k]
  return env
}

async function main() {
  process.stdout.write(`pack check: ${pjson.name}@${pjson.version} on Node ${process.version}\n`)

  // 1. The tarball: only compiled code, manifest, README, licence, changelog.
  // The build must exist already (`npm run pack:check` and `npm test` build first); --ignore-scripts keeps
  // `prepack` from rebuilding dist/ under tests that are running from it, so the shrinkwrap prepack
  // writes is written here, and removed again as postpack does.
  writeFileSync(SHRINKWRAP, shrinkwrapText())
  let packOut
  try {
    packOut = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  } finally {
    rmSync(SHRINKWRAP, { force: true })
  }
  const packed = JSON.parse(packOut.slice(packOut.search(/^\[/m)))[0]
  const files = packed.files.map((f) => f.path)
  const tarball = join(tmp, packed.filename)
  for (const need of [
    'package.json',
    'npm-shrinkwrap.json',
    'bin/run.js',
    'dist-bundle/main.js',
    'dist-bundle/cli.js',
    'dist-bundle/root-help.json',
    'oclif.manifest.json',
    'README.md',
    'LICENSE',
    'CHANGELOG.md',
    'shell/completions.js',
  ]) {
    check(files.includes(need), `tarball has ${need}`)
  }
  const chunks = readdirSync(join(root, 'dist-bundle'))
    .filter((f) => f.endsWith('.js') || f.endsWith('.cjs'))
    .map((f) => `dist-bundle/${f}`)
  const missingChunks = chunks.filter((f) => !files.includes(f))
  check(missingChunks.length === 0, `tarball has every chunk of the bundle (${chunks.length})`, missingChunks.join('\n'))
  const library = [...libraryFiles()].map((f) => relative(root, f).split(sep).join('/')).sort()
  const shippedDist = files.filter((f) => f.startsWith('dist/')).sort()
  check(
    JSON.stringify(shippedDist) === JSON.stringify(library),
    `tarball's dist/ is the library exports and what they import (${library.length} files), no commands`,
    `${shippedDist
      .filter((f) => !library.includes(f))
      .slice(0, 5)
      .join('\n')}\n${library
      .filter((f) => !shippedDist.includes(f))
      .slice(0, 5)
      .join('\n')}`,
  )
  const stray = files.filter((f) => (/\.(ts|tsx|map)$/.test(f) && !f.endsWith('.d.ts')) || /^(src|test|bench|\.ci|docs|coverage)\//.test(f) || /^(tsconfig.*|vitest\.config\..*|package-lock\.json)$/.test(f))
  check(stray.length === 0, 'tarball has no sources, tests, maps or build config', stray.slice(0, 10).join('\n'))
  process.stdout.write(`        ${files.length} files, ${(packed.size / 1024).toFixed(0)} kB packed, ${(packed.unpackedSize / 1024).toFixed(0)} kB unpacked\n`)

  // 2. A global install into a temporary prefix, as `npm install -g` does on a user's machine.
  const install = spawnSync('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: tmp, encoding: 'utf8', env: userEnv() })
  check(install.status === 0, 'npm install -g --prefix TMP ./svc-cli-*.tgz', `${install.stdout}${install.stderr}`)
  if (install.status !== 0) return
  const binDir = process.platform === 'win32' ? prefix : join(prefix, 'bin')
  const installedSvc = join(binDir, 'svc')
  const installedRoot = join(prefix, 'lib', 'node_modules', pjson.name)
  const runJs = join(installedRoot, 'bin', 'run.js')
  check(existsSync(installedSvc) && existsSync(runJs), 'the svc command is linked into the prefix')
  const shrinkwrap = join(installedRoot, 'npm-shrinkwrap.json')
  check(existsSync(shrinkwrap) && readFileSync(shrinkwrap, 'utf8') === readFileSync(join(root, 'package-lock.json'), 'utf8'), 'the installed npm-shrinkwrap.json is package-lock.json')
  const problems = patchProblems(installedRoot)
  check(problems.length === 0, 'the install has the dependency versions the build-time patches were written for (packaging/patches.js)', problems.join('\n'))
  // The installed bin runs on the first `node` on PATH: put this (current) Node there, then the prefix.
  const path = [binDir, dirname(process.execPath), process.env.PATH].join(delimiter)
  const svc = (args, extra = {}) => spawnSync(installedSvc, args, { encoding: 'utf8', env: userEnv({ PATH: path, ...extra }), timeout: 30_000 })

  // 3. --version and --help from the installed copy.
  const version = svc(['--version'])
  check(version.status === 0 && version.stdout.startsWith(`${pjson.name}/${pjson.version} `), `svc --version → ${version.stdout.trim()}`, version.stderr)
  const help = svc(['--help'])
  check(help.status === 0 && ['USAGE', 'charges', 'webhooks', 'sandbox'].every((w) => help.stdout.includes(w)), 'svc --help lists the topics', help.stderr)
  const completion = spawnSync(process.execPath, [join(prefix, 'lib', 'node_modules', pjson.name, 'shell', 'completions.js'), 'bash'], { encoding: 'utf8' })
  check(completion.status === 0 && completion.stdout.includes('complete -F _svc_complete svc'), 'the installed completion script prints the bash completion', completion.stderr)

  // 4. One sandbox round trip with a throwaway config dir.
  const configDir = join(tmp, 'config')
  const env = { SVC_CONFIG_DIR: configDir }
  const sandbox = spawn(installedSvc, ['sandbox', 'start', '--in-memory', '--port', '0', '--json'], { env: userEnv({ PATH: path, ...env }), stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(sandbox)
  let sandboxLog = ''
  sandbox.stderr.on('data', (c) => (sandboxLog += c))
  const firstLine = await Promise.race([
    createInterface({ input: sandbox.stdout })
      [Symbol.asyncIterator]()
      .next()
      .then((r) => r.value),
    new Promise((resolve) => setTimeout(() => resolve(undefined), 20_000)),
  ])
  let banner
  try {
    banner = JSON.parse(firstLine ?? '')
  } catch {}
  check(banner?.baseUrl?.startsWith('http://127.0.0.1:'), `svc sandbox start --in-memory --port 0 --json → ${banner?.baseUrl ?? 'nothing'}`, sandboxLog)
  if (banner?.baseUrl) {
    const create = svc(['charges', 'create', '--amount', '1500', '--payer-tax-number', '52998224725', '-q'], env)
    const id = create.stdout.trim()
    check(create.status === 0 && /^[0-9a-f]{24}$/.test(id), `svc charges create --amount 1500 … -q → ${id}`, create.stderr)
    const get = svc(['charges', 'get', id, '--json'], env)
    let charge
    try {
      charge = JSON.parse(get.stdout)
    } catch {}
    check(get.status === 0 && charge?.id === id && charge?.amount?.grossInCents === 1500 && charge?.status === 'awaiting_payment', `svc charges get ID --json → ${charge?.status ?? get.stderr.trim()}`, get.stderr)
  }
  const exitCode = await stop(sandbox)
  check(exitCode === 0, `the sandbox stops cleanly on SIGTERM (exit ${exitCode})`, sandboxLog)

  // 5. An older Node: the one clear line and exit 1 (only where the machine has one, like this project's CI).
  const old = olderNode()
  if (old) {
    const r = spawnSync(installedSvc, ['--version'], { encoding: 'utf8', env: userEnv({ PATH: [binDir, dirname(old.path), process.env.PATH].join(delimiter) }) })
    const lines = r.stderr.trim().split('\n')
    check(r.status === 1 && lines.length === 1 && lines[0].includes('22.19') && r.stdout === '', `on Node ${old.version}: svc --version → exit ${r.status}, "${lines[0]}"`, r.stdout)
  } else {
    process.stdout.write('  note  no Node older than 22.19 on PATH: the old-Node message was not exercised\n')
  }
}

/** The first `node` on PATH outside node_modules, when it is too old for svc. */
function olderNode() {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir || dir.includes('node_modules')) continue
    const candidate = join(dir, process.platform === 'win32' ? 'node.exe' : 'node')
    if (!existsSync(candidate)) continue
    const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout.trim()
    const [major, minor] = version.slice(1).split('.').map(Number)
    return major < 22 || (major === 22 && minor < 19) ? { path: candidate, version } : undefined
  }
  return undefined
}

function stop(child) {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      resolve(code ?? signal)
    })
    child.kill('SIGTERM')
  })
}

try {
  await main()
} catch (error) {
  bad('pack check crashed', error.stack)
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  rmSync(tmp, { recursive: true, force: true })
}
process.stdout.write(`pack check: ${failures === 0 ? 'passed' : `${failures} failed`} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`)
process.exit(failures === 0 ? 0 : 1)
