import { describe, expect, it } from 'vitest'
import { isRelativeDate, parseDate, parseInstant, relativeTime, rfc3339Millis } from '../../../src/lib/domain/time.js'

const now = new Date('2026-11-20T15:00:00Z')

describe('parseInstant refuses dates and times that do not exist', () => {
  it.each([['2026-02-30'], ['2026-02-29'], ['2026-04-31'], ['2026-13-45'], ['2026-00-10'], ['2026-02-30T10:00:00Z'], ['2026-01-01T24:00:00Z'], ['2026-01-01T23:60:00-03:00']])(
    '%s is refused, not rolled over to another day',
    (text) => {
      expect(parseInstant(text, now)).toBeUndefined()
    },
  )

  it('accepts real dates, including 29 February of a leap year and the last day of a month', () => {
    expect(parseInstant('2028-02-29T12:00:00Z', now)?.toISOString()).toBe('2028-02-29T12:00:00.000Z')
    expect(parseInstant('2026-04-30T23:59:59-03:00', now)?.toISOString()).toBe('2026-05-01T02:59:59.000Z')
    const local = parseInstant('2026-12-31', now)!
    expect([local.getFullYear(), local.getMonth(), local.getDate(), local.getHours()]).toEqual([2026, 11, 31, 0])
  })
})

describe('relativeTime', () => {
  const at = (ms: number) => new Date(now.getTime() + ms)
  it('says how long ago, or how long until', () => {
    expect(relativeTime(at(-3 * 60_000), now)).toBe('3 min ago')
    expect(relativeTime(at(2 * 3_600_000), now)).toBe('in 2 h')
  })

  it('an event that already happened is never in the future: a clock ahead of ours reads "just now"', () => {
    expect(relativeTime(at(2 * 3_600_000), now, { happened: true })).toBe('just now')
    expect(relativeTime(at(-3 * 60_000), now, { happened: true })).toBe('3 min ago')
  })
})

describe('rfc3339Millis: RFC 3339 section 5.6, all of it and only it (issue 29 item 28)', () => {
  it.each([
    ['2020-01-01t00:00:00z', '2020-01-01T00:00:00.000Z'],
    ['2020-01-01T00:00:00z', '2020-01-01T00:00:00.000Z'],
    ['2020-01-01t00:00:00Z', '2020-01-01T00:00:00.000Z'],
    ['2020-01-01T05:30:00+05:30', '2020-01-01T00:00:00.000Z'],
    ['2019-12-31T21:00:00-03:00', '2020-01-01T00:00:00.000Z'],
    ['2020-01-01T00:00:00-00:00', '2020-01-01T00:00:00.000Z'],
    ['2020-01-01T00:00:00.5Z', '2020-01-01T00:00:00.500Z'],
    ['2020-01-01T00:00:00.05Z', '2020-01-01T00:00:00.050Z'],
    ['2020-01-01T00:00:00.123456789Z', '2020-01-01T00:00:00.123Z'],
    ['2020-01-01T00:00:00.9999Z', '2020-01-01T00:00:00.999Z'],
    ['2016-12-31T23:59:60Z', '2017-01-01T00:00:00.000Z'],
    ['2028-02-29T12:00:00Z', '2028-02-29T12:00:00.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
  ])('%s is %s', (text, iso) => {
    expect(new Date(rfc3339Millis(text)!).toISOString()).toBe(iso)
  })

  it.each([
    '2020-01-01 00:00:00Z',
    '2020-01-01T00:00Z',
    '2020-01-01T00:00:00',
    '2020-01-01T00:00:00+0530',
    '2020-01-01T00:00:00+24:00',
    '2020-01-01T00:00:00+05:60',
    '2020-01-01T24:00:00Z',
    '2020-01-01T00:60:00Z',
    '2020-01-01T00:00:61Z',
    '2020-02-30T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '2020-13-01T00:00:00Z',
    '2020-01-01T00:00:00.Z',
    ' 2020-01-01T00:00:00Z',
    '2020-01-01',
  ])('%s is not an RFC 3339 date-time', (text) => {
    expect(rfc3339Millis(text)).toBeUndefined()
  })

  it('the CLI reads the same forms (parseInstant)', () => {
    expect(parseInstant('2020-01-01t00:00:00z', now)?.toISOString()).toBe('2020-01-01T00:00:00.000Z')
    expect(parseInstant('2016-12-31T23:59:60Z', now)?.toISOString()).toBe('2017-01-01T00:00:00.000Z')
  })
})

describe("the service's dates (issue 36.19)", () => {
  it('an age past any date is no instant, and is told apart from a typo', async () => {
    const { instantBeyondService, isServiceInstant, serviceBound } = await import('../../../src/lib/domain/time.js')
    expect(parseInstant('999999999d', now)).toBeUndefined()
    expect(instantBeyondService('999999999d', now)).toBe(true)
    expect(instantBeyondService('soon', now)).toBe(false)
    expect(parseInstant('0000-01-01T00:00:00Z', now)?.toISOString()).toBe('0000-01-01T00:00:00.000Z')
    expect(isServiceInstant(new Date(Number.NaN))).toBe(false)
    expect(serviceBound(-1e15)).toBe('0000-01-01T00:00:00.000Z')
    expect(serviceBound(1e15)).toBe('9999-12-31T23:59:59.999Z')
  })
})

describe('parseDate is the one parser of every door (issue 40.2)', () => {
  it('an operator date and an API date read the same forms the same way', () => {
    for (const text of ['2h', '2h ago', '7d', 'now', '2016-12-31T23:59:60Z', '2026-11-20t10:00:00z', '2026-11-20T10:00-03:00']) {
      expect(parseDate(text, { now, timeZone: 'UTC' })?.toISOString()).toBe(parseInstant(text, now)?.toISOString())
    }
  })
  it('a whole day ends at the next day with edge end, in its zone', () => {
    expect(parseDate('today', { now, timeZone: 'America/Sao_Paulo', edge: 'end' })?.toISOString()).toBe('2026-11-21T03:00:00.000Z')
  })
  it('only ages and day words count back from now', () => {
    expect(['2h', 'today', 'yesterday', 'now', '7d ago'].every(isRelativeDate)).toBe(true)
    expect(['2026-11-03', '2026-11-03T10:00:00Z', '2026-11-03T10:00-03:00'].some(isRelativeDate)).toBe(false)
  })
})
