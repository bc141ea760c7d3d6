/**
 * The single executable (dist-bin/svc, `npm run build:binary`; npm test builds it before the
 * tests) as a user runs it: no Node.js, no package directory, only the file. It answers
 * --version and the root help as the npm package does, reads a charge from a sandbox, runs the
 * sandbox itself and the webhook listener.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'
import { chargeEvent, post, SECRET, signedHeaders, startApp, type TargetApp } from '../helpers/webhooks.js'
import { ROOT } from '../helpers/run-command.js'

const BINARY = join(ROOT, 'dist-bin', process.platform === 'win32' ? 'svc.exe' : 'svc')
/** The Node binary the executable was made from (the pinned one), to run the npm entry alike. */
const PINNED_NODE = realpathSync(join(ROOT, 'node_modules/node/bin/node'))

interface Result {
  stdout: string
  stderr: string
  exitCode: number | null
}

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, CI: 'true', ...extra }
  for (const k of ['NO_COLOR', 'FORCE_COLOR', 'SVC_API_KEY', 'SVC_BASE_URL', 'SVC_PROFILE', 'SVC_DEBUG', 'NODE_OPTIONS']) if (!(k in extra)) delete e[k]
  return e
}

async function run(cmd: string, args: string[], extra: Record<string, string> = {}): Promise<Result> {
  const child = spawn(cmd, args, { env: env(extra), stdio: ['ignore', 'pipe', 'pipe'], cwd: tmpdir() })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c))
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
  const [exitCode] = (await once(child, 'close')) as [number | null]
  clearTimeout(timer)
  return { stdout, stderr, exitCode }
}

const svc = (args: string[], extra?: Record<string, string>) => run(BINARY, args, extra)
const npmSvc = (args: string[], extra?: Record<string, string>) => run(PINNED_NODE, [join(ROOT, 'bin/run.js'), ...args], extra)

/** A long-running command of the binary, once it printed its first (JSON) line. */
async function background(args: string[], extra: Record<string, string>): Promise<{ child: ChildProcess; first: Record<string, unknown>; stderr: () => string }> {
  const child = spawn(BINARY, args, { env: env(extra), stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
  const next = await lines.next()
  clearTimeout(timer)
  if (next.done) throw new Error(`svc ${args.join(' ')} exited before it was ready:\n${stderr}`)
  void (async () => {
    for await (const _ of lines); // drain
  })()
  return { child, first: JSON.parse(next.value) as Record<string, unknown>, stderr: () => stderr }
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode
  child.kill('SIGTERM')
  const [code] = (await once(child, 'close')) as [number | null]
  return code
}

let sandbox: RunningSandbox
let configDir: string

beforeAll(async () => {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run \`npm run build:binary\` (npm test builds it when its sources changed)`)
  sandbox = await startSandboxServer({ port: 0, inMemory: true })
  configDir = mkdtempSync(join(tmpdir(), 'svc-binary-'))
})

afterAll(async () => {
  await sandbox?.close()
})

describe('the single executable', () => {
  it('answers --version and the root help as the npm package does', async () => {
    const pjson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string }
    const version = await svc(['--version'])
    expect(version).toMatchObject({ exitCode: 0, stderr: '' })
    expect(version.stdout).toMatch(new RegExp(`^${pjson.name}/${pjson.version.replaceAll('.', '\\.')} \\S+ node-v24\\.`))
    expect(version.stdout).toBe((await npmSvc(['--version'])).stdout)
    const help = await svc(['--help'])
    expect(help.exitCode).toBe(0)
    expect(help.stdout).toContain('TOPICS')
    expect(help.stdout).toBe((await npmSvc(['--help'])).stdout)
    // And through oclif (no fast path): the same bytes.
    expect((await svc(['--help'], { SVC_NO_FAST_PATH: '1' })).stdout).toBe(help.stdout)
  })

  it('answers --version and the root help without loading oclif, as the npm package does', async () => {
    // oclif logs its start under DEBUG=*; the fast path loads nothing that logs. The answers
    // are the same either way, so only this tells that the fast path answered.
    for (const run of [svc, npmSvc]) {
      for (const args of [['--version'], ['--help']]) {
        const answer = await run(args, { DEBUG: '*' })
        expect(answer.exitCode).toBe(0)
        expect(answer.stderr, `${run === svc ? 'binary' : 'npm'} ${args[0]}`).toBe('')
      }
    }
    // The check can fail: through oclif, it logs.
    expect((await svc(['--version'], { DEBUG: '*', SVC_NO_FAST_PATH: '1' })).stderr).not.toBe('')
  })

  it('shows a command help and refuses an unknown command as the npm package does', async () => {
    const [bin, npm] = await Promise.all([svc(['charges', 'get', '--help']), npmSvc(['charges', 'get', '--help'])])
    expect(bin).toEqual(npm)
    const [badBin, badNpm] = await Promise.all([svc(['chargs', 'list']), npmSvc(['chargs', 'list'])])
    expect(badBin.exitCode).toBe(2)
    expect(badBin).toEqual(badNpm)
  })

  it('prints the same completion scripts as the npm package, value hints included', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const [bin, npm] = await Promise.all([svc(['completion', shell]), npmSvc(['completion', shell])])
      expect(bin.exitCode).toBe(0)
      expect(bin.stdout).toBe(npm.stdout)
      // Event types and HTTP methods come from the code, which the binary carries.
      expect(bin.stdout).toContain('charge.paid_pending_settlement')
      expect(bin.stdout).toContain('PATCH')
    }
  })

  it('reads a charge from a sandbox: charges get ID --json', async () => {
    const res = await fetch(`${sandbox.baseUrl}/v1/charges`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.testKey}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ amountInCents: 1500, payerTaxNumber: '52998224725' }),
    })
    const charge = (await res.json()) as { id: string }
    const creds = { SVC_BASE_URL: sandbox.baseUrl, SVC_API_KEY: sandbox.testKey, SVC_CONFIG_DIR: configDir }
    const got = await svc(['charges', 'get', charge.id, '--json'], creds)
    expect(got.stderr).toBe('')
    expect(got.exitCode).toBe(0)
    expect(JSON.parse(got.stdout)).toMatchObject({ id: charge.id, status: 'awaiting_payment', amount: { grossInCents: 1500 } })
    expect(got.stdout).toBe((await npmSvc(['charges', 'get', charge.id, '--json'], creds)).stdout)
    const missing = await svc(['charges', 'get', 'f'.repeat(24), '--json'], creds)
    expect(missing.exitCode).not.toBe(0)
    expect(missing.stdout).toBe('')
  })

  it('runs the sandbox: sandbox start, then a charge created through it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-binary-sandbox-'))
    const started = await background(['sandbox', 'start', '--in-memory', '--port', '0', '--json'], { SVC_CONFIG_DIR: dir })
    try {
      expect(started.first.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(started.first.testKey).toMatch(/^svc_test_/)
      const created = await svc(['charges', 'create', '--amount', '1500', '--payer-tax-number', '529.982.247-25', '--json'], { SVC_CONFIG_DIR: dir })
      expect(created.exitCode).toBe(0)
      expect(JSON.parse(created.stdout)).toMatchObject({ status: 'awaiting_payment', environment: 'test', amount: { grossInCents: 1500 } })
    } finally {
      expect(await stop(started.child)).toBe(0)
    }
  })

  it('triggers an event from its embedded fixtures, and runs detached: start --detach, status, stop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-binary-detach-'))
    const env = { SVC_CONFIG_DIR: dir }
    const started = await svc(['sandbox', 'start', '--detach', '--port', '0', '--json'], env)
    expect(started.exitCode).toBe(0)
    const baseUrl = (JSON.parse(started.stdout) as { baseUrl: string }).baseUrl
    try {
      const status = await svc(['sandbox', 'status', '--json'], env)
      expect(JSON.parse(status.stdout)).toMatchObject({ running: true, baseUrl, detached: true })
      const triggered = await svc(['trigger', 'withdrawal.paid', '--json'], env)
      expect(triggered.stderr).toBe('')
      expect((JSON.parse(triggered.stdout) as { events: Array<{ type: string }> }).events.map((e) => e.type)).toEqual(['withdrawal.processing', 'withdrawal.paid'])
    } finally {
      expect((await svc(['sandbox', 'stop'], env)).exitCode).toBe(0)
    }
    expect((await svc(['sandbox', 'status'], env)).exitCode).toBe(4)
  })

  it('runs the webhook listener: a signed delivery is verified and forwarded', async () => {
    let app: TargetApp | undefined
    const listener = await (async () => {
      app = await startApp()
      return background(['webhooks', 'listen', '--forward', app.url, '--port', '0', '--secret', SECRET, '--no-tui'], { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-binary-listen-')) })
    })()
    try {
      const url = listener.first.listening as string
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+/)
      const body = chargeEvent('evt_binary_1', 'charge.settled')
      const answer = await post(url, body, signedHeaders(body))
      expect(answer.status).toBe(200)
      expect(app!.received.map((r) => r.headers['x-svc-event-id'])).toEqual(['evt_binary_1'])
      const forged = await post(url, body, signedHeaders(body, { secret: 'whsec_not_the_secret_000000000' }))
      expect(forged.status).not.toBe(200)
      expect(app!.received).toHaveLength(1)
    } finally {
      expect(await stop(listener.child)).toBe(0)
      await app?.close()
    }
  })
})
