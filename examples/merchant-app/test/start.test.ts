/**
 * `npm start` as the README runs it: its start script (`node src/server.ts`, Node's type
 * stripping, not vitest's transpiler) serves orders against a sandbox. Catches TypeScript that
 * only a transpiler accepts (parameter properties, enums, namespaces), which crashes at start.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SandboxHandle, startSandbox } from 'svc-cli/sandbox'

const root = new URL('..', import.meta.url)
let sandbox: SandboxHandle
let child: ChildProcess | undefined

beforeAll(async () => {
  sandbox = await startSandbox()
})
afterAll(async () => {
  // Still running (the test stopped before its end): stop it.
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM')
    await once(child, 'exit')
  }
  await sandbox.close()
})

describe('npm start (the README)', () => {
  it('starts with plain node, listens, creates an order, and stops', async () => {
    const start = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: { start: string } }).scripts.start
    const [bin, ...args] = start.split(' ')
    expect(bin).toBe('node')
    child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, PORT: '0', SVC_BASE_URL: sandbox.baseUrl, SVC_API_KEY: sandbox.testKey, SVC_WEBHOOK_SECRET: sandbox.webhookSecret },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()))
    const exited = once(child, 'exit').then(([code]) => `exited ${code}: ${stderr}`)
    const firstLine = (async () => {
      for await (const line of createInterface({ input: child!.stdout! })) return line
      return `no output: ${stderr}`
    })()
    const line = await Promise.race([firstLine, exited])
    const url = /shop listening on (http:\/\/\S+?);/.exec(line)?.[1]
    expect(url, line).toBeDefined()

    const res = await fetch(`${url}/orders`, { method: 'POST', body: JSON.stringify({ amountInCents: 4990, payerTaxNumber: '529.982.247-25' }) })
    expect(res.status).toBe(201)
    const order = (await res.json()) as { chargeId: string; status: string; qrCode: string }
    expect(order.status).toBe('awaiting_payment')
    expect(order.qrCode).toMatch(/^000201/)

    child.kill('SIGTERM')
    const [, signal] = await once(child, 'exit')
    expect(signal).toBe('SIGTERM')
  })
})
