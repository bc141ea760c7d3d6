/**
 * The sandbox under load: charge creations per second through its HTTP API (50 connections,
 * each creation with its own Idempotency-Key, as the CLI sends them) with the webhook URL set
 * to a local app, so that every charge.awaiting_payment event is signed and delivered while
 * creations go on. The backlog (events created − deliveries the app received) is sampled during
 * the run: dispatch keeps up when it does not grow. Baseline: the same load with no webhook URL.
 * The sandbox runs on a data dir (as `svc sandbox start` does) with its rate limit lifted.
 * With --vs DIR, that build's sandbox (its own data dir and app) takes the same load in the same
 * rounds, alternating with this one's, and both figures are compared (issue 39.4).
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

export async function benchSandbox({ report, quick, vs, swap = false }) {
  const runs = quick ? 3 : 5
  const durationMs = quick ? 2000 : 4000
  report.section('4. sandbox', `charge creations, ${CONNECTIONS} connections, ${durationMs / 1000} s per run, median of ${runs} runs, data dir on disk${vs ? `, beside the sandbox of ${vs}` : ''}`)
  const subjects = []
  try {
    // swap (the budget's second pass): the --vs build starts first and runs first.
    for (const root of vs ? (swap ? [vs, undefined] : [undefined, vs]) : [undefined]) {
      const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-sandbox-'))
      const subject = { root, dataDir, plain: [], withHooks: [], backlogs: [], created: 0 }
      subjects.push(subject)
      subject.sandbox = await startSandboxProcess({ dataDir }, root)
      subject.app = await startChild([join(ROOT, 'bench/lib/app.js')], {})
    }
    const body = JSON.stringify({ amountInCents: 1500, payerTaxNumber: TEST_CPF })
    const requestOf = (sandbox) => () => ({
      body,
      headers: { authorization: `Bearer ${sandbox.testKey}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    })
    const create = (s, ms, progress) => load({ url: `${s.sandbox.baseUrl}/v1/charges`, connections: CONNECTIONS, durationMs: ms, request: requestOf(s.sandbox), expect: 201, progress })
    const received = async (s) => (await (await fetch(new URL('/count', s.app.ready))).json()).count
    // Every other run in the reverse order, so that neither build always runs right after the other.
    const inTurn = (i) => (i % 2 === 0 ? subjects : [...subjects].reverse())

    for (const s of subjects) await create(s, 500) // warm-up, no webhook URL yet
    for (let i = 0; i < runs; i++) for (const s of inTurn(i)) s.plain.push(check(await create(s, durationMs)).perSecond)

    for (const s of subjects) await api(s.sandbox, 'PUT', '/_sandbox/webhook', { url: s.app.ready })
    for (let i = 0; i < runs; i++) {
      for (const s of inTurn(i)) {
        const before = await received(s)
        const progress = { completed: 0 }
        const run = create(s, durationMs, progress)
        // Backlog = creations answered so far − deliveries received so far, every 1/8 of the run.
        const trace = []
        for (let k = 0; k < 7; k++) {
          await sleep(durationMs / 8)
          trace.push(progress.completed - ((await received(s)) - before))
        }
        const result = check(await run)
        s.created += result.requests
        s.withHooks.push(result.perSecond)
        s.backlogs.push(trace)
      }
    }
    // After the load: every event reaches the app (bounded wait).
    for (const s of subjects) {
      const drainStarted = performance.now()
      s.delivered = await received(s)
      while (s.delivered < s.created && performance.now() - drainStarted < 15_000) {
        await sleep(50)
        s.delivered = await received(s)
      }
      s.drainMs = performance.now() - drainStarted
    }

    for (const s of [...subjects].sort((a, b) => (a.root ? 1 : 0) - (b.root ? 1 : 0))) {
      const who = s.root ? ' (--vs)' : ''
      const plainRate = median(s.plain)
      const hookRate = median(s.withHooks)
      report.row({ name: `creations/s, no webhook URL (baseline)${who}`, value: perSecond(plainRate) })
      report.row({ name: `creations/s, each event delivered${who}`, value: perSecond(hookRate), baseline: `no webhook ${ratio(hookRate / plainRate)}`, target: '≥ 5 000/s', ok: hookRate >= 5000 })
      // Growing backlog: the last samples of a run well above the first ones.
      const growth = median(s.backlogs.map((t) => median(t.slice(-3)) - median(t.slice(0, 3))))
      const endBacklog = median(s.backlogs.map((t) => t.at(-1)))
      const keepsUp = s.delivered >= s.created && growth <= Math.max(50, hookRate * 0.05)
      report.row({
        name: `webhook backlog during a run${who}`,
        value: `${Math.round(endBacklog)} events`,
        baseline: `grows ${Math.round(growth)} events per run; all ${s.created} delivered ${s.delivered >= s.created ? `${(s.drainMs / 1000).toFixed(1)} s after the load` : `NOT within 15 s (${s.delivered})`}`,
        target: 'no growth',
        ok: keepsUp,
      })
    }
    if (vs) {
      const mine = subjects.find((s) => !s.root)
      const theirs = subjects.find((s) => s.root)
      for (const [name, key] of [
        ['creations/s, no webhook URL', 'plain'],
        ['creations/s, each event delivered', 'withHooks'],
      ]) {
        report.row({
          name: `${name}: this build vs --vs`,
          value: ratio(median(mine[key]) / median(theirs[key])),
          baseline: `runs: ${mine[key].map(Math.round).join(', ')} vs ${theirs[key].map(Math.round).join(', ')}`,
        })
        report.compare({ suite: 'sandbox', name, mine: mine[key], theirs: theirs[key], better: 'higher', unit: '/s' })
      }
    }
  } finally {
    for (const s of subjects) {
      await s.app?.stop()
      await s.sandbox?.stop()
      rmSync(s.dataDir, { recursive: true, force: true })
    }
  }
}

function check(result) {
  if (result.errors > 0 || result.statusErrors > 0) throw new Error(`${result.errors} failed requests, ${result.statusErrors} unexpected answers`)
  return result
}
