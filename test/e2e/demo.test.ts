/**
 * `npm run demo` (scripts/demo.js) as a new user runs it: every command it echoes shows what that
 * command printed (the charge id of `svc charges list -q`, not an empty line), the story ends
 * settled; on a Node older than package.json's engines it says which Node it needs, at once.
 */
import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MIN_NODE } from '../../src/public/node-guard.js'
import { ROOT } from '../helpers/run-command.js'
import { needs } from '../helpers/system-tools.js'

const DEMO = join(ROOT, 'scripts/demo.js')

describe('the demo', () => {
  it('shows the id `svc charges list -q` printed under its echoed line, and ends settled', async () => {
    // Asynchronous: the demo's children take a few seconds, and a synchronous spawn would block the worker.
    const child = spawn(process.execPath, [DEMO], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME } })
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (c) => (out += c))
    child.stderr.setEncoding('utf8').on('data', (c) => (out += c))
    const code = await new Promise((r) => child.on('exit', r))
    expect(code, out).toBe(0)
    const lines = out.split('\n')
    const echoed = lines.findIndex((l) => l.startsWith('$ svc charges list -q'))
    expect(echoed, out).toBeGreaterThanOrEqual(0)
    expect(lines[echoed + 1]).toMatch(/^[0-9a-f]{24}$/)
    expect(out).toContain(`$ svc test advance ${lines[echoed + 1]} --status settled`)
    expect(out).toContain('✓ settled')
  }, 60_000)

  it('npm run demo:relay: service → relay → listen --relay → app, every event verified by the app, the token never printed whole', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts/demo-relay.js')], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME } })
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (c) => (out += c))
    child.stderr.setEncoding('utf8').on('data', (c) => (out += c))
    const code = await new Promise((r) => child.on('exit', r))
    expect(code, out).toBe(0)
    expect(out).toContain('$ SVC_RELAY_TOKEN=$TOKEN svc webhooks listen --relay http://127.0.0.1:')
    for (const type of ['charge.awaiting_payment', 'charge.paid_pending_settlement', 'charge.settled']) expect(out).toMatch(new RegExp(`app ← ${type.replace(/\./g, '\\.')} +evt_\\w+ +verified`))
    expect(out).not.toMatch(/svcrelay_[A-Za-z0-9_-]{20,}/)
    expect(out).toContain('✓ service → relay → listener → app')
  }, 60_000)

  it("on the machine's old Node, says it needs Node.js MIN_NODE and how to run it, exit 1, nothing started", (ctx) => {
    const node = needs(ctx, 'old-node')
    const r = spawnSync(node, [DEMO], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH } })
    expect(r.status).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(new RegExp(`^The demo needs Node\\.js ${MIN_NODE.replace('.', '\\.')} or newer; this is v\\d+`))
    expect(r.stderr).toContain('`npm run demo`')
    expect(r.stderr).not.toContain('is not valid JSON')
  })
})
