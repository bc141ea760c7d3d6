/**
 * The `svc webhooks listen` forwarder: signed deliveries (each a new event, so none is a
 * duplicate) at 50 concurrent connections through a real `svc webhooks listen --no-tui`
 * process to a local app, against the same load sent straight to the app. The app and the
 * listener run in their own processes; the load loop runs here.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signatureHeader } from '../dist/lib/webhooks/signature.js'
import { startChild } from './lib/child.js'
import { load } from './lib/load.js'
import { BIN, ROOT } from './lib/proc.js'
import { median, ms, percentile, perSecond, ratio } from './lib/stats.js'

const SECRET = `whsec_${randomBytes(24).toString('hex')}`
const CONNECTIONS = 50

export async function benchForwarder({ report, quick }) {
  const runs = quick ? 3 : 5
  const durationMs = quick ? 1500 : 3000
  report.section('3. webhooks listen forwarder', `${CONNECTIONS} connections, ${durationMs / 1000} s per run, median of ${runs} runs, listener vs straight to the app`)
  const configDir = mkdtempSync(join(tmpdir(), 'svc-bench-cfg-'))
  const app = await startChild([join(ROOT, 'bench/lib/app.js')], {}, (line) => line)
  let listener
  try {
    const env = { ...process.env, SVC_CONFIG_DIR: configDir, NO_COLOR: '1' }
    for (const k of ['SVC_API_KEY', 'SVC_BASE_URL', 'SVC_PROFILE', 'SVC_WEBHOOK_SECRET', 'SVC_DEBUG']) delete env[k]
    listener = await startChild([BIN, 'webhooks', 'listen', '--forward', app.ready, '--port', '0', '--no-tui', '--secret', SECRET], env, (line) => JSON.parse(line).listening)
    const request = deliveries()
    // Warm both paths (JIT, connections, the event log's first writes).
    await load({ url: app.ready, connections: CONNECTIONS, durationMs: 500, request })
    await load({ url: listener.ready, connections: CONNECTIONS, durationMs: 500, request })
    const direct = []
    const through = []
    for (let i = 0; i < runs; i++) {
      direct.push(check(await load({ url: app.ready, connections: CONNECTIONS, durationMs, request }), 'direct'))
      through.push(check(await load({ url: listener.ready, connections: CONNECTIONS, durationMs, request }), 'listener'))
    }
    const rate = (rs) => median(rs.map((r) => r.perSecond))
    const pct = (rs, p) => median(rs.map((r) => percentile(r.latencies, p)))
    const directRate = rate(direct)
    const throughRate = rate(through)
    report.row({ name: 'straight to the app (baseline)', value: perSecond(directRate), baseline: `p50 ${ms(pct(direct, 50))}, p99 ${ms(pct(direct, 99))}` })
    report.row({ name: 'through the listener', value: perSecond(throughRate), baseline: `direct ${ratio(throughRate / directRate)}`, target: '≥ 0.80×', ok: throughRate / directRate >= 0.8 })
    const added50 = pct(through, 50) - pct(direct, 50)
    const added99 = pct(through, 99) - pct(direct, 99)
    report.row({ name: 'added latency p50', value: ms(added50), baseline: `listener p50 ${ms(pct(through, 50))}`, target: '≤ 1 ms', ok: added50 <= 1 })
    report.row({ name: 'added latency p99', value: ms(added99), baseline: `listener p99 ${ms(pct(through, 99))}`, target: '≤ 5 ms', ok: added99 <= 5 })
    // Without queueing: one connection, so the difference is the listener's own work per delivery.
    const one = { direct: [], through: [] }
    for (let i = 0; i < runs; i++) {
      one.direct.push(check(await load({ url: app.ready, connections: 1, durationMs: durationMs / 3, request }), 'direct'))
      one.through.push(check(await load({ url: listener.ready, connections: 1, durationMs: durationMs / 3, request }), 'listener'))
    }
    report.row({
      name: 'added latency, 1 connection (p50 / p99)',
      value: ms(pct(one.through, 50) - pct(one.direct, 50)),
      baseline: `p99 +${ms(pct(one.through, 99) - pct(one.direct, 99))}; direct p50 ${ms(pct(one.direct, 50))}`,
    })
  } finally {
    await listener?.stop()
    await app.stop()
    rmSync(configDir, { recursive: true, force: true })
  }
}

/** Every call makes a new signed charge event, as the service would send it. */
function deliveries() {
  const charge = {
    id: '', status: 'paid_pending_settlement', environment: 'test',
    amount: { grossInCents: 1500, feeBps: 199, feeFixedInCents: 50, feeInCents: 80, netInCents: 1420 },
    pix: { qrCode: '00020101021226740014br.gov.bcb.pix2552pix.sandbox.svc.local/qr/v2/0000000000000000000000005204000053039865802BR5916Loja Sandbox SVC6009Sao Paulo62070503***6304ABCD', expiresAt: '2026-11-22T04:30:01.304Z' },
    settlement: { delayHours: 24, paidAt: '2026-11-22T03:31:00.000Z', estimatedAt: '2026-11-23T03:31:00.000Z' },
    payer: { taxNumber: '***.982.247-**' },
    createdAt: '2026-11-22T03:30:01.304Z', updatedAt: '2026-11-22T03:31:00.000Z',
  }
  const prefix = randomBytes(6).toString('hex')
  return (n) => {
    const id = `evt_${prefix}${n.toString(16).padStart(12, '0')}`
    charge.id = `${prefix}${n.toString(16).padStart(12, '0')}`
    const body = JSON.stringify({ id, type: 'charge.paid_pending_settlement', createdAt: new Date().toISOString(), environment: 'test', data: { charge } })
    const ts = Math.floor(Date.now() / 1000)
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'x-svc-event-id': id,
        'x-svc-event-type': 'charge.paid_pending_settlement',
        'x-svc-timestamp': String(ts),
        'x-svc-signature': signatureHeader(SECRET, ts, body),
      },
    }
  }
}

function check(result, what) {
  if (result.errors > 0 || result.statusErrors > 0) throw new Error(`${what}: ${result.errors} failed requests, ${result.statusErrors} non-200 answers`)
  return result
}
