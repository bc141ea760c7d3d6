/**
 * `svc report settlements` over a month (issue 30): peak RSS with 100 000 settled charges in
 * the sandbox against 1 000 over the same month (flat memory: the report streams pages into
 * per-period sums and holds no charge). Each size has its own sandbox database, seeded straight
 * into sqlite from one real settled charge, the copies spread evenly over 30 days. The report's
 * total is checked against the number seeded, so a fast wrong answer cannot pass.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { api, createCharge } from './lib/api.js'
import { BIN, runCounting } from './lib/proc.js'
import { seedCharges } from './lib/seed.js'
import { cliEnv, startSandboxProcess } from './lib/sandbox.js'
import { median, mib, ratio } from './lib/stats.js'

const MONTH_MS = 30 * 86_400_000

async function seeded(total, configDir) {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-report-'))
  let sandbox = await startSandboxProcess({ dataDir })
  const template = await createCharge(sandbox)
  await api(sandbox, 'POST', `/v1/test/charges/${template.id}/advance`, { status: 'settled' })
  const settled = await api(sandbox, 'GET', `/v1/charges/${template.id}`)
  await sandbox.stop()
  const started = performance.now()
  seedCharges(dataDir, template.id, total - 1, Math.floor(MONTH_MS / total))
  const seedS = (performance.now() - started) / 1000
  sandbox = await startSandboxProcess({ dataDir })
  const from = settled.createdAt.slice(0, 10)
  const to = new Date(Date.parse(from) + MONTH_MS).toISOString().slice(0, 10)
  return { sandbox, dataDir, env: cliEnv(sandbox, configDir, { TZ: 'UTC' }), from, to, seedS }
}

export async function benchReport({ report, quick }) {
  const total = quick ? 20_000 : 100_000
  const small = 1_000
  const runs = quick ? 3 : 5
  report.section('10. report settlements --by day', `a month, ${total.toLocaleString('en-US')} vs ${small.toLocaleString('en-US')} charges, median of ${runs} runs, whole process`)
  const configDir = mkdtempSync(join(tmpdir(), 'svc-bench-cfg-'))
  const cases = {}
  try {
    for (const [name, n] of [
      ['small', small],
      ['large', total],
    ]) {
      const c = await seeded(n, configDir)
      cases[name] = c
      report.note(`seeded ${n.toLocaleString('en-US')} settled charges over 30 days in ${c.seedS.toFixed(1)} s`)
      const args = ['report', 'settlements', '--from', c.from, '--to', c.to, '--tz', 'UTC']
      const json = JSON.parse(execFileSync(process.execPath, [BIN, ...args, '--json'], { env: c.env, maxBuffer: 1 << 24 }).toString())
      if (json.total.settled.count !== n) throw new Error(`${name}: the report counted ${json.total.settled.count} settled charges, ${n} were seeded`)
      c.args = [BIN, ...args]
      c.periods = json.periods.length
      c.results = []
    }
    for (let round = 0; round < runs; round++) {
      for (const c of Object.values(cases)) {
        const r = await runCounting(c.args, { env: c.env })
        // Piped, the report prints a row per period, then its total row (a239bcf).
        if (r.lines !== c.periods + 1) throw new Error(`expected ${c.periods} rows and the total, got ${r.lines} lines`)
        c.results.push(r)
      }
    }
    const rssSmall = median(cases.small.results.map((r) => r.peakRssKiB))
    const rssLarge = median(cases.large.results.map((r) => r.peakRssKiB))
    const seconds = (c) => `${(median(c.results.map((r) => r.elapsed)) / 1000).toFixed(1)} s`
    report.row({ name: `peak RSS, ${small.toLocaleString('en-US')} charges in the month`, value: mib(rssSmall), baseline: `time ${seconds(cases.small)}` })
    report.row({
      name: `peak RSS, ${total.toLocaleString('en-US')} charges in the month`,
      value: mib(rssLarge),
      baseline: `1 000: ${ratio(rssLarge / rssSmall)}, time ${seconds(cases.large)}`,
      target: '≤ 1.2×',
      ok: rssLarge / rssSmall <= 1.2,
    })
  } finally {
    for (const c of Object.values(cases)) {
      await c.sandbox.stop()
      rmSync(c.dataDir, { recursive: true, force: true })
    }
    rmSync(configDir, { recursive: true, force: true })
  }
}
