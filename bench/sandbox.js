/**
 * The sandbox under load: charge creations per second through its HTTP API (50 connections,
 * each creation with its own Idempotency-Key, as the CLI sends them) with the webhook URL set
 * to a local app, so that every charge.awaiting_payment event is signed and delivered while
 * creations go on. The backlog (events created − deliveries the app received) is sampled during
 * the run: dispatch keeps up when it does not grow. Baseline: the same load with no webhook URL.
 * The sandbox runs on a data dir (as `svc sandbox start` does) with its rate limit lifted.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { api, TEST_CPF } from './lib/api.js'
import { startChild } from './lib/child.js'
import { load } from './lib/load.js'
import { ROOT } from './lib/proc.js'
import { startSandboxProcess } from './lib/sandbox.js'
import { median, perSecond, ratio } from './lib/stats.js'

const CONNECTIONS = 50

export async function benchSandbox({ report, quick }) {
  const runs = quick ? 3 : 5
  const durationMs = quick ? 2000 : 4000
  report.section('4. sandbox', `charge creations, ${CONNECTIONS} connections, ${durationMs / 1000} s per run, median of ${runs} runs, data dir on disk`)
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-sandbox-'))
  const sandbox = await startSandboxProcess({ dataDir })
  const app = await startChild([join(ROOT, 'bench/lib/app.js')], {})
  try {
    const body = JSON.stringify({ amountInCents: 1500, payerTaxNumber: TEST_CPF })
    const request = () => ({
      body,
      headers: { authorization: `Bearer ${sandbox.testKey}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    })
    const create = (ms) => load({ url: `${sandbox.baseUrl}/v1/charges`, connections: CONNECTIONS, durationMs: ms, request, expect: 201 })
    const received = async () => (await (await fetch(new URL('/count', app.ready))).json()).count

    await create(500) // warm-up, no webhook URL yet
    const plain = []
    for (let i = 0; i < runs; i++) plain.push(check(await create(durationMs)).perSecond)

    await api(sandbox, 'PUT', '/_sandbox/webhook', { url: app.ready })
    const withHooks = []
    const backlogs = []
    let created = 0
    for (let i = 0; i < runs; i++) {
      const before = await received()
      const progress = { completed: 0 }
      const run = load({ url: `${sandbox.baseUrl}/v1/charges`, connections: CONNECTIONS, durationMs, request, expect: 201, progress })
      // Backlog = creations answered so far − deliveries received so far, every 1/8 of the run.
      const trace = []
      for (let k = 0; k < 7; k++) {
        await sleep(durationMs / 8)
        trace.push(progress.completed - ((await received()) - before))
      }
      const result = check(await run)
      created += result.requests
      withHooks.push(result.perSecond)
      backlogs.push(trace)
    }
    // After the load: every event reaches the app (bounded wait).
    const drainStarted = performance.now()
    let delivered = await received()
    while (delivered < created && performance.now() - drainStarted < 15_000) {
      await sleep(50)
      delivered = await received()
    }
    const drainMs = performance.now() - drainStarted

    const plainRate = median(plain)
    const hookRate = median(withHooks)
    report.row({ name: 'creations/s, no webhook URL (baseline)', value: perSecond(plainRate) })
    report.row({ name: 'creations/s, each event delivered', value: perSecond(hookRate), baseline: `no webhook ${ratio(hookRate / plainRate)}`, target: '≥ 5 000/s', ok: hookRate >= 5000 })
    // Growing backlog: the last samples of a run well above the first ones.
    const growth = median(backlogs.map((t) => median(t.slice(-3)) - median(t.slice(0, 3))))
    const endBacklog = median(backlogs.map((t) => t.at(-1)))
    const keepsUp = delivered >= created && growth <= Math.max(50, hookRate * 0.05)
    report.row({
      name: 'webhook backlog during a run',
      value: `${Math.round(endBacklog)} events`,
      baseline: `grows ${Math.round(growth)} events per run; all ${created} delivered ${delivered >= created ? `${(drainMs / 1000).toFixed(1)} s after the load` : `NOT within 15 s (${delivered})`}`,
      target: 'no growth',
      ok: keepsUp,
    })
  } finally {
    await app.stop()
    await sandbox.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

function check(result) {
  if (result.errors > 0 || result.statusErrors > 0) throw new Error(`${result.errors} failed requests, ${result.statusErrors} unexpected answers`)
  return result
}
