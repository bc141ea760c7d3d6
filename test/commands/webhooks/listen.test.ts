import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { afterEach, describe, expect, it, vi } from 'vitest'
import WebhooksListen from '../../../src/commands/webhooks/listen.js'
import { ProfileStore } from '../../../src/lib/config/store.js'
import { EventStore } from '../../../src/lib/webhooks/event-store.js'
import { setIO } from '../../../src/lib/output/io.js'
import { chargeEvent, deferred, post, SECRET, signedHeaders, startApp, type TargetApp } from '../../helpers/webhooks.js'
import { startListen as start } from '../../helpers/listen-harness.js'

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!()
})

async function app(): Promise<TargetApp> {
  const a = await startApp()
  cleanups.push(() => a.close())
  return a
}

/** A stand-in for the local sandbox's panel: answers /_sandbox/info and records the webhook URL saved. */
async function fakeService(isSandbox: boolean, urls: Partial<Record<string, string>> = {}) {
  const saved: unknown[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c))
    req.on('end', () => {
      res.setHeader('content-type', 'application/json')
      if (isSandbox && req.url === '/_sandbox/info') return res.end(JSON.stringify({ sandbox: true }))
      if (isSandbox && req.method === 'GET' && req.url?.startsWith('/_sandbox/webhook')) {
        const env = new URL(req.url, 'http://x').searchParams.get('env') ?? 'test'
        if (urls[env]) return res.end(JSON.stringify({ environment: env, url: urls[env], active: true }))
        res.statusCode = 404
        return res.end(JSON.stringify({ error: { code: 'webhook_not_configured', message: 'none', requestId: 'r2' } }))
      }
      if (isSandbox && req.method === 'DELETE' && req.url?.startsWith('/_sandbox/webhook')) {
        const env = new URL(req.url, 'http://x').searchParams.get('env') ?? 'test'
        delete urls[env]
        return res.end(JSON.stringify({ environment: env, removed: true }))
      }
      if (isSandbox && req.method === 'PUT' && req.url === '/_sandbox/webhook') {
        saved.push({ ...JSON.parse(body), auth: req.headers.authorization })
        urls[JSON.parse(body).env ?? 'test'] = JSON.parse(body).url
        return res.end(JSON.stringify({ environment: 'test', url: JSON.parse(body).url, active: true }))
      }
      res.statusCode = 404
      res.end(JSON.stringify({ error: { code: 'not_found', message: 'no', requestId: 'r1' } }))
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())))
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, saved }
}

describe('svc webhooks listen (piped)', () => {
  it('prints where it listens first, then one JSON line per delivery, and stops cleanly on SIGTERM', async () => {
    const target = await app()
    const run = start(['--forward', `127.0.0.1:${target.port}/hook`, '--port', '0', '--secret', SECRET])
    const [first] = await run.waitLines(1)
    expect(first).toEqual({ listening: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/), forward: `http://127.0.0.1:${target.port}/hook` })
    const url = first!.listening as string
    const body = chargeEvent('evt_cmd1', 'charge.awaiting_payment')
    expect((await post(url, body, signedHeaders(body, { id: 'evt_cmd1' }))).status).toBe(200)
    const forged = chargeEvent('evt_cmd2', 'charge.settled')
    expect((await post(url, forged, signedHeaders(forged, { id: 'evt_cmd2', secret: 'whsec_not_ours_00000000' }))).status).toBe(400)
    const lines = await run.waitLines(3)
    expect(lines[1]).toMatchObject({
      eventId: 'evt_cmd1',
      type: 'charge.awaiting_payment',
      chargeId: 'a'.repeat(24),
      verified: true,
      verification: 'verified',
      outcome: 'forwarded',
      status: 200,
      forwardStatus: 200,
      received: 1,
    })
    expect(lines[1]).not.toHaveProperty('attempt')
    expect(lines[2]).toMatchObject({ eventId: 'evt_cmd2', verified: false, verification: 'signature_mismatch', outcome: 'rejected', status: 400 })
    expect(lines[1]).not.toHaveProperty('skipVerify')
    expect(await run.stop()).toBe(0)
    expect(run.stderr()).toContain('No API credentials')
    expect(target.received).toHaveLength(1)
    // The help's `| jq …` example prints one outcome per delivery, not `null` for the first line (issue 16 item 13).
    const example = (WebhooksListen.examples as string[]).find((e) => e.includes('| jq'))!
    const jq = spawnSync('sh', ['-c', example.slice(example.indexOf('| jq') + 2)], { input: run.stdout(), encoding: 'utf8' })
    if (jq.error === undefined && jq.status !== 127) expect(jq.stdout).toBe('forwarded\nrejected\n')
  })

  it('prints the line of every delivery finished during shutdown (a slow app), after saying it is finishing them', async () => {
    const release = deferred()
    const target = await startApp((r, res) => {
      void release.promise.then(() => {
        res.statusCode = r.headers['x-svc-event-id'] === 'evt_slow2' ? 500 : 200
        res.end('done')
      })
    })
    cleanups.push(() => target.close())
    const run = start(['--forward', `127.0.0.1:${target.port}`, '--port', '0', '--secret', SECRET])
    const [first] = await run.waitLines(1)
    const ids = ['evt_slow1', 'evt_slow2', 'evt_slow3']
    const answers = ids.map((id) => {
      const body = chargeEvent(id, 'charge.awaiting_payment')
      return post(first!.listening as string, body, signedHeaders(body, { id }))
    })
    await vi.waitFor(() => expect(target.received).toHaveLength(3), { timeout: 3000, interval: 10 })
    const stopped = run.stop()
    await vi.waitFor(() => expect(run.stderr()).toContain('Finishing 3 deliveries in flight'), { timeout: 3000, interval: 10 })
    release.resolve()
    expect(await stopped).toBe(0)
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual([200, 502, 200])
    const byId = Object.fromEntries(
      run
        .lines()
        .slice(1)
        .map((l) => [l.eventId, [l.outcome, l.status]]),
    )
    expect(byId).toEqual({ evt_slow1: ['forwarded', 200], evt_slow2: ['failed', 502], evt_slow3: ['forwarded', 200] })
  })

  it('is loud about --skip-verify on stderr and in every line', async () => {
    const target = await app()
    const run = start(['--forward', `127.0.0.1:${target.port}`, '--port', '0', '--skip-verify'])
    const [first] = await run.waitLines(1)
    const body = chargeEvent('evt_skip', 'charge.settled')
    await post(first!.listening as string, body, { 'content-type': 'application/json' })
    const lines = await run.waitLines(2)
    expect(lines[1]).toMatchObject({ outcome: 'forwarded', verified: false, verification: 'skipped', skipVerify: true })
    await run.stop()
    expect(run.stderr()).toContain('--skip-verify is on')
  })

  it('registers its URL as the webhook URL of a local sandbox', async () => {
    const target = await app()
    const sandbox = await fakeService(true)
    const run = start(['--forward', `127.0.0.1:${target.port}`, '--port', '0', '--secret', SECRET], { SVC_API_KEY: 'svc_test_abcdefghijklmnop', SVC_BASE_URL: sandbox.baseUrl })
    const [first] = await run.waitLines(1)
    await run.stop()
    expect(sandbox.saved).toEqual([
      { url: first!.listening, env: 'test', auth: 'Bearer svc_test_abcdefghijklmnop' },
      { url: first!.listening, env: 'live', auth: 'Bearer svc_test_abcdefghijklmnop' },
    ])
    expect(run.stderr()).toContain(`Registered ${first!.listening} as the sandbox's test and live webhook URL`)
    expect(run.stderr()).not.toContain(SECRET)
  })

  it('on a clean stop gives the sandbox back the webhook URLs it had before, in both environments (issue 16 item 6)', async () => {
    const target = await app()
    const urls: Record<string, string> = { test: 'http://127.0.0.1:3000/hooks', live: 'http://127.0.0.1:3001/live' }
    const sandbox = await fakeService(true, urls)
    const run = start(['--forward', `127.0.0.1:${target.port}`, '--port', '0', '--secret', SECRET], { SVC_API_KEY: 'svc_test_abcdefghijklmnop', SVC_BASE_URL: sandbox.baseUrl })
    const [first] = await run.waitLines(1)
    expect(urls).toEqual({ test: first!.listening, live: first!.listening })
    expect(await run.stop()).toBe(0)
    expect(urls).toEqual({ test: 'http://127.0.0.1:3000/hooks', live: 'http://127.0.0.1:3001/live' })
    expect(run.stderr()).toContain("Restored the sandbox's test webhook URL to http://127.0.0.1:3000/hooks.")
    expect(run.stderr()).toContain("Restored the sandbox's live webhook URL to http://127.0.0.1:3001/live.")
  })

  it('on stop, removes the URL where there was none before, and leaves a URL someone changed meanwhile alone', async () => {
    const target = await app()
    const urls: Record<string, string> = { live: 'http://127.0.0.1:3001/live' }
    const sandbox = await fakeService(true, urls)
    const run = start(['--forward', `127.0.0.1:${target.port}`, '--port', '0', '--secret', SECRET], { SVC_API_KEY: 'svc_test_abcdefghijklmnop', SVC_BASE_URL: sandbox.baseUrl })
    await run.waitLines(1)
    urls.live = 'http://127.0.0.1:4000/other'
    await run.stop()
    expect(urls).toEqual({ live: 'http://127.0.0.1:4000/other' })
    expect(run.stderr()).toContain("Removed the sandbox's test webhook URL (there was none before the listener).")
    expect(run.stderr()).not.toContain("Restored the sandbox's live")
  })

  it('the README says what a clean stop does to an environment that had no URL (issue 24 item 6)', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ')
    expect(readme).not.toContain('the sandbox cannot remove one')
    expect(readme).toContain('from an environment that had no URL it removes its own (and says so)')
  })

  it('with --skip-verify never claims to verify, even when a secret is known', async () => {
    const target = await app()
    const sandbox = await fakeService(true)
    const run = start(['--forward', `127.0.0.1:${target.port}`, '--port', '0', '--skip-verify'], { SVC_API_KEY: 'svc_test_abcdefghijklmnop', SVC_BASE_URL: sandbox.baseUrl, SVC_WEBHOOK_SECRET: SECRET })
    await run.waitLines(1)
    await run.stop()
    expect(run.stderr()).toContain("as the sandbox's test and live webhook URL; signatures are NOT verified (--skip-verify)")
    expect(run.stderr()).not.toMatch(/verifying with/i)
  })

  it('against a real service says what to expose and where to set it', async () => {
    const target = await app()
    const service = await fakeService(false)
    const run = start(['--forward', `127.0.0.1:${target.port}`, '--port', '0', '--secret', SECRET], { SVC_API_KEY: 'svc_live_abcdefghijklmnop', SVC_BASE_URL: service.baseUrl })
    await run.waitLines(1)
    await run.stop()
    expect(run.stderr()).toMatch(/not a local sandbox/)
    expect(run.stderr()).toMatch(/tunnel/)
    expect(run.stderr()).toMatch(/live webhook URL in the panel/)
  })

  it('says the base URL cannot be reached when nothing answers there, not that it is "not a local sandbox" (issue 16 item 4)', async () => {
    const target = await app()
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((r) => closed.close(() => r()))
    const run = start(['--forward', `127.0.0.1:${target.port}`, '--port', '0', '--secret', SECRET], { SVC_API_KEY: 'svc_test_abcdefghijklmnop', SVC_BASE_URL: `http://127.0.0.1:${port}` })
    await run.waitLines(1)
    await run.stop()
    expect(run.stderr()).toContain(`Cannot reach http://127.0.0.1:${port} (ECONNREFUSED): nothing answers there`)
    expect(run.stderr()).not.toMatch(/not a local sandbox|tunnel/)
  })

  it("never verifies with a profile's secret beside a key from --api-key (issue 16 item 4)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-listen-'))
    const store = await ProfileStore.open({ SVC_CONFIG_DIR: dir })
    store.save('sandbox', { apiKey: 'svc_test_abcdefghijklmnop', baseUrl: 'http://127.0.0.1:1', webhookSecret: SECRET })
    store.setDefault('sandbox')
    const run = start(['--forward', 'localhost:3000', '--port', '0', '--api-key', 'svc_live_abcdefghijklmnop', '--base-url', 'https://api.example.com'], { SVC_CONFIG_DIR: dir })
    expect(await run.done).toBe(2)
    setIO(undefined)
    expect(run.stderr()).toContain('No webhook secret to verify deliveries with.')
    expect(run.stderr()).toContain("The API key comes from --api-key, so no profile's secret is used")
  })

  it('--durability full opens the event log power-loss safe and forwards as usual; another value exits 2 naming the flag', async () => {
    const target = await app()
    const opened = vi.spyOn(EventStore, 'open')
    const run = start(['--forward', `127.0.0.1:${target.port}`, '--port', '0', '--secret', SECRET, '--durability', 'full'])
    const url = (await run.waitLines(1))[0]!.listening as string
    const body = chargeEvent('evt_full', 'charge.settled')
    expect((await post(url, body, signedHeaders(body, { id: 'evt_full' }))).status).toBe(200)
    expect(await opened.mock.results[0]!.value).toMatchObject({ durability: 'full' })
    expect(await run.stop()).toBe(0)
    expect(target.received).toHaveLength(1)

    const bad = start(['--forward', 'localhost:3000', '--port', '0', '--secret', SECRET, '--durability', 'paranoid'])
    expect(await bad.done).toBe(2)
    setIO(undefined)
    expect(bad.stderr()).toContain('--durability')
  })

  it('exits 2 naming the secret when there is none to verify with', async () => {
    const run = start(['--forward', 'localhost:3000', '--port', '0'])
    expect(await run.done).toBe(2)
    setIO(undefined)
    expect(run.stderr()).toContain('secret')
  })

  it('exits 2 on a misspelt --events type, naming the flag and the closest type, before listening', async () => {
    const run = start(['--forward', 'localhost:3000', '--port', '0', '--secret', SECRET, '--events', 'charge.*,charge.setled'])
    expect(await run.done).toBe(2)
    setIO(undefined)
    expect(run.lines()).toEqual([])
    expect(run.stderr()).toContain('--events')
    expect(run.stderr()).toContain('did you mean charge.settled?')
  })

  it('says at start that filtered-out events are acknowledged and not retried', async () => {
    const target = await app()
    const run = start(['--forward', `127.0.0.1:${target.port}`, '--port', '0', '--secret', SECRET, '--events', 'charge.settled'])
    const [first] = await run.waitLines(1)
    const body = chargeEvent('evt_filtered', 'charge.awaiting_payment')
    expect((await post(first!.listening as string, body, signedHeaders(body, { id: 'evt_filtered' }))).status).toBe(200)
    const lines = await run.waitLines(2)
    expect(lines[1]).toMatchObject({ eventId: 'evt_filtered', outcome: 'skipped' })
    await run.stop()
    expect(run.stderr()).toContain('Forwarding only charge.settled; other events are acknowledged (2xx) and not retried.')
    expect(target.received).toHaveLength(0)
  })

  it('routes by pattern to two apps: the first line lists the routes, each line names its target', async () => {
    const rest = await app()
    const split = await app()
    const run = start(['--forward', `127.0.0.1:${rest.port}`, '--forward', `charge.split.*=127.0.0.1:${split.port}/split`, '--header', 'Authorization: Bearer dev', '--port', '0', '--secret', SECRET])
    const [first] = await run.waitLines(1)
    expect(first).toEqual({ listening: expect.any(String), forward: `http://127.0.0.1:${rest.port}/`, routes: [{ pattern: 'charge.split.*', url: `http://127.0.0.1:${split.port}/split` }] })
    for (const [id, type] of [
      ['evt_route1', 'charge.split.failed'],
      ['evt_route2', 'charge.settled'],
    ] as const) {
      const body = chargeEvent(id, type)
      expect((await post(first!.listening as string, body, signedHeaders(body, { id }))).status).toBe(200)
    }
    const lines = await run.waitLines(3)
    await run.stop()
    expect(lines.slice(1).map((l) => [l.eventId, l.outcome, l.target, l.route])).toEqual([
      ['evt_route1', 'forwarded', `http://127.0.0.1:${split.port}/split`, 'charge.split.*'],
      ['evt_route2', 'forwarded', `http://127.0.0.1:${rest.port}/`, null],
    ])
    expect(split.received.map((r) => [r.path, r.headers.authorization])).toEqual([['/split', 'Bearer dev']])
    expect(rest.received.map((r) => r.headers['x-svc-event-id'])).toEqual(['evt_route2'])
    // The header's value is a secret: it goes to the apps, never to the output.
    expect(run.stdout() + run.stderr()).not.toContain('Bearer dev')
  })

  it('says at start that, with no bare URL, the events no pattern matches are acknowledged and not forwarded', async () => {
    const target = await app()
    const run = start(['--forward', `charge.settled=127.0.0.1:${target.port}`, '--port', '0', '--secret', SECRET])
    const [first] = await run.waitLines(1)
    expect(first).toMatchObject({ forward: null, routes: [{ pattern: 'charge.settled' }] })
    await run.stop()
    expect(run.stderr()).toContain('No bare --forward URL: events no pattern matches are acknowledged (2xx) and not forwarded.')
  })

  it.each([
    ['a misspelt route pattern', ['--forward', 'charge.setled=localhost:3000'], '--forward: "charge.setled" is not a known event type (did you mean charge.settled?)'],
    ['a route to a URL that is not http', ['--forward', 'localhost:3000', '--forward', 'charge.*=ftp://x'], '--forward: The forward URL must be http or https'],
    ['an empty pattern (trial report item 2)', ['--forward', '=localhost:39101'], '--forward: "=localhost:39101" has an empty pattern before the ='],
    ['a URL whose host is not a host name', ['--forward', 'app!:3000'], '--forward: "app!:3000" does not name a valid host (app!)'],
    ['a URL with an invalid host after a pattern', ['--forward', 'charge.*=a=b:3000'], '--forward: "a=b:3000" does not name a valid host (a=b)'],
    ['two bare URLs', ['--forward', 'localhost:3000', '--forward', 'localhost:3001'], '--forward: more than one bare URL'],
    ['a header overriding X-SVC-*', ['--forward', 'localhost:3000', '--header', 'X-SVC-Signature: v1=forged'], '--header: "X-SVC-Signature" cannot be overridden'],
    ['a header with a line break', ['--forward', 'localhost:3000', '--header', 'Authorization: Bearer a\r\nX-Evil: 1'], '--header: "Authorization" contains a line break'],
    ['an Expect header, which every forward would fail on', ['--forward', 'localhost:3000', '--header', 'Expect: 100-continue'], '--header: "Expect" is a hop-by-hop header'],
    ['a header value with U+2028', ['--forward', 'localhost:3000', '--header', 'Authorization: Bearer forged\u2028x'], '--header: "Authorization" has a character outside Latin-1 (U+2028)'],
  ])('exits 2 on %s, naming the flag, before listening', async (_what, argv, message) => {
    const run = start([...argv, '--port', '0', '--secret', SECRET])
    expect(await run.done).toBe(2)
    setIO(undefined)
    expect(run.lines()).toEqual([])
    expect(run.stderr()).toContain(message)
    expect(run.stderr()).not.toContain('forged')
  })

  it('exits 2 on a forward URL that is not http', async () => {
    const run = start(['--forward', 'ftp://localhost/x', '--secret', SECRET])
    expect(await run.done).toBe(2)
    setIO(undefined)
    expect(run.stderr()).toContain('forward')
  })
})
