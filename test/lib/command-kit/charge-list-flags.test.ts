import { describe, expect, it } from 'vitest'
import { overdueInputFromFlags, parseListFlags, settledInputFromFlags } from '../../../src/lib/command-kit/charge-list-flags.js'
import { UsageError } from '../../../src/lib/errors.js'

const now = new Date('2026-11-20T15:00:00Z')

describe('parseListFlags', () => {
  it('turns friendly times into RFC 3339 (UTC)', () => {
    expect(parseListFlags({ 'created-after': '2h', 'created-before': 'now' }, now)).toEqual({
      createdAfter: '2026-11-20T13:00:00.000Z',
      createdBefore: '2026-11-20T15:00:00.000Z',
    })
  })

  it('keeps an RFC 3339 instant, normalised to UTC', () => {
    expect(parseListFlags({ 'created-after': '2026-11-20T10:00:00-03:00' }, now)).toEqual({ createdAfter: '2026-11-20T13:00:00.000Z' })
  })

  it('passes the other filters through, limit as a number', () => {
    expect(parseListFlags({ status: 'settled', 'external-id': 'order-1', limit: '50', 'starting-after': '65a1f0c2b3d4e5f60718293a' }, now)).toEqual({
      status: 'settled',
      externalId: 'order-1',
      limit: 50,
      startingAfter: '65a1f0c2b3d4e5f60718293a',
    })
  })

  it('refuses a date that does not exist (2026-02-30), naming the flag, instead of rolling it over to March', () => {
    expect(() => parseListFlags({ 'created-after': '2026-02-30' }, now)).toThrow(/--created-after/)
    expect(() => parseListFlags({ 'created-before': '2026-02-30T10:00:00Z' }, now)).toThrow(/--created-before/)
  })

  it.each([['1.5'], ['0'], ['101'], ['x']])('refuses --limit %s', (limit) => {
    expect(() => parseListFlags({ limit }, now)).toThrow(/invalid --limit \(limit\)/i)
  })
})

describe('parseListFlags reads RFC 3339 as RFC 3339 does (issue 29 item 28)', () => {
  it.each([
    ['2020-01-01t00:00:00z', '2020-01-01T00:00:00.000Z'],
    ['2020-01-01T05:30:00+05:30', '2020-01-01T00:00:00.000Z'],
    ['2020-01-01T00:00:00.123456Z', '2020-01-01T00:00:00.123Z'],
  ])('--created-after %s is sent as %s', (text, iso) => {
    expect(parseListFlags({ 'created-after': text }, now)).toEqual({ createdAfter: iso })
  })
})

describe('parseListFlags reads its days in --tz with the one date parser (issue 40.2)', () => {
  it('2026-11-03 and yesterday are São Paulo days with --tz, read once', () => {
    expect(parseListFlags({ 'created-after': '2026-11-03', tz: 'America/Sao_Paulo' }, now)).toEqual({ createdAfter: '2026-11-03T03:00:00.000Z' })
    expect(parseListFlags({ 'created-after': 'yesterday', 'created-before': 'today', tz: 'America/Sao_Paulo' }, now)).toEqual({
      createdAfter: '2026-11-19T03:00:00.000Z',
      createdBefore: '2026-11-20T03:00:00.000Z',
    })
  })
  it('an unknown --tz is refused naming --tz', () => {
    expect(() => parseListFlags({ 'created-after': '2026-11-03', tz: 'Mars/Olympus' }, now)).toThrow(/--tz/)
  })
})

describe("the operation's fields named as flags", () => {
  it('the CLI names them as flags', () => {
    expect(() => parseListFlags({ 'created-after': '2026-11-20', 'created-before': '2026-11-19' }, now)).toThrow(/--created-after \(createdAfter\)/)
  })
})

describe("the operator lists' flags", () => {
  it('--settled-*, --lookback and --tz are the settled input; --limit its page size', () => {
    expect(settledInputFromFlags({ 'settled-after': 'yesterday', 'settled-before': 'today', lookback: '7d', tz: 'UTC', limit: '50' })).toEqual({
      settledAfter: 'yesterday',
      settledBefore: 'today',
      lookback: '7d',
      timeZone: 'UTC',
      pageSize: 50,
    })
    expect(() => settledInputFromFlags({ 'settled-after': 'today', limit: '500' })).toThrow(/--limit/)
  })

  it('--grace is read (default 1h); a bad --grace or --tz is one usage error naming both', () => {
    expect(overdueInputFromFlags({})).toEqual({ graceMs: 3_600_000 })
    expect(overdueInputFromFlags({ grace: '30m', tz: 'America/Sao_Paulo' })).toEqual({ graceMs: 1_800_000 })
    const error = (() => {
      try {
        overdueInputFromFlags({ grace: 'soon', tz: 'Mars/Olympus' })
      } catch (e) {
        return e as UsageError
      }
    })()
    expect(error).toBeInstanceOf(UsageError)
    expect(error?.details?.map((d) => d.field)).toEqual(['--grace', '--tz'])
  })
})
