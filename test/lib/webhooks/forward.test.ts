/**
 * The forwarder's targets and headers: `--forward [PATTERN=]URL ...` and `--header 'Name: value'`
 * parsed up front (bad input exits 2 naming the flag, before anything listens), and the target
 * each event routes to. The listener sending to them is in listener.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { CliError } from '../../../src/lib/errors.js'
import { type ForwardTarget, parseForwardHeaders, parseForwardTargets, targetFor, targetName } from '../../../src/lib/webhooks/forward.js'

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
