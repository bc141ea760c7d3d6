/**
 * Routing in the forwarder: `--forward [PATTERN=]URL ...` and `--header 'Name: value'` parsed
 * up front (bad input exits 2 naming the flag, before anything listens), each event sent to
 * the one target it routes to, once per target, and the service answered from that target.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { CliError } from '../../../src/lib/errors.js'
import { EventStore } from '../../../src/lib/webhooks/event-store.js'
import { type ForwarderOptions, type ForwardTarget, parseForwardHeaders, parseForwardTargets, targetFor, targetName } from '../../../src/lib/webhooks/forward.js'
import { type ListenerDelivery, type ListenerOptions, WebhookListener } from '../../../src/lib/webhooks/listener.js'
import { deliveryJson } from '../../../src/lib/webhooks/events-view.js'
import { deliveryLine } from '../../../src/lib/webhooks/ndjson.js'
import { chargeEvent, forwarding, post, SECRET, signedHeaders, startApp, type TargetApp } from '../../helpers/webhooks.js'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!()
})

/** The usage error `fn` throws: exit 2, the field it names, and the message. */
function usageError(fn: () => unknown): { exitCode: number; field?: string; message: string } {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(CliError)
    const e = err as CliError & { details?: Array<{ field: string }> }
    return { exitCode: e.exitCode, field: e.details?.[0]?.field, message: e.message }
  }
  throw new Error('no error thrown')
}

describe('--forward [PATTERN=]URL', () => {
  it('takes a bare URL as the default target and PATTERN=URL as a route, in flag order', () => {
    const targets = parseForwardTargets(['localhost:3000', 'charge.split.*=localhost:4000/split', 'charge.settled, charge.refunded =127.0.0.1:5000/money?x=1'])
    expect(targets.map((t) => [t.pattern, t.url.href])).toEqual([
      [null, 'http://localhost:3000/'],
      ['charge.split.*', 'http://localhost:4000/split'],
      ['charge.settled,charge.refunded', 'http://127.0.0.1:5000/money?x=1'],
    ])
    expect(targets.map(targetName)).toEqual(['http://localhost:3000/', 'charge.split.*=http://localhost:4000/split', 'charge.settled,charge.refunded=http://127.0.0.1:5000/money?x=1'])
  })

  it('reads a URL whose query or path holds "=" as a bare URL', () => {
    expect(parseForwardTargets(['localhost:3000/hooks?token=abc']).map((t) => [t.pattern, t.url.href])).toEqual([[null, 'http://localhost:3000/hooks?token=abc']])
    expect(parseForwardTargets(['https://app.test/a=b']).map((t) => t.pattern)).toEqual([null])
  })

  it('routes an event to the first pattern that matches, in flag order, else the default, else nowhere', () => {
    const targets = parseForwardTargets(['charge.settled=localhost:1/settled', 'charge.*=localhost:2/charges', 'localhost:3/rest'])
    const where = (type?: string, list: ForwardTarget[] = targets) => targetFor(list, type)?.url.href
    expect(where('charge.settled')).toBe('http://localhost:1/settled')
    expect(where('charge.refunded')).toBe('http://localhost:2/charges')
    expect(where('withdrawal.paid')).toBe('http://localhost:3/rest')
    // An unknown or missing type goes to the default target (spec 6.3: forwarded like any other).
    expect(where('charge.brand_new_type')).toBe('http://localhost:2/charges')
    expect(where(undefined)).toBe('http://localhost:3/rest')
    expect(where('withdrawal.paid', targets.slice(0, 2))).toBeUndefined()
  })

  it.each([
    ['a misspelt pattern, with the closest type', ['charge.setled=localhost:4000'], /--forward: "charge.setled" is not a known event type \(did you mean charge.settled\?\)/],
    ['a prefix matching no type', ['refund.*=localhost:4000'], /--forward: "refund.\*" matches no known event type/],
    ['a routed URL that is not http', ['charge.*=ftp://localhost/x'], /--forward: The forward URL must be http or https, not ftp/],
    ['a routed URL that is empty', ['charge.*='], /--forward: The forward URL is empty/],
    ['a URL that does not parse', ['localhost:99999999'], /--forward: "localhost:99999999" is not a URL/],
    ['a pattern with no URL', ['localhost:3000', 'charge.split.*'], /--forward: "charge.split.\*" is a pattern with no URL/],
    ['an event type with no URL', ['charge.settled'], /--forward: "charge.settled" is a pattern with no URL/],
    ['two bare URLs', ['localhost:3000', 'localhost:3001'], /--forward: more than one bare URL/],
    ['one pattern twice', ['charge.*=localhost:3000', 'charge.*=localhost:3001'], /--forward: the pattern charge.\* is given twice/],
  ])('refuses %s: exit 2 naming --forward', (_what, values, message) => {
    const e = usageError(() => parseForwardTargets(values))
    expect(e).toMatchObject({ exitCode: 2, field: 'forward' })
    expect(e.message).toMatch(message)
  })
})

describe('--header', () => {
  it('takes Name: value pairs (the name case-insensitive, the value trimmed, colons in it kept)', () => {
    expect(parseForwardHeaders(['Authorization: Bearer dev', 'X-Trace:a:b ', 'x-empty:'])).toEqual({ authorization: 'Bearer dev', 'x-trace': 'a:b', 'x-empty': '' })
    expect(parseForwardHeaders(undefined)).toEqual({})
    const odd = parseForwardHeaders(['constructor: a', '__proto__: b'])
    expect(Object.entries(odd)).toEqual([
      ['constructor', 'a'],
      ['__proto__', 'b'],
    ])
    expect(Object.getPrototypeOf(odd)).toBe(Object.prototype)
    // A tab and Latin-1 letters are what HTTP carries: kept.
    expect(parseForwardHeaders(['X-Owner: José\tNuñez'])).toEqual({ 'x-owner': 'José\tNuñez' })
  })

  it.each([
    ['no colon', 'Authorization Bearer dev', /has no ":"/],
    ['a name that is not a token', 'Bad Name: x', /"Bad Name" is not a valid header name/],
    ['an empty name', ': x', /is not a valid header name/],
    ['a CR/LF in the value', 'X-Inject: a\r\nX-Evil: b', /"X-Inject" contains a line break/],
    ['content-type', 'Content-Type: text/plain', /"Content-Type" cannot be overridden/],
    ['an X-SVC-* header', 'X-SVC-Signature: v1=forged', /"X-SVC-Signature" cannot be overridden/],
    ['a framing header', 'Host: evil.test', /"Host" is set by the forward itself/],
    ['the same name twice', 'authorization: a', /"authorization" is given twice/],
    // Each of these passed the start, then undici refused every forward (issue 29 item 8).
    ['Expect (undici refuses it)', 'Expect: 100-continue', /"Expect" is a hop-by-hop header/],
    ['Proxy-Connection', 'Proxy-Connection: keep-alive', /"Proxy-Connection" is a hop-by-hop header/],
    ['a control character in the value', 'X-Bell: s3cr3t\u0007', /"X-Bell" has a control character \(U\+0007\) in its value/],
    ['DEL in the value', 'X-Del: s3cr3t\u007f', /"X-Del" has a control character \(U\+007F\)/],
    ['a character past Latin-1', 'X-Name: s3cr3t \u2192 b', /"X-Name" has a character outside Latin-1 \(U\+2192\)/],
    ['U+2028 (a line separator to JavaScript, not to HTTP)', 'X-Sep: s3cr3t\u2028b', /"X-Sep" has a character outside Latin-1 \(U\+2028\)/],
    ['an emoji', 'X-Mood: s3cr3t \u{1F600}', /"X-Mood" has a character outside Latin-1 \(U\+1F600\)/],
  ])('refuses %s: exit 2 naming --header, never echoing the value', (_what, value, message) => {
    const values = value.startsWith('authorization') ? ['Authorization: Bearer s3cr3t-token', value] : [value]
    const e = usageError(() => parseForwardHeaders(values))
    expect(e).toMatchObject({ exitCode: 2, field: 'header' })
    expect(e.message).toMatch(message)
    expect(e.message).not.toContain('s3cr3t')
    expect(e.message).not.toContain('forged')
    expect(e.message).not.toContain('evil.test')
  })
})

async function app(): Promise<TargetApp> {
  const a = await startApp()
  cleanups.push(() => a.close())
  return a
}

/** A listener forwarding to `forward` (`forwarder` options: the deadline, the headers), closed after the test. */
async function listen(forward: string[], opts: Partial<ListenerOptions> = {}, forwarder: ForwarderOptions = {}) {
  const store = opts.store ?? (await EventStore.open({ path: ':memory:' }))
  const f = forwarding(forward, forwarder)
  cleanups.push(() => f.forwarder.close())
  const listener = new WebhookListener({ ...f, secrets: [SECRET], store, port: 0, ...opts })
  const seen: ListenerDelivery[] = []
  listener.on('delivery', (d) => seen.push(d))
  const url = await listener.start()
  if (!opts.store) cleanups.push(() => store.close())
  cleanups.push(() => listener.close())
  return { url, store, seen }
}

const send = (url: string, id: string, type: string) => {
  const body = chargeEvent(id, type)
  return post(url, body, signedHeaders(body, { id }))
}
const ids = (a: TargetApp) => a.received.map((r) => r.headers['x-svc-event-id'])

describe('the listener with several targets', () => {
  it('sends each event to its target only, answers from that target, and names the target on each line', async () => {
    const rest = await app()
    const split = await app()
    const { url, seen } = await listen([rest.url, `charge.split.*=${split.url}/split`])
    expect((await send(url, 'evt_r1', 'charge.settled')).status).toBe(200)
    expect((await send(url, 'evt_s1', 'charge.split.completed')).status).toBe(200)
    expect((await send(url, 'evt_r2', 'withdrawal.paid')).status).toBe(200)
    expect(ids(rest)).toEqual(['evt_r1', 'evt_r2'])
    expect(ids(split)).toEqual(['evt_s1'])
    expect(split.received[0]!.path).toBe('/split')
    expect(seen.map((d) => [d.record.eventId, deliveryLine(d).target, deliveryLine(d).route])).toEqual([
      ['evt_r1', `${rest.url}/`, null],
      ['evt_s1', `${split.url}/split`, 'charge.split.*'],
      ['evt_r2', `${rest.url}/`, null],
    ])
  })

  it('names target and route alike on the NDJSON line and in `webhooks events --json` (trial report item 2)', async () => {
    const rest = await app()
    const money = await app()
    const { url, seen, store } = await listen([rest.url, `charge.settled,charge.refunded=${money.url}`])
    expect((await send(url, 'evt_m1', 'charge.settled')).status).toBe(200)
    expect((await send(url, 'evt_r1', 'withdrawal.paid')).status).toBe(200)
    const line = (id: string) => deliveryLine(seen.find((d) => d.record.eventId === id)!)
    const logged = (id: string) => deliveryJson(store.list().find((r) => r.eventId === id)!)
    expect(line('evt_m1')).toMatchObject({ target: `${money.url}/`, route: 'charge.settled,charge.refunded' })
    expect(line('evt_r1')).toMatchObject({ target: `${rest.url}/`, route: null })
    for (const id of ['evt_m1', 'evt_r1']) {
      expect({ target: logged(id).target, route: logged(id).route }).toEqual({ target: line(id).target, route: line(id).route })
    }
  })

  it("answers the service from the event's own target: the other app being down does not matter", async () => {
    const up = await app()
    const probe = await startApp()
    const down = probe.url
    await probe.close()
    const { url, store } = await listen([`${up.url}`, `charge.settled=${down}`])
    expect((await send(url, 'evt_up', 'charge.awaiting_payment')).status).toBe(200)
    const failed = await send(url, 'evt_down', 'charge.settled')
    expect(failed.status).toBe(502)
    expect(store.isDelivered('evt_down')).toBe(false)
    expect(ids(up)).toEqual(['evt_up'])
  })

  it('acknowledges (2xx) and does not forward an event no pattern matches when there is no default target', async () => {
    const split = await app()
    const { url, seen, store } = await listen([`charge.split.*=${split.url}`])
    const answer = await send(url, 'evt_none', 'charge.settled')
    expect(answer).toMatchObject({ status: 200, json: { received: true, skipped: true } })
    expect(split.received).toHaveLength(0)
    expect(deliveryLine(seen[0]!)).toMatchObject({ eventId: 'evt_none', outcome: 'skipped', status: 200, target: null, forwardStatus: null })
    expect(store.list()[0]).toMatchObject({ outcome: 'skipped', forwardUrl: undefined })
    expect(store.isDelivered('evt_none')).toBe(false)
  })

  it("adds every --header to each forwarded request, leaving the delivery's own headers as they came", async () => {
    const a = await app()
    const b = await app()
    const { url, store } = await listen([a.url, `charge.settled=${b.url}`], {}, { headers: parseForwardHeaders(['Authorization: Bearer dev', 'X-Tenant: t1']) })
    await send(url, 'evt_h1', 'charge.awaiting_payment')
    await send(url, 'evt_h2', 'charge.settled')
    for (const got of [a.received[0]!, b.received[0]!]) {
      expect(got.headers).toMatchObject({ authorization: 'Bearer dev', 'x-tenant': 't1', 'content-type': 'application/json' })
      expect(got.headers['x-svc-signature']).toContain('v1=')
    }
    // The log keeps what the service sent, not the added (often secret) headers.
    expect(store.list().every((r) => r.headers.authorization === undefined)).toBe(true)
  })

  it('dedups per target: an event one app has is still sent, once, to the app it routes to after a restart', async () => {
    const store = await EventStore.open({ path: ':memory:' })
    cleanups.push(() => store.close())
    const a = await app()
    const b = await app()
    const first = await listen([a.url], { store })
    expect((await send(first.url, 'evt_moved', 'charge.settled')).status).toBe(200)
    expect((await send(first.url, 'evt_moved', 'charge.settled')).json).toMatchObject({ duplicate: true })
    // Restarted with charge.settled routed to another app: that app has not had it yet.
    const second = await listen([a.url, `charge.settled=${b.url}`], { store })
    expect((await send(second.url, 'evt_moved', 'charge.settled')).json).toMatchObject({ forwarded: true })
    expect((await send(second.url, 'evt_moved', 'charge.settled')).json).toMatchObject({ duplicate: true })
    expect((await send(second.url, 'evt_moved', 'charge.settled')).json).toMatchObject({ duplicate: true })
    expect(ids(a)).toEqual(['evt_moved'])
    expect(ids(b)).toEqual(['evt_moved'])
    expect(store.isDelivered('evt_moved', `${a.url}/`)).toBe(true)
    expect(store.isDelivered('evt_moved', `${b.url}/`)).toBe(true)
  })

  it('shares one forward between concurrent copies of an event, per target', async () => {
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    const slow = await startApp((_r, res) => void held.then(() => res.end('ok')))
    cleanups.push(() => slow.close())
    const { url } = await listen([`charge.settled=${slow.url}`])
    const copies = [send(url, 'evt_twice', 'charge.settled'), send(url, 'evt_twice', 'charge.settled')]
    await expect.poll(() => slow.received.length).toBe(1)
    release()
    expect((await Promise.all(copies)).map((a) => a.status)).toEqual([200, 200])
    expect(ids(slow)).toEqual(['evt_twice'])
  })
})
