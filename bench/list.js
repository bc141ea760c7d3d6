/**
 * `svc charges list --all --ndjson` over a large sandbox: peak RSS at N charges against peak RSS
 * at 1 000 (flat memory means streamed pages), and throughput against a plain loop of undici
 * requests over the same pages. The sandbox runs in its own process on a seeded database; the
 * 1 000 case is the newest 1 000 of the same database (--created-after), so both read the same
 * rows the same way.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { api, createCharge } from './lib/api.js'
import { BIN, ROOT, runCounting } from './lib/proc.js'
import { seedCharges } from './lib/seed.js'
import { cliEnv, startSandboxProcess } from './lib/sandbox.js'
import { median, mib, perSecond, ratio } from './lib/stats.js'

export async function benchList({ report, quick }) {
  const total = quick ? 20_000 : 100_000
  const small = 1_000
  const runs = quick ? 3 : 5
  report.section(`2. charges list --all --ndjson`, `${total.toLocaleString('en-US')} vs ${small.toLocaleString('en-US')} charges, median of ${runs} runs, whole process`)
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-list-'))
  const configDir = mkdtempSync(join(tmpdir(), 'svc-bench-cfg-'))
  let sandbox = await startSandboxProcess({ dataDir })
  try {
    const template = await createCharge(sandbox)
    await api(sandbox, 'POST', `/v1/test/charges/${template.id}/advance`, { status: 'settled' })
    await sandbox.stop()
    const seedStarted = performance.now()
    const newestMs = seedCharges(dataDir, template.id, total - 1)
    report.note(`seeded ${total.toLocaleString('en-US')} settled charges into sqlite in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`)
    sandbox = await startSandboxProcess({ dataDir })
    const env = cliEnv(sandbox, configDir)
    const smallAfter = new Date(newestMs - small).toISOString()

    const cases = {
      small: { args: [BIN, 'charges', 'list', '--all', '--ndjson', '--created-after', smallAfter], expect: small },
      large: { args: [BIN, 'charges', 'list', '--all', '--ndjson'], expect: total },
      plain: { args: [join(ROOT, 'bench/lib/plain-list.js'), sandbox.baseUrl, sandbox.testKey], expect: total },
    }
    const results = { small: [], large: [], plain: [] }
    for (let round = 0; round < runs; round++) {
      for (const [name, c] of Object.entries(cases)) {
        const r = await runCounting(c.args, { env })
        if (r.lines !== c.expect) throw new Error(`${name}: expected ${c.expect} lines, got ${r.lines}`)
        results[name].push(r)
      }
    }
    const rssSmall = median(results.small.map((r) => r.peakRssKiB))
    const rssLarge = median(results.large.map((r) => r.peakRssKiB))
    const rate = (rs) => median(rs.map((r) => r.lines / (r.elapsed / 1000)))
    const cliRate = rate(results.large)
    const plainRate = rate(results.plain)
    report.row({ name: `peak RSS at ${small.toLocaleString('en-US')} charges`, value: mib(rssSmall) })
    report.row({ name: `peak RSS at ${total.toLocaleString('en-US')} charges`, value: mib(rssLarge), baseline: `1 000: ${ratio(rssLarge / rssSmall)}`, target: '≤ 1.2×', ok: rssLarge / rssSmall <= 1.2 })
    report.row({ name: 'plain undici loop, same pages (baseline)', value: perSecond(plainRate), baseline: `peak RSS ${mib(median(results.plain.map((r) => r.peakRssKiB)))}` })
    report.row({ name: `svc throughput, ${total.toLocaleString('en-US')} charges`, value: perSecond(cliRate), baseline: `plain ${ratio(cliRate / plainRate)}`, target: '≥ 20 000/s', ok: cliRate >= 20_000 })
  } finally {
    await sandbox.stop()
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(configDir, { recursive: true, force: true })
  }
}
