// Webhook deliveries for the forwarder benchmarks and their diagnostics (bench/tools/).
import { randomBytes } from 'node:crypto'
import { signatureHeader } from '../../dist/lib/webhooks/signature.js'

/** Every call makes a new signed charge event, as the service would send it. */
export function signedDeliveries(secret) {
  const charge = {
    id: '',
    status: 'paid_pending_settlement',
    environment: 'test',
    amount: { grossInCents: 1500, feeBps: 199, feeFixedInCents: 50, feeInCents: 80, netInCents: 1420 },
    pix: {
      qrCode: '00020101021226740014br.gov.bcb.pix2552pix.sandbox.svc.local/qr/v2/0000000000000000000000005204000053039865802BR5916Loja Sandbox SVC6009Sao Paulo62070503***6304ABCD',
      expiresAt: '2026-11-22T04:30:01.304Z',
    },
    settlement: { delayHours: 24, paidAt: '2026-11-22T03:31:00.000Z', estimatedAt: '2026-11-23T03:31:00.000Z' },
    payer: { taxNumber: '***.982.247-**' },
    createdAt: '2026-11-22T03:30:01.304Z',
    updatedAt: '2026-11-22T03:31:00.000Z',
  }
  const prefix = randomBytes(6).toString('hex')
  // Our own counter: load() numbers requests from 0 on each run, and an event id seen before is
  // answered as a duplicate without being forwarded, which would measure the wrong path.
  let next = 0
  return () => {
    const n = next++
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
        'x-svc-signature': signatureHeader(secret, ts, body),
      },
    }
  }
}
