/**
 * Start-up: whole-process wall time of `svc --version`, `svc --help` and `svc charges get ID
 * --json` (against a local sandbox), each as a ratio to `node -e 0` measured in the same
 * rounds, for the npm package's entry (`node bin/run.js`, the bundle when built) and for the
 * single executable (dist-bin/svc, `npm run build:binary`). Runs are interleaved (one of each
 * per round) so that a load spike hits every command alike, after warm-up rounds that fill the
 * compile cache. Targets: issue 14. With --vs DIR, that build's `--version`, `--help` and
 * `charges get` run in the same rounds, and each is compared with this build's (issue 39.4).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCharge } from './lib/api.js'
import { BIN, BINARY, timeRun } from './lib/proc.js'
import { cliEnv, startSandboxProcess } from './lib/sandbox.js'
import { pairedRuns, roundOrder } from './lib/rounds.js'
import { median, ms, ratio } from './lib/stats.js'

export async function benchStartup({ report, runs: asked, quick, vs, swap = false }) {
  // Compared with --vs in pairs: each build goes first in as many rounds (bench/lib/rounds.js).
  const runs = vs ? pairedRuns(asked) : asked
  report.section('1. Start-up', `whole process, median of ${runs} interleaved runs, ratio to node -e 0 of the same rounds`)
  const configDir = mkdtempSync(join(tmpdir(), 'svc-bench-cfg-'))
  const sandbox = await startSandboxProcess({ inMemory: true })
  try {
    const charge = await createCharge(sandbox)
    const env = cliEnv(sandbox, configDir)
    // The same request as a user after `svc sandbox start`: credentials from the stored profile.
    const profileDir = mkdtempSync(join(tmpdir(), 'svc-bench-profile-'))
    writeFileSync(join(profileDir, 'config.json'), JSON.stringify({ defaultProfile: 'sandbox', profiles: { sandbox: { apiKey: sandbox.testKey, baseUrl: sandbox.baseUrl } } }), { mode: 0o600 })
    const profileEnv = cliEnv(sandbox, profileDir)
    delete profileEnv.SVC_API_KEY
    delete profileEnv.SVC_BASE_URL

    const cases = [
      { name: 'node -e 0 (baseline)', args: ['-e', '0'], env },
      { name: 'svc --version', args: [BIN, '--version'], env, target: 1.2 },
      { name: 'svc --help', args: [BIN, '--help'], env, target: 1.5 },
      { name: 'svc charges get ID --json (key in env)', args: [BIN, 'charges', 'get', charge.id, '--json'], env, target: 3 },
      { name: 'svc charges get ID --json (profile)', args: [BIN, 'charges', 'get', charge.id, '--json'], env: profileEnv, target: 3 },
    ]
    // The --vs build's commands: compared one by one with this build's (the cases named in `mine`).
    const vsBin = vs && join(vs, 'bin/run.js')
    if (vsBin) {
      cases.push(
        { name: '--vs: svc --version', args: [vsBin, '--version'], env, mine: 'svc --version' },
        { name: '--vs: svc --help', args: [vsBin, '--help'], env, mine: 'svc --help' },
        { name: '--vs: svc charges get ID --json (profile)', args: [vsBin, 'charges', 'get', charge.id, '--json'], env: profileEnv, mine: 'svc charges get ID --json (profile)' },
      )
    }
    if (existsSync(BINARY)) {
      cases.push(
        { name: 'binary: svc --version', cmd: BINARY, args: ['--version'], env, target: 1.3 },
        { name: 'binary: svc --help', cmd: BINARY, args: ['--help'], env, target: 1.5 },
        { name: 'binary: svc charges get ID --json (profile)', cmd: BINARY, args: ['charges', 'get', charge.id, '--json'], env: profileEnv, target: 3 },
      )
    } else {
      report.row({ name: 'binary: svc --version', value: 'not built', target: '≤ 1.3× (npm run build:binary)', ok: false })
    }
    const times = cases.map(() => [])
    const warmup = quick ? 1 : 2
    for (let round = 0; round < warmup + runs; round++) {
      // Each --vs command right next to this build's, the two going first in turn; every other
      // two rounds in the reverse order, so that no command always runs right after another.
      for (const i of roundOrder(cases, round, swap)) {
        const c = cases[i]
        const t = timeRun(c.args, { env: c.env, ...(c.cmd ? { cmd: c.cmd } : {}) })
        if (round >= warmup) times[i].push(t)
      }
    }
    const base = median(times[0])
    report.row({ name: cases[0].name, value: ms(base) })
    cases.slice(1).forEach((c, j) => {
      const m = median(times[j + 1])
      if (c.mine !== undefined) {
        const own = times[cases.findIndex((o) => o.name === c.mine)]
        report.row({ name: c.name, value: ms(m), baseline: `node ${ratio(m / base)}; this build ${ratio(median(own) / m)} of it` })
        report.compare({ suite: 'startup', name: c.mine, mine: own, theirs: times[j + 1], better: 'lower', unit: ' ms' })
      } else if (c.target === undefined) report.row({ name: c.name, value: ms(m), baseline: `node ${ratio(m / base)}` })
      else report.row({ name: c.name, value: ms(m), baseline: `node ${ratio(m / base)}`, target: `≤ ${c.target}×`, ok: m / base <= c.target })
    })
    rmSync(profileDir, { recursive: true, force: true })
  } finally {
    await sandbox.stop()
    rmSync(configDir, { recursive: true, force: true })
  }
}
