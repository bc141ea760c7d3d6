#!/usr/bin/env node
// Where a command's start-up time goes: runs it under `node --cpu-prof` and sums self time by
// package (or by file with --files), so an optimisation starts from a measurement.
//   node bench/profile.js [--files] [--top N] -- --version
//   node bench/profile.js -- charges get ID --json   (credentials from the environment)
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const argv = process.argv.slice(2)
const sep = argv.indexOf('--')
const own = sep === -1 ? argv : argv.slice(0, sep)
const cliArgs = sep === -1 ? [] : argv.slice(sep + 1)
const byFile = own.includes('--files')
const topIndex = own.indexOf('--top')
const top = topIndex === -1 ? 25 : Number(own[topIndex + 1])

// Run as a script (bench/tools/ import summarise() without profiling anything).
if (process.argv[1] === fileURLToPath(import.meta.url)) main()

function main() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-prof-'))
  try {
    const started = performance.now()
    const run = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', dir, join(root, 'bin/run.js'), ...cliArgs], { stdio: ['ignore', 'ignore', 'inherit'] })
    const wall = performance.now() - started
    const profile = readProfile(dir)
    if (!profile) throw new Error(`no profile written (exit ${run.status})`)
    const report = summarise(profile, byFile)
    process.stdout.write(`svc ${cliArgs.join(' ')}: exit ${run.status}, ${wall.toFixed(0)} ms wall (profiling adds overhead), ${report.total.toFixed(0)} ms sampled\n`)
    for (const [name, ms] of report.rows.slice(0, top)) process.stdout.write(`${ms.toFixed(1).padStart(8)} ms  ${name}\n`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The source module of line `line` (0-based) of a bundled file, or undefined if `path` is not a bundle. */
function bundledModule(path, line) {
  if (!/[\\/]dist-(bundle|sea)[\\/]/.test(path)) return undefined
  const bundleIndex = (bundledModule.cache ??= new Map())
  let index = bundleIndex.get(path)
  if (!index) {
    index = []
    try {
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((text, i) => {
          const m = /^\s*\/\/ ((?:node_modules|dist|scripts|svc-bundle)[^\s]*)$/.exec(text)
          if (m) index.push([i, m[1]])
        })
    } catch {}
    bundleIndex.set(path, index)
  }
  let found
  for (const [i, name] of index) {
    if (i > line) break
    found = name
  }
  return found
}

/** The `top` functions by self time (ms), as `[name file:line, ms]`. */
export function topFunctions(profile, top = 25) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map()
  profile.samples.forEach((id, i) => {
    const cf = nodes.get(id).callFrame
    const key = `${cf.functionName || '(anon)'} ${cf.url.split('/').slice(-2).join('/')}:${cf.lineNumber}`
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000)
  })
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, top)
}

/** The one .cpuprofile `node --cpu-prof --cpu-prof-dir DIR` wrote in `dir`, parsed; undefined when none was written. */
export function readProfile(dir) {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
  return file === undefined ? undefined : JSON.parse(readFileSync(join(dir, file), 'utf8'))
}

/**
 * The call frame a sample's time counts for: time spent in Node's module loader or built-ins
 * counts for the nearest frame with a file that asked for it, so `require('x')` shows up as the
 * cost of the code doing the requiring. Returns `owner(nodeId)`.
 */
export function sampleOwner(profile) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  return (id) => {
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const url = nodes.get(cur).callFrame.url
      if (url && !url.startsWith('node:')) return nodes.get(cur).callFrame
    }
    return nodes.get(id).callFrame
  }
}

/** Self time per package (node_modules/<pkg>), per area of this repo, or per file. */
export function summarise(profile, files) {
  const owner = sampleOwner(profile)
  const self = new Map()
  const deltas = profile.timeDeltas
  for (let i = 0; i < profile.samples.length; i++) {
    const key = bucket(owner(profile.samples[i]), files)
    self.set(key, (self.get(key) ?? 0) + (deltas[i] ?? 0) / 1000)
  }
  const rows = [...self].sort((a, b) => b[1] - a[1])
  return { rows, total: rows.reduce((s, [, ms]) => s + ms, 0) }
}

export function bucket({ url, functionName, lineNumber }, files) {
  if (!url) return functionName ? `(${functionName})` : '(native/vm)'
  if (url.startsWith('node:')) return files ? url : 'node: (built-in modules)'
  let path = url.replace(/^file:\/\//, '')
  // A bundle (dist-bundle/, the SEA script): the module a function came from, by esbuild's
  // `// path/of/module.js` comment that starts each module's code.
  const origin = bundledModule(path, lineNumber)
  if (origin) path = join(root, origin)
  const nm = path.lastIndexOf('node_modules/')
  if (nm !== -1) {
    const rest = path.slice(nm + 'node_modules/'.length).split('/')
    const pkg = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]
    return files ? `${pkg}/${rest.slice(pkg.includes('/') ? 2 : 1).join('/')}` : pkg
  }
  const rel = path.startsWith(root) ? path.slice(root.length + 1) : path
  return files ? rel : rel.split('/').slice(0, 3).join('/')
}
