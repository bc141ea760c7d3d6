#!/usr/bin/env node
/**
 * `npm run bench`: every benchmark of issue 6, each figure printed next to its baseline from the
 * same run and its target. Exits non-zero only when a benchmark could not run; a missed target
 * is reported, not fatal.
 *
 *   node bench/run.js [--quick] [--only startup,ink,list,forwarder,sandbox,library,panel,mcp,report,relay,relay-pg] [--runs N] [--vs DIR]
 *
 * --vs DIR: another built checkout of svc (e.g. `git worktree add /tmp/old COMMIT`, then
 * `npm run build` there); the suites that support it (forwarder) run that build beside this one,
 * interleaved in the same runs, and print its figure next to this build's.
 *
 * Needs a build (dist/ and oclif.manifest.json): `npm run bench` builds first.
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { ROOT } from './lib/proc.js'
import { Report } from './lib/report.js'

const SUITES = {
  startup: () => import('./startup.js').then((m) => m.benchStartup),
  ink: () => import('./ink.js').then((m) => m.benchInk),
  list: () => import('./list.js').then((m) => m.benchList),
  forwarder: () => import('./forwarder.js').then((m) => m.benchForwarder),
  sandbox: () => import('./sandbox.js').then((m) => m.benchSandbox),
  library: () => import('./library.js').then((m) => m.benchLibrary),
  panel: () => import('./panel.js').then((m) => m.benchPanel),
  mcp: () => import('./mcp.js').then((m) => m.benchMcp),
  report: () => import('./report.js').then((m) => m.benchReport),
  relay: () => import('./relay.js').then((m) => m.benchRelay),
  'relay-pg': () => import('./relay-pg.js').then((m) => m.benchRelayPg),
}

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    runs: { type: 'string' },
    vs: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
})
if (values.help) {
  process.stdout.write('node bench/run.js [--quick] [--only a,b] [--runs N] [--vs DIR]\n  --vs DIR  another built checkout, run beside this build (forwarder)\nSuites: ' + Object.keys(SUITES).join(', ') + '\n')
  process.exit(0)
}
if (!existsSync(join(ROOT, 'dist/lib/sandbox/sandbox.js')) || !existsSync(join(ROOT, 'oclif.manifest.json'))) {
  process.stderr.write('bench: build first (npm run build), or run `npm run bench`.\n')
  process.exit(1)
}

const vs = values.vs ? resolve(values.vs) : undefined
if (vs && !existsSync(join(vs, 'bin/run.js'))) {
  process.stderr.write(`bench: --vs ${vs}: no bin/run.js there (a checkout of svc, built with npm run build).\n`)
  process.exit(1)
}
const quick = values.quick
const runs = values.runs ? Number(values.runs) : quick ? 5 : 15
const selected = values.only ? values.only.split(',').map((s) => s.trim()) : Object.keys(SUITES)
const report = new Report()
process.stdout.write(`svc benchmarks — node ${process.version}, ${(await import('node:os')).cpus().length} CPUs${quick ? ', quick run' : ''}${vs ? `, beside the build in ${vs}` : ''}\n`)

let failed = false
const started = performance.now()
for (const name of selected) {
  const load = SUITES[name]
  if (!load) {
    process.stderr.write(`bench: unknown suite "${name}" (known: ${Object.keys(SUITES).join(', ')})\n`)
    failed = true
    continue
  }
  try {
    await (await load())({ report, runs, quick, vs })
  } catch (err) {
    failed = true
    process.stderr.write(`bench: ${name} could not run: ${err?.stack ?? err}\n`)
  }
}
report.summary()
process.stdout.write(`Done in ${((performance.now() - started) / 1000).toFixed(0)} s.\n`)
process.exitCode = failed ? 1 : 0
