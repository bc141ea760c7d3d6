#!/usr/bin/env node
// The real service's webhooks on a laptop, played on loopback with the real binary:
// sandbox (the service) → `svc relay serve` → `svc webhooks listen --relay` → a small app that
// checks signatures with the 300 s rule. Throwaway config and data dirs: your profiles are untouched.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'
import { join } from 'node:path'
import { shellLine } from './shell-quote.js'
import { demoKit } from './demo-kit.js'

const { configDir, bold, step, background, run, waitFor, main } = demoKit('svc-demo-relay-')
const relayData = join(configDir, 'relay-data')

async function story() {
  step('Start the local sandbox: here it plays the real service (in memory, any free port)')
  const sandbox = background(['sandbox', 'start', '--in-memory', '--port', '0', '--json'], { quiet: true })
  const banner = await sandbox.first()
  console.log(`sandbox at ${banner.baseUrl}`)
  const secret = banner.webhookSecret

  step('Start the relay: on a real host it is the URL you save in the panel')
  const relay = background(['relay', 'serve', '--port', '0', '--data', relayData], { quiet: true })
  const relayUrl = (await relay.first()).listening
  console.log(`relay at ${relayUrl}`)

  step("A channel holding the environment's webhook secret, and its URL saved as the service's webhook URL")
  const channel = JSON.parse(run(['relay', 'channel', 'add', 'staging', '--data', relayData, '--public-url', relayUrl, '--json'], { capture: true, extraEnv: { SVC_WEBHOOK_SECRET: secret } }))
  run(['sandbox', 'webhook', 'set', channel.url])

  step('A token for this laptop (shown once; the relay keeps only its hash)')
  const created = JSON.parse(run(['relay', 'token', 'create', 'dev-laptop', '--channel', 'staging', '--data', relayData, '--json'], { capture: true, quiet: true }))
  console.log(`token ${created.name} for channel ${created.channel}: ${created.token.slice(0, 9)}…${created.token.slice(-4)}`)

  step('A tiny merchant app that checks every signature with the 300 s rule')
  const received = []
  const app = createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks)
      const ts = req.headers['x-svc-timestamp']
      const sig = String(req.headers['x-svc-signature'] ?? '')
      const expected = createHmac('sha256', secret).update(`${ts}.`).update(raw).digest()
      const given = Buffer.from(sig.slice(3), 'hex')
      const ok = Math.abs(Date.now() / 1000 - Number(ts)) <= 300 && given.length === expected.length && timingSafeEqual(given, expected)
      if (!ok) {
        console.log('  app ✗ refused a delivery (bad signature or stale timestamp)')
        return res.writeHead(401).end('refused')
      }
      const event = JSON.parse(raw.toString('utf8'))
      received.push(event)
      console.log(`  app ← ${event.type.padEnd(32)} ${event.id}  verified, status=${event.data?.charge?.status ?? '-'}`)
      res.writeHead(200).end('ok')
    })
  })
  await new Promise((r) => app.listen(0, '127.0.0.1', r))
  const appPort = app.address().port
  console.log(`app listening on 127.0.0.1:${appPort}`)

  step('Receive through the relay: svc webhooks listen --relay (no local server, nothing to expose)')
  const args = ['webhooks', 'listen', '--relay', relayUrl, '--forward', `localhost:${appPort}/webhooks`, '--no-tui']
  console.log(`$ SVC_RELAY_TOKEN=$TOKEN svc ${shellLine(args)}`)
  const listener = background(args, { extraEnv: { SVC_RELAY_TOKEN: created.token } })
  const ready = await listener.first()
  console.log(`listener ready: relay ${ready.relay} as token ${ready.token} → ${ready.forward}`)

  step('Create a charge of R$ 15,00, pay it, let it settle')
  run(['charges', 'create', '--amount', '1500', '--payer-tax-number', '529.982.247-25', '--external-id', 'relay-demo-1', '--description', 'Relay demo order', '-q'])
  const id = run(['charges', 'list', '-q', '--external-id', 'relay-demo-1'], { capture: true })
  run(['test', 'advance', id, '--status', 'paid_pending_settlement', '-q'])
  run(['test', 'advance', id, '--status', 'settled', '-q'])

  const wanted = ['charge.awaiting_payment', 'charge.paid_pending_settlement', 'charge.settled']
  await waitFor(() => wanted.every((t) => received.some((e) => e.type === t && e.data?.charge?.id === id)))

  step('What the relay holds: nothing waits for the laptop any more')
  run(['relay', 'status', '--data', relayData])

  const got = received.filter((e) => e.data?.charge?.id === id).map((e) => e.type)
  const ok = wanted.every((t) => got.includes(t))
  console.log(`\n${bold(ok ? '✓ service → relay → listener → app: every event arrived, verified by the relay, the listener and the app' : '✗ the app did not receive every event')}: ${got.join(' → ')}`)
  app.close()
  return ok ? 0 : 1
}

await main(story)
