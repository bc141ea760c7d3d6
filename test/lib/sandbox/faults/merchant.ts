/**
 * Two merchant webhook handlers over real HTTP, for the webhook-faults tests: a careful one that
 * verifies the signature, deduplicates by event id and confirms every event with
 * `GET /v1/charges/{id}` before releasing goods (spec 6.4 items 1 and 10), and a naive one that
 * releases goods on every `charge.settled` delivery it gets.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { verifySignature } from '../../../../src/lib/webhooks/signature.js'

export interface Merchant {
  url: string
  /** Every delivery as it arrived: event id and type, in order. */
  arrivals: Array<{ id: string; type: string; signature: string; timestamp: string }>
  /** Goods released per charge: the careful handler releases once, the naive one on every settled delivery. */
  released: Map<string, number>
  /** The status the careful handler last confirmed with GET, per charge. */
  confirmed: Map<string, string>
  /** The careful handler's reconciliation: GETs every order it knows and has not seen final. */
  reconcile(chargeIds: string[]): Promise<void>
  close(): Promise<void>
}

export async function startMerchant(opts: { baseUrl: string; apiKey: string; secret: string; careful: boolean }): Promise<Merchant> {
  const seen = new Set<string>()
  const m = { arrivals: [], released: new Map(), confirmed: new Map() } as unknown as Merchant
  const confirm = async (chargeId: string): Promise<void> => {
    const res = await fetch(`${opts.baseUrl}/v1/charges/${chargeId}`, { headers: { authorization: `Bearer ${opts.apiKey}` } })
    const charge = (await res.json()) as { status: string }
    m.confirmed.set(chargeId, charge.status)
    if (charge.status === 'settled' && !m.released.has(chargeId)) m.released.set(chargeId, 1)
  }
  m.reconcile = async (ids) => {
    for (const id of ids) await confirm(id)
  }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks)
        const verdict = verifySignature({ body, signature: req.headers['x-svc-signature'], timestamp: req.headers['x-svc-timestamp'], secrets: [opts.secret] })
        if (!verdict.ok) throw new Error(verdict.message)
        const event = JSON.parse(body.toString('utf8')) as { id: string; type: string; data: { charge?: { id: string } } }
        m.arrivals.push({ id: event.id, type: event.type, signature: String(req.headers['x-svc-signature']), timestamp: String(req.headers['x-svc-timestamp']) })
        const chargeId = event.data.charge?.id
        if (opts.careful) {
          if (!seen.has(event.id) && chargeId) {
            seen.add(event.id)
            await confirm(chargeId)
          }
        } else if (event.type === 'charge.settled' && chargeId) {
          m.released.set(chargeId, (m.released.get(chargeId) ?? 0) + 1)
        }
        res.writeHead(200).end('ok')
      })().catch((err: unknown) => res.writeHead(400).end(String(err)))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  m.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
  m.close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return m
}

export async function createCharge(baseUrl: string, apiKey: string, externalId: string): Promise<string> {
  const res = await fetch(`${baseUrl}/v1/charges`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amountInCents: 1500, payerTaxNumber: '529.982.247-25', externalId }),
  })
  if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { id: string }).id
}
