// Diagnostic, not a target: CPU time per delivery (µs, from /proc/<pid>/stat) of the listener and of
// the two plain reverse proxies of bench/forwarder.js under the same 50-connection load, round after
// round. Less noisy than throughput on a shared 2-core machine.  node bench/tools/forwarder-cpu.js [rounds]
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signatureHeader } from '../../dist/lib/webhooks/signature.js'
import { startChild } from '../lib/child.js'
import { load } from '../lib/load.js'
import { BIN, ROOT } from '../lib/proc.js'
const SECRET = `whsec_${randomBytes(24).toString('hex')}`
const configDir = mkdtempSync(join(tmpdir(), 'cfg-'))
const app = await startChild([join(ROOT, 'bench/lib/app.js')], {})
const env = { SVC_CONFIG_DIR: configDir, NO_COLOR: '1' }
const listener = await startChild([BIN, 'webhooks', 'listen', '--forward', app.ready, '--port', '0', '--no-tui', '--secret', SECRET], env, (l) => JSON.parse(l).listening)
const ph = await startChild([join(ROOT, 'bench/lib/proxy.js'), 'http', app.ready], {})
const pu = await startChild([join(ROOT, 'bench/lib/proxy.js'), 'undici', app.ready], {})
const prefix = randomBytes(6).toString('hex')
let next = 0
const request = () => { const n = next++
  const id = `evt_${prefix}${n.toString(16).padStart(12, '0')}`
  const body = JSON.stringify({ id, type: 'charge.paid_pending_settlement', createdAt: new Date().toISOString(), environment: 'test', data: { charge: { id: 'c' + n, status: 'paid_pending_settlement', environment: 'test', amount: { grossInCents: 1500, feeBps: 199, feeFixedInCents: 50, feeInCents: 80, netInCents: 1420 }, pix: { qrCode: '00020101021226740014br.gov.bcb.pix2552pix.sandbox.svc.local/qr/v2/0000000000000000000000005204000053039865802BR5916Loja Sandbox SVC6009Sao Paulo62070503***6304ABCD', expiresAt: '2026-11-22T04:30:01.304Z' }, settlement: { delayHours: 24, paidAt: '2026-11-22T03:31:00.000Z', estimatedAt: '2026-11-23T03:31:00.000Z' }, payer: { taxNumber: '***.982.247-**' }, createdAt: '2026-11-22T03:30:01.304Z', updatedAt: '2026-11-22T03:31:00.000Z' } } })
  const ts = Math.floor(Date.now() / 1000)
  return { body, headers: { 'content-type': 'application/json', 'x-svc-event-id': id, 'x-svc-event-type': 'charge.paid_pending_settlement', 'x-svc-timestamp': String(ts), 'x-svc-signature': signatureHeader(SECRET, ts, body) } }
}
const cpu = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10 }
const targets = { listener, ph, pu }
for (const t of Object.values(targets)) await load({ url: t.ready, connections: 50, durationMs: 800, request })
for (let round = 0; round < Number(process.argv[2] ?? 2); round++)
for (const [name, t] of Object.entries(targets)) {
  const c0 = cpu(t.pid), a0 = cpu(app.pid)
  const r = await load({ url: t.ready, connections: 50, durationMs: 2500, request })
  const c1 = cpu(t.pid), a1 = cpu(app.pid)
  console.log(name.padEnd(9), r.perSecond.toFixed(0).padStart(6), '/s', ((c1 - c0) * 1000 / r.requests).toFixed(1).padStart(6), 'µs cpu/req', ' app', ((a1 - a0) * 1000 / r.requests).toFixed(1), 'µs')
}
for (const t of [listener, ph, pu, app]) await t.stop()
