// Diagnostic: a CPU profile of `svc webhooks listen --no-tui` under 50-connection load, summed by file
// and by function.  node bench/tools/profile-listener.js [ms]
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signatureHeader } from '../../dist/lib/webhooks/signature.js'
import { startChild } from '../lib/child.js'
import { load } from '../lib/load.js'
import { BIN, ROOT } from '../lib/proc.js'
import { summarise } from '../profile.js'
const SECRET = `whsec_${randomBytes(24).toString('hex')}`
const dir = mkdtempSync(join(tmpdir(), 'prof-'))
const configDir = mkdtempSync(join(tmpdir(), 'cfg-'))
const app = await startChild([join(ROOT, 'bench/lib/app.js')], {})
const env = { SVC_CONFIG_DIR: configDir, NO_COLOR: '1', SVC_NO_BUNDLE: '1' }
const listener = await startChild(['--cpu-prof', '--cpu-prof-dir', dir, BIN, 'webhooks', 'listen', '--forward', app.ready, '--port', '0', '--no-tui', '--secret', SECRET], env, (l) => JSON.parse(l).listening)
const prefix = randomBytes(6).toString('hex')
let next = 0
const request = () => { const n = next++
  const id = `evt_${prefix}${n.toString(16).padStart(12, '0')}`
  const body = JSON.stringify({ id, type: 'charge.paid_pending_settlement', createdAt: new Date().toISOString(), environment: 'test', data: { charge: { id: 'c' + n, status: 'paid_pending_settlement', environment: 'test', amount: { grossInCents: 1500 }, createdAt: '2026-11-22T03:30:01.304Z' } } })
  const ts = Math.floor(Date.now() / 1000)
  return { body, headers: { 'content-type': 'application/json', 'x-svc-event-id': id, 'x-svc-event-type': 'charge.paid_pending_settlement', 'x-svc-timestamp': String(ts), 'x-svc-signature': signatureHeader(SECRET, ts, body) } }
}
const r = await load({ url: listener.ready, connections: 50, durationMs: Number(process.argv[2] ?? 4000), request })
console.log('rate', r.perSecond.toFixed(0), 'errors', r.errors, r.statusErrors)
await listener.stop(); await app.stop()
const f = readdirSync(dir).find((x) => x.endsWith('.cpuprofile'))
const prof = JSON.parse(readFileSync(join(dir, f), 'utf8'))
const rep = summarise(prof, true)
for (const [n, ms] of rep.rows.slice(0, 30)) console.log(ms.toFixed(0).padStart(7), n)
// top self functions
const self = new Map()
const nodes = new Map(prof.nodes.map((n) => [n.id, n]))
prof.samples.forEach((id, i) => { const cf = nodes.get(id).callFrame; const k = `${cf.functionName || '(anon)'} ${cf.url.split('/').slice(-2).join('/')}:${cf.lineNumber}`; self.set(k, (self.get(k) ?? 0) + (prof.timeDeltas[i] ?? 0) / 1000) })
console.log('--- functions')
for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(ms.toFixed(0).padStart(7), k)
