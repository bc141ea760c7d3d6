/**
 * First frame of the Ink views, whole process on a pseudo-terminal (`script -qfc`, as a user
 * sees it): time from spawn until the view's first complete frame is on the terminal, against
 * the time `node -e` takes to print one line through the same pseudo-terminal. Views: `svc
 * charges watch ID` (against a sandbox) and `svc webhooks listen` (forwarding to a local app).
 * Rounds run every case once. With --vs DIR, that build's two views run in the same rounds,
 * each right next to this build's (bench/lib/rounds.js), and are compared with them (issue 39.4).
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCharge } from './lib/api.js'
import { startChild } from './lib/child.js'
import { BIN, ROOT } from './lib/proc.js'
import { cliEnv, startSandboxProcess } from './lib/sandbox.js'
import { pairedRuns, roundOrder } from './lib/rounds.js'
import { median, ms, ratio } from './lib/stats.js'

export async function benchInk({ report, runs, quick, vs, swap = false }) {
  // Compared with --vs in pairs: each build goes first in as many rounds (bench/lib/rounds.js).
  const asked = Math.max(5, quick ? 5 : Math.min(runs, 9))
  const n = vs ? pairedRuns(asked) : asked
  report.section('1b. First frame of an Ink view', `pseudo-terminal via script -qfc, median of ${n} runs`)
  if (spawnSync('script', ['--version'], { stdio: 'ignore' }).error) {
    report.note('`script` (util-linux) is not installed: first-frame timings skipped')
    return
  }
  const configDir = mkdtempSync(join(tmpdir(), 'svc-bench-cfg-'))
  const sandbox = await startSandboxProcess({ inMemory: true })
  const app = await startChild([join(ROOT, 'bench/lib/app.js')], {})
  try {
    const charge = await createCharge(sandbox)
    const env = { ...cliEnv(sandbox, configDir), TERM: 'xterm-256color', SVC_WEBHOOK_SECRET: sandbox.webhookSecret }
    delete env.NO_COLOR
    const node = process.execPath
    const cases = [
      { name: 'node -e (one line, baseline)', cmd: [node, '-e', "process.stdout.write('ready\\n')"], marker: 'ready' },
      // The key-hint line closes a complete frame of both views.
      { name: 'svc charges watch ID, first frame', cmd: [node, BIN, 'charges', 'watch', charge.id], marker: 'q quit', target: 2.5 },
      { name: 'svc webhooks listen, first frame', cmd: [node, BIN, 'webhooks', 'listen', '--forward', app.ready, '--port', '0'], marker: 'q quit', target: 2.5 },
    ]
    // The --vs build's views: compared one by one with this build's (the cases named in `mine`).
    const vsBin = vs && join(vs, 'bin/run.js')
    if (vsBin) {
      cases.push(
        { name: '--vs: svc charges watch ID, first frame', cmd: [node, vsBin, 'charges', 'watch', charge.id], marker: 'q quit', mine: cases[1].name },
        { name: '--vs: svc webhooks listen, first frame', cmd: [node, vsBin, 'webhooks', 'listen', '--forward', app.ready, '--port', '0'], marker: 'q quit', mine: cases[2].name },
      )
    }
    const times = cases.map(() => [])
    for (let round = 0; round < n + 1; round++) {
      // Each --vs view right next to this build's, the two going first in turn; every other two
      // rounds in the reverse order, so that no view always runs right after another.
      for (const i of roundOrder(cases, round, swap)) {
        const t = await firstFrame(cases[i].cmd, cases[i].marker, env)
        if (round > 0) times[i].push(t)
      }
    }
    const base = median(times[0])
    report.row({ name: cases[0].name, value: ms(base) })
    for (const [i, c] of cases.entries()) {
      if (i === 0) continue
      const m = median(times[i])
      if (c.mine !== undefined) {
        const own = times[cases.findIndex((o) => o.name === c.mine)]
        report.row({ name: c.name, value: ms(m), baseline: `node ${ratio(m / base)}; this build ${ratio(median(own) / m)} of it` })
        report.compare({ suite: 'ink', name: c.mine, mine: own, theirs: times[i], better: 'lower', unit: ' ms' })
      } else report.row({ name: c.name, value: ms(m), baseline: `node ${ratio(m / base)}`, target: `≤ ${c.target}×`, ok: m / base <= c.target })
    }
  } finally {
    await app.stop()
    await sandbox.stop()
    rmSync(configDir, { recursive: true, force: true })
  }
}

/** The pseudo-terminal's size: a common terminal window. */
const PTY = { columns: 100, rows: 30 }

/** Milliseconds until `marker` appears on the pseudo-terminal; the process is then stopped. */
function firstFrame(cmd, marker, env) {
  const quoted = cmd.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ')
  return new Promise((resolve, reject) => {
    const started = performance.now()
    // The pseudo-terminal gets a size, as every user's terminal has one: script(1) copies its own
    // terminal's, and here there is none (0×0), on which Ink probes for one (/dev/tty, then tput
    // twice) and a first paint is not attempted. stty runs in every case, the baseline's too.
    const child = spawn('script', ['-qfec', `stty cols ${PTY.columns} rows ${PTY.rows} && exec ${quoted}`, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] })
    let seen = ''
    let done = false
    const timer = setTimeout(() => finish(new Error(`"${marker}" did not appear within 10 s: ${JSON.stringify(seen.slice(-400))}`)), 10_000)
    const finish = (err, t) => {
      if (done) return
      done = true
      clearTimeout(timer)
      // Closing the pseudo-terminal hangs up the session: the view and its process end with it.
      child.once('exit', () => (err ? reject(err) : resolve(t)))
      child.kill('SIGKILL')
    }
    child.stdout.on('data', (chunk) => {
      seen += chunk
      if (seen.includes(marker)) finish(undefined, performance.now() - started)
    })
    child.on('error', (err) => finish(err))
  })
}
