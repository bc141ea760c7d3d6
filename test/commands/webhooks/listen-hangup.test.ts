// A listener whose terminal closes (SIGHUP) stops as cleanly as one stopped with Ctrl+C or SIGTERM:
// it gives the sandbox its webhook URLs back, so later events do not pile up against a dead port
// and the next listener does not "restore" a dead URL (trial report item 1).
import { once } from 'node:events'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getWebhookUrl, setWebhookUrl } from '../../../src/lib/sandbox-client/panel-client.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'
import { svcBackground } from '../../helpers/cli.js'

let sb: RunningSandbox
beforeAll(async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true })
})
afterAll(async () => {
  await sb.close()
})

async function hangUp(env: Record<string, string>) {
  const listener = await svcBackground(['webhooks', 'listen', '--forward', 'localhost:39101', '--no-tui', '--port', '0'], { env })
  const listening = listener.first.listening as string
  const target = { baseUrl: sb.baseUrl, apiKey: sb.testKey }
  expect(await getWebhookUrl({ ...target, env: 'test' })).toBe(listening)
  listener.child.kill('SIGHUP')
  const [code] = (await once(listener.child, 'close')) as [number | null]
  return { code, stderr: listener.stderr(), target }
}

it('SIGHUP stops the listener cleanly: the sandbox gets its previous URL back, or none where it had none', async () => {
  const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-hup-')), SVC_API_KEY: sb.testKey, SVC_BASE_URL: sb.baseUrl, SVC_WEBHOOK_SECRET: sb.webhookSecret }
  const target = { baseUrl: sb.baseUrl, apiKey: sb.testKey }
  await setWebhookUrl({ ...target, url: 'http://127.0.0.1:3000/app', env: 'test' })

  const run = await hangUp(env)
  expect(run.code).toBe(0)
  expect(run.stderr).toContain("Restored the sandbox's test webhook URL to http://127.0.0.1:3000/app.")
  expect(run.stderr).toContain("Removed the sandbox's live webhook URL (there was none before the listener).")
  expect(await getWebhookUrl({ ...target, env: 'test' })).toBe('http://127.0.0.1:3000/app')
  expect(await getWebhookUrl({ ...target, env: 'live' })).toBeUndefined()

  // A second listener ended the same way restores the app's URL, never the first listener's dead one.
  const again = await hangUp(env)
  expect(again.code).toBe(0)
  expect(await getWebhookUrl({ ...target, env: 'test' })).toBe('http://127.0.0.1:3000/app')
}, 30_000)

it("a listener killed before it could restore: the next one's clean stop goes back past its dead URL to the one before", async () => {
  const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-hup-')), SVC_API_KEY: sb.testKey, SVC_BASE_URL: sb.baseUrl, SVC_WEBHOOK_SECRET: sb.webhookSecret }
  const target = { baseUrl: sb.baseUrl, apiKey: sb.testKey }
  await setWebhookUrl({ ...target, url: 'http://127.0.0.1:3000/app', env: 'test' })

  const killed = await svcBackground(['webhooks', 'listen', '--forward', 'localhost:39101', '--no-tui', '--port', '0'], { env })
  const dead = killed.first.listening as string
  killed.child.kill('SIGKILL')
  await once(killed.child, 'close')
  expect(await getWebhookUrl({ ...target, env: 'test' })).toBe(dead)

  const run = await hangUp(env)
  expect(run.code).toBe(0)
  expect(await getWebhookUrl({ ...target, env: 'test' })).toBe('http://127.0.0.1:3000/app')
  expect(await getWebhookUrl({ ...target, env: 'live' })).toBeUndefined()
  expect(run.stderr).toContain(`Restored the sandbox's test webhook URL to http://127.0.0.1:3000/app (not ${dead}: a listener that no longer answers).`)
}, 30_000)
