// Diagnostic: CPU µs per delivery of the listener's own pipeline (verify, summarize, dedupe, record,
// commit, NDJSON line) without HTTP, in-process, forwarder stubbed.  node bench/tools/listener-pipeline.js [--lines]
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EventStore } from '../../dist/lib/webhooks/event-store.js'
import { WebhookListener } from '../../dist/lib/webhooks/listener.js'
import { deliveryLine } from '../../dist/lib/webhooks/ndjson.js'
import { signedDeliveries } from '../lib/deliveries.js'
const SECRET = `whsec_${randomBytes(24).toString('hex')}`
const store = await EventStore.open({ path: join(mkdtempSync(join(tmpdir(), 'm-')), 'events.db') })
const forwarder = { send: async () => ({ ok: true, status: 200, latencyMs: 0, responseSnippet: '{"received":true}' }), close: async () => {} }
const listener = new WebhookListener({ targets: [{ pattern: null, url: new URL('http://127.0.0.1:1/webhooks') }], secrets: [SECRET], store, forwarder })
// biome-ignore lint/correctness/noUnusedVariables: written, never read: --lines makes the pipeline serialise each line
let lines = 0
if (process.argv.includes('--lines'))
  listener.on('delivery', (d) => {
    lines += JSON.stringify(deliveryLine(d)).length
  })
const signed = signedDeliveries(SECRET)
/** A delivery as node:http hands it to the listener. */
const make = () => {
  const { body, headers } = signed()
  return { method: 'POST', body: Buffer.from(body), headers: { host: '127.0.0.1:4242', connection: 'keep-alive', 'content-length': String(Buffer.byteLength(body)), ...headers } }
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
// The store holds a checkpoint worker and its database open: closed, the process ends on its own.
await store.close()
