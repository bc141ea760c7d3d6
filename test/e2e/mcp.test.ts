/**
 * `svc mcp` end to end, as an agent runs it: the built binary spawned by the MCP SDK's own
 * Client over stdio, against a running sandbox, with the profiles `svc sandbox start` writes.
 * Every tool is called; a charge goes from creation to settled and its webhook is seen; a live key
 * gets read tools only; an API error, a bad argument and a network failure come back as isError
 * results with the error object; and stdout carries nothing but protocol messages.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'
import { setWebhookUrl } from '../../src/lib/sandbox-client/panel-client.js'
import { BIN, svc } from '../helpers/cli.js'
import { startApp, type TargetApp } from '../helpers/webhooks.js'

let sb: RunningSandbox
let app: TargetApp
let configDir: string
const open: Client[] = []

beforeAll(async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true })
  app = await startApp()
  await setWebhookUrl({ baseUrl: sb.baseUrl, apiKey: sb.testKey, url: `${app.url}/hooks` })
  configDir = mkdtempSync(join(tmpdir(), 'svc-mcp-'))
  const profiles = {
    defaultProfile: 'sandbox',
    profiles: {
      sandbox: { apiKey: sb.testKey, baseUrl: sb.baseUrl, webhookSecret: sb.webhookSecret },
      'sandbox-live': { apiKey: sb.liveKey, baseUrl: sb.baseUrl, webhookSecret: sb.webhookSecret },
    },
  }
  writeFileSync(join(configDir, 'config.json'), JSON.stringify(profiles), { mode: 0o600 })
})

afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})))
  await app?.close()
  await sb?.close()
})

function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('SVC_')) env[k] = v
  return { ...env, SVC_CONFIG_DIR: configDir, ...extra }
}

interface Connected {
  client: Client
  stderr: () => string
  /** Anything the client could not read as a protocol message. */
  errors: Error[]
}

async function connect(args: string[] = [], env: Record<string, string> = {}): Promise<Connected> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], env: childEnv(env), stderr: 'pipe' })
  let stderr = ''
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
  const client = new Client({ name: 'svc-e2e', version: '1.0.0' })
  const errors: Error[] = []
  client.onerror = (e) => errors.push(e)
  await client.connect(transport)
  open.push(client)
  return { client, stderr: () => stderr, errors }
}

type Result = Awaited<ReturnType<Client['callTool']>>

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Result> {
  return client.callTool({ name, arguments: args })
}

function ok<T = Record<string, unknown>>(r: Result): T {
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy()
  return r.structuredContent as T
}

interface ChargeOut {
  charge: { id: string; status: string; pix: { qrCode: string }; amount: { grossInCents: number; netInCents: number }; settlement: { settledAt?: string; blockchainTxId?: string } }
}

describe('svc mcp over stdio, with the SDK client', () => {
  let test: Connected

  beforeAll(async () => {
    test = await connect()
  })

  it('names the environment in its instructions and offers every tool on a sandbox test key', async () => {
    expect(test.client.getInstructions()).toMatch(/TEST environment, on the local sandbox/)
    expect(test.client.getInstructions()).toContain('Sandbox walk-through: set_webhook to your app → create_charge')
    const { tools } = await test.client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'advance_charge',
        'advance_clock',
        'cancel_charge',
        'create_charge',
        'decode_pix',
        'get_account',
        'get_charge',
        'get_clock',
        'get_status',
        'get_withdrawal',
        'list_charges',
        'list_deliveries',
        'list_overdue',
        'resend_delivery',
        'send_test_webhook',
        'set_account',
        'set_webhook',
        'settlement_report',
        'trigger_event',
        'verify_webhook',
      ].sort(),
    )
    const create = tools.find((t) => t.name === 'create_charge')!
    // The input schema is the contract's: the spec's amount limits, the field required.
    expect(create.inputSchema.properties?.amountInCents).toMatchObject({ type: 'integer', minimum: 1000, maximum: 500000 })
    expect(create.inputSchema.required).toEqual(['amountInCents'])
    expect(tools.find((t) => t.name === 'get_charge')!.annotations).toMatchObject({ readOnlyHint: true })
  })

  it('drives a charge from creation to settled, and the webhook is seen and verifies', async () => {
    const { client } = test
    const created = ok<ChargeOut & { created: boolean }>(await call(client, 'create_charge', { amountInCents: 1500, externalId: 'mcp-order-1' }))
    expect(created).toMatchObject({ created: true, charge: { status: 'awaiting_payment', amount: { grossInCents: 1500 } } })
    const id = created.charge.id

    const pix = ok(await call(client, 'decode_pix', { brcode: created.charge.pix.qrCode }))
    expect(pix).toMatchObject({ valid: true, kind: 'dynamic' })

    ok(await call(client, 'advance_charge', { id, status: 'paid_pending_settlement' }))
    const clock = ok<{ now: string }>(await call(client, 'advance_clock', { duration: '25h' }))
    expect(Date.parse(clock.now)).toBeGreaterThan(Date.now() + 24 * 3600_000)

    const got = ok<ChargeOut>(await call(client, 'get_charge', { id }))
    expect(got.charge.status).toBe('settled')
    expect(got.charge.settlement.blockchainTxId).toBeTruthy()

    const settledEvent = await vi.waitFor(
      async () => {
        const log = ok<{ data: Array<{ eventId: string; type: string; state: string }> }>(await call(client, 'list_deliveries', {}))
        const d = log.data.find((x) => x.type === 'charge.settled')
        expect(d?.state).toBe('succeeded')
        return d!
      },
      { timeout: 5000, interval: 50 },
    )
    const one = ok<{ data: unknown[] }>(await call(client, 'list_deliveries', { eventId: settledEvent.eventId }))
    expect(one.data).toHaveLength(1)

    // The delivery the app received, checked as its handler would check it.
    const delivery = app.received.find((r) => r.headers['x-svc-event-id'] === settledEvent.eventId)!
    const headers = Object.fromEntries(
      Object.entries(delivery.headers)
        .filter(([k]) => k.startsWith('x-svc-'))
        .map(([k, v]) => [k.toUpperCase(), String(v)]),
    )
    const body = delivery.body.toString('utf8')
    expect(ok(await call(client, 'verify_webhook', { headers, body, secret: sb.webhookSecret }))).toMatchObject({ valid: true, type: 'charge.settled', eventId: settledEvent.eventId })
    // Without a secret, the profile's; a re-serialised body does not verify.
    const reserialised = JSON.stringify(JSON.parse(body), null, 2)
    expect(ok(await call(client, 'verify_webhook', { headers, body: reserialised }))).toMatchObject({ valid: false, reason: 'signature_mismatch', field: 'X-SVC-Signature' })

    // The same report as `svc report settlements --json` (one use-case): periods in the zone, a total, every charge checked.
    type Report = { tz: string; by: string; periods: Array<{ start: string }>; total: { settled: { count: number; grossInCents: number } }; unbalanced: string[] }
    const report = ok<Report>(await call(client, 'settlement_report', { from: '2d', to: 'now', tz: 'America/Sao_Paulo' }))
    expect(report).toMatchObject({ tz: 'America/Sao_Paulo', by: 'day', unbalanced: [] })
    expect(report.periods.length).toBeGreaterThanOrEqual(2)
    expect(report.total.settled.count).toBeGreaterThanOrEqual(1)
    expect(report.total.settled.grossInCents).toBeGreaterThanOrEqual(1500)
    const badZone = await call(client, 'settlement_report', { from: '2d', to: 'now', tz: 'Mars/Olympus' })
    expect(badZone.isError).toBe(true)
    expect(badZone.structuredContent).toMatchObject({ error: { code: 'invalid_request' } })
    expect(JSON.stringify(badZone.structuredContent)).toContain('Mars/Olympus')
    // issue 36.18/19, through the shared use-case: a range of 3.6 million days, an age past any date.
    for (const args of [
      { from: '0001-01-01', to: '9999-12-30' },
      { from: '999999999d', to: 'now' },
    ]) {
      const refused = await call(client, 'settlement_report', args)
      expect(refused.isError).toBe(true)
      expect(refused.structuredContent).toMatchObject({ error: { code: 'invalid_request' } })
    }
    // A lookback past the service's first date scans from that date: the same report, no crash.
    const deep = ok<Report>(await call(client, 'settlement_report', { from: '2d', to: 'now', tz: 'America/Sao_Paulo', lookback: '999999999d' }))
    expect(deep.total.settled.count).toBe(report.total.settled.count)
  })

  it('lists with a cursor, cancels, reads the account, sends a test webhook and triggers an event', async () => {
    const { client } = test
    for (let i = 0; i < 2; i++) ok(await call(client, 'create_charge', { amountInCents: 2000 + i }))
    const first = ok<{ data: Array<{ id: string }>; hasMore: boolean; nextCursor?: string }>(await call(client, 'list_charges', { status: 'awaiting_payment', limit: 1 }))
    expect(first.data).toHaveLength(1)
    expect(first.hasMore).toBe(true)
    expect(first.nextCursor).toBe(first.data[0]!.id)
    const second = ok<{ data: Array<{ id: string }> }>(await call(client, 'list_charges', { status: 'awaiting_payment', limit: 1, startingAfter: first.nextCursor }))
    expect(second.data[0]!.id).not.toBe(first.data[0]!.id)

    const canceled = ok<ChargeOut>(await call(client, 'cancel_charge', { id: first.data[0]!.id }))
    expect(canceled.charge.status).toBe('canceled')

    const account = ok<{ account: { environment: string; plan: { feeBps: number } } }>(await call(client, 'get_account'))
    expect(account.account.environment).toBe('test')

    const sent = ok<{ eventId: string }>(await call(client, 'send_test_webhook'))
    await vi.waitFor(() => expect(app.received.some((r) => r.headers['x-svc-event-id'] === sent.eventId)).toBe(true), { timeout: 5000, interval: 20 })

    const triggered = ok<{ events: Array<{ type: string }> }>(await call(client, 'trigger_event', { type: 'charge.paid_pending_settlement', overrides: ['amountInCents=2500'] }))
    expect(triggered.events.map((e) => e.type)).toContain('charge.paid_pending_settlement')
  })

  it('answers an API error with isError and the error object, never a success', async () => {
    const r = await call(test.client, 'get_charge', { id: 'f'.repeat(24) })
    expect(r.isError).toBe(true)
    expect(r.structuredContent).toMatchObject({ status: 404, error: { code: 'charge_not_found', requestId: expect.stringMatching(/^req_/) } })
    // A paid charge cannot be canceled: 409 with the API's code.
    const created = ok<ChargeOut>(await call(test.client, 'create_charge', { amountInCents: 1500 }))
    ok(await call(test.client, 'advance_charge', { id: created.charge.id, status: 'settled' }))
    const refused = await call(test.client, 'cancel_charge', { id: created.charge.id })
    expect(refused.isError).toBe(true)
    expect(refused.structuredContent).toMatchObject({ status: 409, error: { code: 'charge_not_cancelable' } })
  })

  it('names each bad argument and sends nothing', async () => {
    const before = ok<{ data: unknown[] }>(await call(test.client, 'list_charges', { limit: 100 })).data.length
    const r = await call(test.client, 'create_charge', { amountInCents: 5, payerTaxNumber: '111.111.111-11', amount: 1500 })
    expect(r.isError).toBe(true)
    const { error } = r.structuredContent as { error: { code: string; details: Array<{ field: string }> } }
    expect(error.code).toBe('invalid_request')
    expect(error.details.map((d) => d.field).sort()).toEqual(['amount', 'amountInCents', 'payerTaxNumber'])
    expect((r.content as Array<{ text: string }>)[0]!.text).toMatch(/amountInCents .*1000/)
    expect(ok<{ data: unknown[] }>(await call(test.client, 'list_charges', { limit: 100 })).data.length).toBe(before)
    const limit = await call(test.client, 'list_charges', { limit: 101 })
    expect(limit.structuredContent).toMatchObject({ error: { details: [{ field: 'limit' }] } })
  })

  it('has written nothing but protocol on stdout, and no key on stderr', () => {
    expect(test.errors).toEqual([])
    expect(test.stderr()).not.toContain(sb.testKey)
  })
})

describe('svc mcp with a live key', () => {
  it('offers only read tools, says so, and refuses a write tool', async () => {
    const { client } = await connect(['--profile', 'sandbox-live'])
    expect(client.getInstructions()).toMatch(/LIVE environment[\s\S]*only read tools.*--allow-live-writes/)
    // No walk-through of tools it does not offer.
    expect(client.getInstructions()).not.toContain('walk-through')
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names.sort()).toEqual(['decode_pix', 'get_account', 'get_charge', 'get_clock', 'get_status', 'get_withdrawal', 'list_charges', 'list_deliveries', 'list_overdue', 'settlement_report', 'verify_webhook'])
    await expect(call(client, 'create_charge', { amountInCents: 1500, payerTaxNumber: '12345678909' })).rejects.toThrow(/create_charge: not offered: .*--allow-live-writes/)
    expect(ok<{ account: { environment: string } }>(await call(client, 'get_account')).account.environment).toBe('live')
  })

  it('offers the write tools with --allow-live-writes (advance stays test-only)', async () => {
    const { client } = await connect(['--allow-live-writes'], { SVC_PROFILE: 'sandbox-live' })
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).toContain('create_charge')
    expect(names).not.toContain('advance_charge')
    const r = ok<ChargeOut>(await call(client, 'create_charge', { amountInCents: 1500, payerTaxNumber: '12345678909' }))
    expect(r.charge.status).toBe('awaiting_payment')
  })
})

describe('svc mcp through oclif', () => {
  it('is served without loading oclif when its flags are the plain ones (an agent waits for initialize)', async () => {
    // A module hook in the child records every bundle file it loads: those Node loads (main.js),
    // and those the bundle's own hook loads (bundle-loader.js), whose load it wraps.
    const dir = mkdtempSync(join(tmpdir(), 'svc-mcp-loads-'))
    const hook = join(dir, 'hook.mjs')
    const log = join(dir, 'loaded.txt')
    writeFileSync(
      hook,
      `import module from 'node:module'; import { appendFileSync } from 'node:fs';
const record = (url) => { if (url.includes('/dist-bundle/')) appendFileSync(${JSON.stringify(log)}, url + '\\n') }
const register = module.registerHooks
module.registerHooks = (hooks) => register({ ...hooks, load: (url, context, next) => { const r = hooks.load(url, context, (u, c) => next(u, c)); if (r.shortCircuit) record(url); return r } })
register({ load(url, context, next) { record(url); return next(url, context) } })
`,
    )
    // oclif is not a module of the bundle but a script (dist-bundle/oclif.cjs, packaging/entries/hot-script.js): a fresh
    // compile cache directory shows whether it ran, by the cache it leaves at exit.
    const compileCache = join(dir, 'compile-cache')
    const { client } = await connect(['--profile', 'sandbox', '--tools', 'get_account'], { NODE_OPTIONS: `--import=${hook}`, NODE_COMPILE_CACHE: compileCache })
    expect(ok<{ account: { environment: string } }>(await call(client, 'get_account')).account.environment).toBe('test')
    await client.close()
    const loaded = readFileSync(log, 'utf8')
    expect(loaded).toContain('/dist-bundle/mcp.js')
    expect(loaded).not.toContain('/dist-bundle/cli.js')
    // The server's exit writes the caches of the scripts it ran: undici's (get_account made a request), not oclif's.
    const cached = () => (existsSync(compileCache) ? readdirSync(compileCache, { recursive: true }).map(String) : [])
    await expect.poll(() => cached().some((f) => f.includes('svc-undici.cjs')), { timeout: 10_000 }).toBe(true)
    expect(cached().filter((f) => f.includes('svc-oclif.cjs'))).toEqual([])
  })

  it('serves the same with the fast path turned off, and --help is the command help', async () => {
    const { client } = await connect([], { SVC_NO_FAST_PATH: '1' })
    expect((await client.listTools()).tools).toHaveLength(20)
    expect(ok<{ account: { environment: string } }>(await call(client, 'get_account')).account.environment).toBe('test')
    const help = await svc(['mcp', '--help'], { env: { SVC_CONFIG_DIR: configDir } })
    expect(help.exitCode).toBe(0)
    expect(help.stdout).toContain('claude mcp add svc')
  })
})

describe('svc mcp --tools', () => {
  it('narrows the set', async () => {
    const { client } = await connect(['--tools', 'get_charge,decode_pix'])
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['get_charge', 'decode_pix'])
  })

  it('exits 2 on an unknown name, listing the known ones, with nothing on stdout', async () => {
    const r = await svc(['mcp', '--tools', 'get_charge,get_charges'], { env: { SVC_CONFIG_DIR: configDir } })
    expect(r.exitCode).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/get_charges[\s\S]*Known tools: create_charge, get_charge, list_charges/)
  })
})

describe('svc mcp stdout', () => {
  it('carries only JSON-RPC messages, with SVC_DEBUG=1 and a network failure; logs go to stderr, keys masked', async () => {
    // A base URL where nothing listens: the failure is a network one, said so.
    const child = spawn(process.execPath, [BIN, 'mcp', '--base-url', 'http://127.0.0.1:9'], {
      env: childEnv({ SVC_DEBUG: '1', SVC_API_KEY: sb.testKey }),
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c))
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
    const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`)
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })
    send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' })
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_account', arguments: {} } })
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'create_charge', arguments: { amountInCents: 1500 } } })
    await vi.waitFor(() => expect(stdout).toContain('"id":4'), { timeout: 15_000, interval: 50 })
    child.stdin.end()
    const [code] = (await once(child, 'close')) as [number]
    expect(code).toBe(0)
    const messages = stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { jsonrpc: string; id?: number; result?: { isError?: boolean; structuredContent?: { error: { code: string } }; content?: Array<{ text: string }> } })
    expect(messages.every((m) => m.jsonrpc === '2.0')).toBe(true)
    // Calls run side by side: their answers may come in any order (JSON-RPC pairs them by id).
    messages.sort((a, b) => (a.id ?? 0) - (b.id ?? 0))
    expect(messages.map((m) => m.id)).toEqual([1, 2, 3, 4])
    // The way to get the same charge again is the tool's own argument, not the CLI's flag.
    const retry = messages[3]!.result!.content![0]!.text
    expect(retry).toMatch(/call create_charge again with idempotencyKey "[^"]+"/)
    expect(retry).not.toContain('--idempotency-key')
    expect(retry).not.toContain('..')
    const failed = messages[2]!.result!
    expect(failed.isError).toBe(true)
    expect(failed.structuredContent!.error.code).toBe('network_error')
    expect(failed.content![0]!.text).toMatch(/^Network failure: Could not connect to 127\.0\.0\.1:9/)
    expect(stderr).toContain('→ GET /v1/account')
    expect(stderr).toContain('svc mcp: serving')
    expect(stdout + stderr).not.toContain(sb.testKey)
  })

  it('refuses an 11 MB message with an error and answers every later call', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp'], { env: childEnv({ SVC_API_KEY: sb.testKey, SVC_BASE_URL: sb.baseUrl }), stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c))
    const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`)
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'big', version: '1' } } })
    send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    send({ method: 'tools/call', params: { name: 'decode_pix', arguments: { brcode: 'x'.repeat(11_000_000) } }, jsonrpc: '2.0', id: 2 })
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_account', arguments: {} } })
    await vi.waitFor(() => expect(stdout).toContain('"id":3'), { timeout: 15_000, interval: 50 })
    child.stdin.end()
    const [code] = (await once(child, 'close')) as [number]
    expect(code).toBe(0)
    const answers = stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: number; error?: { code: number; message: string }; result?: { isError?: boolean } })
    expect(answers.find((a) => a.id === 2)?.error).toMatchObject({ code: -32600, message: expect.stringMatching(/at most 1 MiB/) })
    expect(answers.find((a) => a.id === 3)?.result?.isError).toBeFalsy()
  })

  it('answers the calls still running when the client closes stdin, then exits 0 (a piped session)', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp'], { env: childEnv({ SVC_API_KEY: sb.testKey, SVC_BASE_URL: sb.baseUrl }), stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c))
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_charge', arguments: { amountInCents: 1500 } } },
    ]
    // Everything at once, and stdin closed at once: `printf … | svc mcp`.
    child.stdin.end(lines.map((l) => `${JSON.stringify(l)}\n`).join(''))
    const [code] = (await once(child, 'close')) as [number]
    expect(code).toBe(0)
    const answers = stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: number; result: { isError?: boolean; structuredContent?: { charge?: { id: string } } } })
    expect(answers.map((a) => a.id)).toEqual([1, 2])
    expect(answers[1]!.result.isError).toBeFalsy()
    expect(answers[1]!.result.structuredContent?.charge?.id).toMatch(/^[0-9a-f]{24}$/)
  })
})
