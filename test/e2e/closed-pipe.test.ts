/**
 * `svc webhooks listen --no-tui | head -3`: when the reader of stdout goes away, the listener
 * stops cleanly instead of forwarding forever into a closed pipe.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createInterface } from 'node:readline'
import { describe, expect, it } from 'vitest'
import { BIN } from '../helpers/cli.js'

describe('a closed stdout pipe', () => {
  it('ends webhooks listen cleanly after the next delivery', async () => {
    const app = createServer((_req, res) => res.writeHead(200).end('ok'))
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r))
    const appPort = (app.address() as AddressInfo).port
    const child = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--forward', `127.0.0.1:${appPort}`, '--port', '0', '--no-tui', '--skip-verify'], {
      env: { ...process.env, CI: 'true', SVC_API_KEY: undefined, SVC_BASE_URL: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
      const first = JSON.parse((await lines.next()).value as string) as { listening: string }
      // The reader goes away, as `head -1` does after its line.
      child.stdout!.destroy()
      const body = JSON.stringify({ id: 'evt_pipe_1', type: 'charge.test', createdAt: new Date().toISOString(), environment: 'test', data: {} })
      const answer = await fetch(first.listening, { method: 'POST', headers: { 'content-type': 'application/json', 'x-svc-event-id': 'evt_pipe_1' }, body })
      expect(answer.status).toBe(200)
      const exit = once(child, 'exit')
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      const [code, signal] = (await exit) as [number | null, string | null]
      clearTimeout(timer)
      expect(signal).toBeNull()
      expect(code).toBe(0)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      app.close()
    }
  })
})
