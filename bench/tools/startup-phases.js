// Diagnostic (issue 39.1): where each millisecond of a command's start goes. Runs `svc ARGS`
// under --cpu-prof N times, sorts every sample into a phase by the module it belongs to (built-ins
// count for the module that called them, as bench/profile.js), and prints the median ms of each
// phase beside the median wall time of the same command unprofiled and of `node -e 0`.
//   node bench/tools/startup-phases.js [--runs N] -- charges get ID --json   (credentials from the environment)
//   node bench/tools/startup-phases.js --frame 'q quit' -- charges watch ID
// --frame MARKER: the command runs on a pseudo-terminal (script -qfc, as bench/ink.js) and is quit
// with q once MARKER (the end of its first complete frame) is on the screen; the wall time is to
// that frame, the profile runs until the quit (a few ms more).
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BIN, timeRun } from '../lib/proc.js'
import { median } from '../lib/stats.js'
import { bucket, readProfile, sampleOwner } from '../profile.js'

/** Phase of a sample, by the module that owns it (first rule that matches). */
const PHASES = [
  ['waiting on the network', (k) => k === '((idle))' || k === '(idle)'],
  ['GC', (k) => k.includes('garbage collector')],
  ['V8/Node native: parse, compile, bootstrap', (k) => k.includes('(program)') || k === '(native/vm)' || k.startsWith('(')],
  ['undici: load, Agent, request', (k) => /^undici\b|^wasm:/.test(k)],
  ['API client + answer decode (zod parsers)', (k) => /^zod\b|dist\/lib\/(api|generated|contract|domain|net)\b/.test(k)],
  ['oclif: Config from the inlined manifests', (k) => /@oclif\/core\/lib\/config\b|svc-bundle:data/.test(k)],
  [
    'oclif: load, parse, run (and its deps)',
    (k) =>
      /@oclif\/|^(debug|ansis|tinyglobby|picomatch|fdir|supports-color|ansi-styles|wsl-utils|is-wsl|is-docker|lilconfig|semver|ejs|string-width|wrap-ansi|slice-ansi|indent-string|clean-stack|cli-spinners|widest-line|minimatch|ms|has-flag|js-yaml|is-inside-container|lodash)\b/.test(
        k,
      ),
  ],
  ['the command (flags, credentials, profile)', (k) => /dist\/(commands|lib\/command-kit|lib\/config|lib\/charges|lib\/services)\b/.test(k)],
  ['render (output)', (k) => /dist\/lib\/(output|tui)\b|^(ink|react|react-reconciler|yoga-layout|scheduler)\b/.test(k)],
  ['entry: bin/run.js and root-help importing the bundle chunks', (k) => /^(bin\/|dist\/root-help|dist-bundle\/(main|cli))/.test(k)],
  ["built-ins required by the bundle (esbuild's __require chunk)", (k) => /^dist-bundle\/chunk-/.test(k)],
  ['other', () => true],
]

const argv = process.argv.slice(2)
const sep = argv.indexOf('--')
const own = sep === -1 ? argv : argv.slice(0, sep)
const cli = sep === -1 ? [] : argv.slice(sep + 1)
const runs = Number(own[own.indexOf('--runs') + 1] ?? 7) || 7
const frame = own.includes('--frame') ? own[own.indexOf('--frame') + 1] : undefined

/** On a pty, until `frame` is on the screen (then q): ms from spawn to the frame. */
function untilFrame(nodeArgs) {
  const quote = (a) => `'${a.replace(/'/g, "'\\''")}'`
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn('script', ['-qfc', [process.execPath, ...nodeArgs].map(quote).join(' '), '/dev/null'], { stdio: ['pipe', 'pipe', 'ignore'] })
    let seen = ''
    let at
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    child.stdout.on('data', (c) => {
      seen += c
      if (at === undefined && seen.includes(frame)) {
        at = performance.now() - started
        child.stdin.write('q')
      }
    })
    child.on('close', () => {
      clearTimeout(timer)
      at === undefined ? reject(new Error(`no "${frame}" on the screen: ${seen.slice(-300)}`)) : resolve(at)
    })
  })
}

async function profileOnce() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-phases-'))
  try {
    const args = ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', dir, BIN, ...cli]
    if (frame) await untilFrame(args)
    else {
      const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] })
      if (r.status !== 0) throw new Error(`svc ${cli.join(' ')} exited ${r.status}: ${String(r.stderr).slice(0, 300)}`)
    }
    const profile = readProfile(dir)
    const owner = sampleOwner(profile)
    const ms = Object.fromEntries(PHASES.map(([name]) => [name, 0]))
    profile.samples.forEach((id, i) => {
      const key = bucket(owner(id), true)
      const [name] = PHASES.find(([, test]) => test(key))
      ms[name] += (profile.timeDeltas[i] ?? 0) / 1000
    })
    // Before the profiler starts: Node's own start, not in any sample.
    return ms
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const walls = { node: [], svc: [] }
const phases = []
for (let i = 0; i < runs + 1; i++) {
  const n = frame ? await untilFrame(['-e', `process.stdout.write(${JSON.stringify(frame)}); process.stdin.once('data', () => process.exit(0))`]) : timeRun(['-e', '0'])
  const s = frame ? await untilFrame([BIN, ...cli]) : timeRun([BIN, ...cli])
  const p = await profileOnce()
  if (i === 0) continue // warm-up: the compile cache
  walls.node.push(n)
  walls.svc.push(s)
  phases.push(p)
}
const node = median(walls.node)
const svc = median(walls.svc)
const baseline = frame ? 'a one-line node -e on the same pty' : 'node -e 0'
process.stdout.write(
  `svc ${cli.join(' ')}: ${svc.toFixed(1)} ms wall unprofiled${frame ? ' to the first frame' : ''} = ${(svc / node).toFixed(2)}× ${baseline} (${node.toFixed(1)} ms), medians of ${runs} interleaved runs\n`,
)
process.stdout.write(`| phase (CPU samples, profiled runs) | ms | share |\n| --- | --- | --- |\n`)
const rows = PHASES.map(([name]) => [name, median(phases.map((p) => p[name]))])
const total = rows.reduce((a, [, v]) => a + v, 0)
process.stdout.write(`| Node's start before the profiler (≈ ${baseline}) | ${node.toFixed(1)} | — |\n`)
for (const [name, v] of rows) if (v >= 0.05) process.stdout.write(`| ${name} | ${v.toFixed(1)} | ${((v / total) * 100).toFixed(0)} % |\n`)
process.stdout.write(`| sampled in all (profiler overhead included) | ${total.toFixed(1)} | |\n`)
