// Diagnostic (issue 39.1): where each millisecond of a command's start goes, as wall time on the
// clock of the process (performance.now(), 0 = the process's start), not as CPU samples. It runs
// `svc ARGS` from a copy of the built bundle (dist-bundle/, bin/) with a marker written to stderr at
// each step of the way: Node's bootstrap, bin/run.js, the import of cli.js (oclif's index and the
// bundle's data), oclif's Config, the command's chunk, its init (parse), its run, and, from the
// diagnostics channels undici publishes (a preload subscribes: no code of undici is touched), when
// the first request is created, connected, sent and answered. The shipped bundle is never edited:
// only the copy, and an anchor that is gone (another oclif) fails loudly. Medians of N runs.
//   node bench/tools/startup-timeline.js [--runs N] -- charges get ID --json   (credentials from the environment)
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from '../lib/proc.js'
import { median } from '../lib/stats.js'

const argv = process.argv.slice(2)
const sep = argv.indexOf('--')
const own = sep === -1 ? argv : argv.slice(0, sep)
const args = sep === -1 ? [] : argv.slice(sep + 1)
const runs = own.includes('--runs') ? Number(own[own.indexOf('--runs') + 1]) : 9
if (args.length === 0) throw new Error('usage: node bench/tools/startup-timeline.js [--runs N] -- ARGS')

const MARK = (label) => `globalThis.__svcMark?.(${JSON.stringify(label)});`
/** [file pattern, anchor, where the marker goes, label]: every anchor must be found exactly once. */
const ANCHORS = [
  [/^main\.js$/, 'const { runCli } = await loadCli();', 'before', "importing cli.js: oclif's index, the bundle's data"],
  [/^main\.js$/, 'const { runCli } = await loadCli();', 'after', "runCli: the plugins, oclif's Config"],
  // A dispatched command: cli.js's runOne (the whole path, oclif's main, has no marks of its own).
  [/^cli\.js$/, 'const command = await config.findCommand(id, { must: true }).load();', 'before', "importing the command's chunk and the chunks it imports"],
  [/^cli\.js$/, 'const command = await config.findCommand(id, { must: true }).load();', 'after', 'the command object, init (flags parsed)'],
  [/^(chunk-.*|oclif\.cjs)$/, 'await this.init();\n', 'after', 'run(): credentials, the API client, undici loaded'],
  [/^(chunk-.*|oclif\.cjs)$/, 'result = await this.run();', 'after', 'finally, then the exit handlers'],
]

const copy = mkdtempSync(join(tmpdir(), 'svc-timeline-'))
try {
  for (const part of ['dist-bundle', 'bin', 'dist', 'package.json', 'oclif.manifest.json']) cpSync(join(ROOT, part), join(copy, part), { recursive: true })
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'))
  const files = readdirSync(join(copy, 'dist-bundle')).filter((f) => f.endsWith('.js') || f.endsWith('.cjs'))
  for (const [pattern, anchor, where, label] of ANCHORS) {
    const hits = files.filter((f) => pattern.test(f) && readFileSync(join(copy, 'dist-bundle', f), 'utf8').includes(anchor))
    if (hits.length !== 1) throw new Error(`startup-timeline: the anchor ${JSON.stringify(anchor)} is in ${hits.length} files of dist-bundle/ (${hits.join(', ')}), not one: update ANCHORS for this build`)
    const path = join(copy, 'dist-bundle', hits[0])
    const text = readFileSync(path, 'utf8')
    if (text.indexOf(anchor) !== text.lastIndexOf(anchor)) throw new Error(`startup-timeline: ${JSON.stringify(anchor)} is in ${hits[0]} twice`)
    writeFileSync(path, text.replace(anchor, where === 'before' ? `${MARK(label)} ${anchor}` : `${anchor} ${MARK(label)}`))
  }
  const preload = join(copy, 'marks.mjs')
  writeFileSync(
    preload,
    `import { subscribe } from 'node:diagnostics_channel'
const marks = []
globalThis.__svcMark = (label) => marks.push([label, performance.now()])
__svcMark('bin/run.js and main.js: the Node check, the compile cache')
const once = (name, label) => { let done = false; subscribe(name, () => { if (!done) { done = true; __svcMark(label) } }) }
once('undici:request:create', 'the request made; connecting')
once('undici:client:connected', 'connected; sending')
once('undici:client:sendHeaders', 'sent: the sandbox answers')
once('undici:request:headers', 'answer in: body read, decoded, printed')
process.on('exit', () => { __svcMark('exit'); process.stderr.write('\\n@@marks ' + JSON.stringify(marks) + '\\n') })
`,
  )
  const nodeAlone = []
  const rows = new Map()
  for (let i = 0; i < runs + 1; i++) {
    const t0 = performance.now()
    spawnSync(process.execPath, ['-e', '0'])
    const baseline = performance.now() - t0
    const res = spawnSync(process.execPath, ['--import', preload, join(copy, 'bin/run.js'), ...args], { encoding: 'utf8' })
    const line = res.stderr.split('\n').find((l) => l.startsWith('@@marks '))
    if (!line) throw new Error(`svc ${args.join(' ')} left no marks (exit ${res.status}): ${res.stderr.slice(0, 500)}`)
    if (i === 0) continue // fills the compile cache of the copy
    nodeAlone.push(baseline)
    for (const [label, at] of JSON.parse(line.slice('@@marks '.length))) {
      if (!rows.has(label)) rows.set(label, [])
      rows.get(label).push(at)
    }
  }
  process.stdout.write(`svc ${args.join(' ')}: medians of ${runs} runs; node -e 0 takes ${median(nodeAlone).toFixed(1)} ms whole\n`)
  // Each row: when a phase starts, how long it lasts (until the next mark), and what it is.
  process.stdout.write(`${'at ms'.padStart(8)} ${'lasts'.padStart(8)}  phase\n`)
  const ordered = [['Node starts (bootstrap, until the preload runs)', 0], ...[...rows].map(([label, ats]) => [label, median(ats)]).sort((a, b) => a[1] - b[1])]
  ordered.forEach(([label, at], i) => {
    const lasts = i + 1 < ordered.length ? (ordered[i + 1][1] - at).toFixed(1) : ''
    process.stdout.write(`${at.toFixed(1).padStart(8)} ${lasts.padStart(8)}  ${label}\n`)
  })
} finally {
  rmSync(copy, { recursive: true, force: true })
}
