#!/usr/bin/env node
// The real service's webhooks on a laptop, played on loopback with the real binary:
// sandbox (the service) → `svc relay serve` → `svc webhooks listen --relay` → a small app that
// checks signatures with the 300 s rule. Throwaway config and data dirs: your profiles are untouched.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { shellLine } from './shell-quote.js'

// The demo runs svc on this very Node: on one older than package.json's engines, say so at once
// (each svc it started would refuse with one line, which the demo keeps quiet).
const MIN_NODE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node.replace(/^>=\s*/, '')
const [needMajor, needMinor] = MIN_NODE.split('.').map(Number)
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < needMajor || (major === needMajor && minor < needMinor)) {
  process.stderr.write(
    `The demo needs Node.js ${MIN_NODE} or newer; this is ${process.version}. Run \`npm run demo\`, which uses the Node 24 this clone pins, or install a current Node.js (https://nodejs.org, e.g. \`nvm install 24\`).\n`,
  )
  process.exit(1)
}

const BIN = new URL('../bin/run.js', import.meta.url).pathname
const configDir = mkdtempSync(join(tmpdir(), 'svc-demo-relay-'))
const relayData = join(configDir, 'relay-data')
const env = { ...process.env, SVC_CONFIG_DIR: configDir }
delete env.SVC_API_KEY
delete env.SVC_BASE_URL
delete env.SVC_PROFILE
const tty = process.stdout.isTTY
const bold = (s) => (tty ? `\u001B[1m${s}\u001B[22m` : s)
const step = (s) => console.log(`\n${bold(`▶ ${s}`)}`)
const children = []

function background(args, { quiet = false, extraEnv = {} } = {}) {
  // The sandbox logs every request on stderr; the demo keeps it quiet so the story stays readable
  // (and shows it only if the command ends before its first line).
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'] })
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (c) => (stderr += c))
  children.push(child)
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  /** The command's first line of JSON (its banner); an error naming the command if it ends first. */
  const first = async () => {
    const { value } = await lines.next()
    if (value !== undefined) return JSON.parse(value)
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', r)))
    throw new Error(`svc ${shellLine(args)} exited ${child.exitCode ?? child.signalCode} before it was ready${stderr.trim() ? `:\n${stderr.trim()}` : ''}`)
  }
  return { child, first }
}

function run(args, { capture = false, quiet = false, extraEnv = {} } = {}) {
  // Quoted as a shell needs it, so the echoed line can be pasted.
  console.log(
    `$ ${Object.keys(extraEnv)
      .map((k) => `${k}=$${k} `)
      .join('')}svc ${shellLine(args)}`,
  )
  const r = spawnSync(process.execPath, [BIN, ...args], { env: { ...env, ...extraEnv }, stdio: capture ? ['ignore', 'pipe', 'inherit'] : 'inherit', encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`svc ${shellLine(args)} exited ${r.status}`)
  if (!capture) return ''
  // What the echoed command printed, as a terminal would show it (unless it holds a secret).
  const out = r.stdout.trim()
  if (!quiet) console.log(out)
  return out
}

async function main() {
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
  const deadline = Date.now() + 15_000
  while (wanted.some((t) => !received.some((e) => e.type === t && e.data?.charge?.id === id)) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100))
  }

  step('What the relay holds: nothing waits for the laptop any more')
  run(['relay', 'status', '--data', relayData])

  const got = received.filter((e) => e.data?.charge?.id === id).map((e) => e.type)
  const ok = wanted.every((t) => got.includes(t))
  console.log(`\n${bold(ok ? '✓ service → relay → listener → app: every event arrived, verified by the relay, the listener and the app' : '✗ the app did not receive every event')}: ${got.join(' → ')}`)
  app.close()
  return ok ? 0 : 1
}

let code = 1
try {
  code = await main()
} catch (error) {
  console.error(`demo failed: ${error.message}`)
} finally {
  // The listener first (it gives the sandbox its webhook URLs back as it stops), then the sandbox.
  for (const c of [...children].reverse()) {
    if (c.exitCode !== null) continue
    const exited = new Promise((r) => c.once('exit', r))
    c.kill('SIGTERM')
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))])
  }
  rmSync(configDir, { recursive: true, force: true })
}
process.exit(code)
