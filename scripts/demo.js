#!/usr/bin/env node
// The main job on the embedded sandbox, end to end, with the real binary:
// sandbox → a small app → `svc webhooks listen --forward` → create (QR) → advance → settled.
// Uses a throwaway config dir, so it never touches your own profiles.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
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
const configDir = mkdtempSync(join(tmpdir(), 'svc-demo-'))
const env = { ...process.env, SVC_CONFIG_DIR: configDir }
delete env.SVC_API_KEY
delete env.SVC_BASE_URL
delete env.SVC_PROFILE
const tty = process.stdout.isTTY
const bold = (s) => (tty ? `\u001B[1m${s}\u001B[22m` : s)
const step = (s) => console.log(`\n${bold(`▶ ${s}`)}`)
const children = []

function background(args, { quiet = false } = {}) {
  // The sandbox logs every request on stderr; the demo keeps it quiet so the story stays readable
  // (and shows it only if the command ends before its first line).
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'] })
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

function run(args, { capture = false } = {}) {
  // Quoted as a shell needs it, so the echoed line can be pasted.
  console.log(`$ svc ${shellLine(args)}`)
  const r = spawnSync(process.execPath, [BIN, ...args], { env, stdio: capture ? ['ignore', 'pipe', 'inherit'] : 'inherit', encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`svc ${shellLine(args)} exited ${r.status}`)
  if (!capture) return ''
  // What the echoed command printed, as a terminal would show it.
  const out = r.stdout.trim()
  console.log(out)
  return out
}

async function main() {
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
  const deadline = Date.now() + 15_000
  while (wanted.some((t) => !received.some((e) => e.type === t && e.data?.charge?.id === id)) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100))
  }

  step('Confirm with the API (the authority) before releasing goods')
  run(['charges', 'get', id])

  const got = received.filter((e) => e.data?.charge?.id === id).map((e) => e.type)
  const ok = wanted.every((t) => got.includes(t))
  console.log(`\n${bold(ok ? '✓ settled: the app received every event, verified and forwarded once' : '✗ the app did not receive every event')}: ${got.join(' → ')}`)
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
