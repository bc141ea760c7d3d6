#!/usr/bin/env node
// The main job on the embedded sandbox, end to end, with the real binary:
// sandbox → a small app → `svc webhooks listen --forward` → create (QR) → advance → settled.
// Uses a throwaway config dir, so it never touches your own profiles.
import { createServer } from 'node:http'
import { demoKit } from './demo-kit.js'

const { bold, step, background, run, waitFor, main } = demoKit('svc-demo-')

async function story() {
  step('Start the local sandbox (in memory, any free port)')
  const sandbox = background(['sandbox', 'start', '--in-memory', '--port', '0', '--json'], { quiet: true })
  const banner = await sandbox.first()
  console.log(`sandbox at ${banner.baseUrl} — profile "sandbox" written to a throwaway config dir`)

  step('Start a tiny merchant app that receives webhooks')
  const received = []
  const app = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const event = JSON.parse(body)
      received.push(event)
      console.log(`  app ← ${event.type.padEnd(32)} ${event.id}  status=${event.data?.charge?.status ?? '-'}`)
      res.writeHead(200).end('ok')
    })
  })
  await new Promise((r) => app.listen(0, '127.0.0.1', r))
  const appPort = app.address().port
  console.log(`app listening on 127.0.0.1:${appPort}`)

  step('Forward signed deliveries to the app: svc webhooks listen --forward')
  const listener = background(['webhooks', 'listen', '--forward', `localhost:${appPort}/webhooks`, '--port', '0', '--no-tui'])
  const ready = await listener.first()
  console.log(`listener ${ready.listening} → ${ready.forward} (registered as the sandbox's webhook URL)`)

  step('Create a charge of R$ 15,00 (the QR is drawn on a terminal)')
  run(['charges', 'create', '--amount', '1500', '--payer-tax-number', '529.982.247-25', '--external-id', 'demo-order-1', '--description', 'Demo order'])
  const id = run(['charges', 'list', '-q', '--external-id', 'demo-order-1'], { capture: true })

  step('The payer pays: advance to paid_pending_settlement')
  run(['test', 'advance', id, '--status', 'paid_pending_settlement'])

  step('The anti-fraud hold elapses: advance to settled')
  run(['test', 'advance', id, '--status', 'settled'])

  const wanted = ['charge.awaiting_payment', 'charge.paid_pending_settlement', 'charge.settled']
  await waitFor(() => wanted.every((t) => received.some((e) => e.type === t && e.data?.charge?.id === id)))

  step('Confirm with the API (the authority) before releasing goods')
  run(['charges', 'get', id])

  const got = received.filter((e) => e.data?.charge?.id === id).map((e) => e.type)
  const ok = wanted.every((t) => got.includes(t))
  console.log(`\n${bold(ok ? '✓ settled: the app received every event, verified and forwarded once' : '✗ the app did not receive every event')}: ${got.join(' → ')}`)
  app.close()
  return ok ? 0 : 1
}

await main(story)
