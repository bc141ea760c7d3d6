// Diagnostic: CPU µs per delivery of the listener's own pipeline (verify, summarize, dedupe, record,
// commit, NDJSON line) without HTTP, in-process, forwarder stubbed.  node bench/tools/listener-pipeline.js [--lines]
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signatureHeader } from '../../dist/lib/webhooks/signature.js'
import { EventStore } from '../../dist/lib/webhooks/event-store.js'
import { WebhookListener } from '../../dist/lib/webhooks/listener.js'
import { deliveryLine } from '../../dist/lib/webhooks/ndjson.js'
const SECRET = `whsec_${randomBytes(24).toString('hex')}`
const store = await EventStore.open({ path: join(mkdtempSync(join(tmpdir(), 'm-')), 'events.db') })
const forwarder = { send: async () => ({ ok: true, status: 200, latencyMs: 0, responseSnippet: '{"received":true}' }), close: async () => {} }
const listener = new WebhookListener({ forward: new URL('http://127.0.0.1:1/webhooks'), secrets: [SECRET], store, forwarder })
let lines = 0
if (process.argv.includes('--lines')) listener.on('delivery', (d) => { lines += JSON.stringify(deliveryLine(d)).length })
const prefix = randomBytes(6).toString('hex')
let next = 0
const make = () => {
  const n = next++
  const id = `evt_${prefix}${n.toString(16).padStart(12, '0')}`
  const body = Buffer.from(JSON.stringify({ id, type: 'charge.paid_pending_settlement', createdAt: new Date().toISOString(), environment: 'test', data: { charge: { id: 'c' + n, status: 'paid_pending_settlement', environment: 'test', amount: { grossInCents: 1500, feeBps: 199, feeFixedInCents: 50, feeInCents: 80, netInCents: 1420 }, pix: { qrCode: '00020101021226740014br.gov.bcb.pix2552pix.sandbox.svc.local/qr/v2/0000000000000000000000005204000053039865802BR5916Loja Sandbox SVC6009Sao Paulo62070503***6304ABCD', expiresAt: '2026-11-22T04:30:01.304Z' }, settlement: { delayHours: 24, paidAt: '2026-11-22T03:31:00.000Z', estimatedAt: '2026-11-23T03:31:00.000Z' }, payer: { taxNumber: '***.982.247-**' }, createdAt: '2026-11-22T03:30:01.304Z', updatedAt: '2026-11-22T03:31:00.000Z' } } }))
  const ts = Math.floor(Date.now() / 1000)
  return { method: 'POST', body, headers: { host: '127.0.0.1:4242', connection: 'keep-alive', 'content-length': String(body.length), 'content-type': 'application/json', 'x-svc-event-id': id, 'x-svc-event-type': 'charge.paid_pending_settlement', 'x-svc-timestamp': String(ts), 'x-svc-signature': signatureHeader(SECRET, ts, body) } }
}
const BATCH = 15
async function round(n) {
  const ds = Array.from({ length: n }, make)
  const c0 = process.cpuUsage()
  for (let i = 0; i < n; i += BATCH) await Promise.all(ds.slice(i, i + BATCH).map((d) => listener.handle(d)))
  const c = process.cpuUsage(c0)
  return (c.user + c.system) / n
}
for (let r = 0; r < 6; r++) console.log('µs/delivery', (await round(20000)).toFixed(1))
