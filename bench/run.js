#!/usr/bin/env node
/**
 * `npm run bench`: every benchmark of issue 6, each figure printed next to its baseline from the
 * same run and its target. Exits non-zero only when a benchmark could not run; a missed target
 * is reported, not fatal.
 *
 *   node bench/run.js [--quick] [--only startup,ink,list,forwarder,live,sandbox,library,panel,mcp,report,relay,relay-pg] [--runs N] [--vs DIR]
 *
 * --vs DIR: another built checkout of svc (e.g. `git worktree add /tmp/old COMMIT`, then
 * `npm run build` there); the suites that support it (startup, ink, forwarder, sandbox, relay)
 * run that build beside this one, interleaved in the same runs, and print its figure next to
 * this build's.
 *
 * --check (with --vs; `npm run bench:check -- --vs DIR`): the performance budget. Runs the
 * startup, ink, forwarder and sandbox suites (or --only's) with the --vs build interleaved, and exits
 * non-zero when a figure of this build is more than 10 % (--tolerance) worse than the same
 * figure of the --vs build in this run (the median over runs taken in pairs), in a first pass
 * and again in a second pass over the suites that regressed, or could not be measured
 * (bench/lib/budget.js).
 *
 * Needs a build (dist/ and oclif.manifest.json): `npm run bench` builds first.
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { ROOT } from './lib/proc.js'
import { Report } from './lib/report.js'
import { checkBudget, confirmed, DEFAULT_TOLERANCE, formatBudget, suitesToConfirm } from './lib/budget.js'

/** The suites the budget (--check) covers: each compares itself with the --vs build. */
const BUDGETED = ['startup', 'ink', 'forwarder', 'sandbox']

const SUITES = {
  startup: () => import('./startup.js').then((m) => m.benchStartup),
  ink: () => import('./ink.js').then((m) => m.benchInk),
  list: () => import('./list.js').then((m) => m.benchList),
  forwarder: () => import('./forwarder.js').then((m) => m.benchForwarder),
  live: () => import('./live.js').then((m) => m.benchLive),
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
    check: { type: 'boolean', default: false },
    tolerance: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
})
if (values.help) {
  process.stdout.write(
    'node bench/run.js [--quick] [--only a,b] [--runs N] [--vs DIR] [--check [--tolerance 0.1]]\n  --vs DIR  another built checkout, run beside this build (startup, ink, forwarder, live, sandbox, relay)\n  --check   with --vs: exit 1 when a figure is more than 10 % worse than --vs in this run (startup, ink, forwarder, sandbox)\nSuites: ' +
      Object.keys(SUITES).join(', ') +
      '\n',
  )
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
if (values.check && !vs) {
  process.stderr.write('bench: --check compares with another build: pass --vs DIR (e.g. the previous release built in a worktree; see the README, Performance).\n')
  process.exit(2)
}
const quick = values.quick
const runs = values.runs ? Number(values.runs) : quick ? 5 : 15
const selected = values.only ? values.only.split(',').map((s) => s.trim()) : values.check ? BUDGETED : Object.keys(SUITES)
const report = new Report()
process.stdout.write(`svc benchmarks — node ${process.version}, ${(await import('node:os')).cpus().length} CPUs${quick ? ', quick run' : ''}${vs ? `, beside the build in ${vs}` : ''}\n`)

let failed = false
const started = performance.now()
/** Runs the suites named, each reporting into `into`; a suite that cannot run is said and marks the run failed. */
async function runSuites(names, into, swap = false) {
  for (const name of names) {
    const load = SUITES[name]
    if (!load) {
      process.stderr.write(`bench: unknown suite "${name}" (known: ${Object.keys(SUITES).join(', ')})\n`)
      failed = true
      continue
    }
    try {
      await (await load())({ report: into, runs, quick, vs, swap })
    } catch (err) {
      failed = true
      process.stderr.write(`bench: ${name} could not run: ${err?.stack ?? err}\n`)
    }
  }
}
await runSuites(selected, report)
report.summary()
let overBudget = false
if (values.check) {
  const opts = { tolerance: values.tolerance ? Number(values.tolerance) : DEFAULT_TOLERANCE, required: selected.filter((s) => BUDGETED.includes(s)) }
  let budget = checkBudget(report.comparisons, opts)
  process.stdout.write(`${formatBudget(budget).join('\n')}\n`)
  // A regression must show twice: the suites that regressed run again, and only a figure worse in both passes fails.
  const again = suitesToConfirm(budget)
  if (again.length > 0) {
    process.stdout.write(`\nMeasuring again to confirm: ${again.join(', ')}\n`)
    const second = new Report()
    // The other build starts first this time: a bias of position or start order falls on the other side.
    await runSuites(again, second, true)
    budget = confirmed(budget, checkBudget(second.comparisons, { ...opts, required: again }))
    process.stdout.write(`${formatBudget(budget).join('\n')}\n`)
  }
  overBudget = !budget.ok
}
process.stdout.write(`Done in ${((performance.now() - started) / 1000).toFixed(0)} s.\n`)
process.exitCode = failed || overBudget ? 1 : 0
