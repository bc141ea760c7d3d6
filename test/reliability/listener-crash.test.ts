/**
 * What the listener promises across its own crash: at least once. When it is killed after the
 * app answered but before it recorded that answer, the service's retry reaches the app a second
 * time after the restart (a double, counted here apart from losses); nothing is lost. Without a
 * crash, a retry of a forwarded event is answered from the log and never forwarded again. So an
 * app deduplicates by event id, which `svc webhooks check` tests.
 */
import { once } from 'node:events'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { type Background, svcBackground } from '../helpers/cli.js'
import { chargeEvent, post, SECRET, signedHeaders, startApp, type TargetApp } from '../helpers/webhooks.js'

let listener: Background | undefined
let app: TargetApp | undefined

afterEach(async () => {
  await listener?.stop()
  await app?.close()
  listener = app = undefined
})

async function listen(config: string, forward: string): Promise<string> {
  listener = await svcBackground(['webhooks', 'listen', '--forward', forward, '--port', '0', '--secret', SECRET, '--no-tui'], { env: { SVC_CONFIG_DIR: config } })
  return listener.first.listening as string
}

it("a kill -9 between the app's answer and the record: the retry reaches the app again, nothing is lost", async () => {
  const config = mkdtempSync(join(tmpdir(), 'svc-listener-crash-'))
  let crash = true
  app = await startApp((_r, res) => {
    if (!crash) return void res.end('ok')
    // The app has the delivery and answers; the listener dies before it can record that.
    crash = false
    listener!.child.kill('SIGKILL')
    res.end('ok')
  })
  const body = chargeEvent('evt_crash_1', 'charge.settled')

  const first = await listen(config, app.url)
  await expect(post(first, body, signedHeaders(body))).rejects.toThrow()
  await once(listener!.child, 'close')

  const second = await listen(config, app.url)
  const retry = await post(second, body, signedHeaders(body))
  expect(retry.status).toBe(200)
  const again = await post(second, body, signedHeaders(body))
  expect(again.json).toMatchObject({ duplicate: true })

  const deliveries = app.received.filter((r) => r.headers['x-svc-event-id'] === 'evt_crash_1').length
  const lost = deliveries === 0 ? 1 : 0
  const doubled = deliveries - 1
  expect({ lost, doubled }).toEqual({ lost: 0, doubled: 1 })
}, 30_000)

it('a kill -9 right after the 2xx (before the event log commits, 25 ms later): the answered delivery is in the log after the restart, and its retry is a duplicate', async () => {
  const config = mkdtempSync(join(tmpdir(), 'svc-listener-journal-'))
  app = await startApp((_r, res) => void res.end('ok'))
  const body = chargeEvent('evt_answered_1', 'charge.settled')

  const first = await listen(config, app.url)
  const answered = await post(first, body, signedHeaders(body))
  listener!.child.kill('SIGKILL')
  expect(answered.status).toBe(200)
  await once(listener!.child, 'close')

  const second = await listen(config, app.url)
  const retry = await post(second, body, signedHeaders(body))
  expect(retry.json).toMatchObject({ duplicate: true })
  expect(app.received.filter((r) => r.headers['x-svc-event-id'] === 'evt_answered_1')).toHaveLength(1)
}, 30_000)
