import { describe, expect, it } from 'vitest'
import { InputError, inDoorWords, readReportRange, readSettledRange } from '../../../src/lib/charges/operator-input.js'

const now = new Date('2026-11-26T15:00:00Z')

function issuesOf(run: () => unknown) {
  try {
    run()
  } catch (e) {
    if (e instanceof InputError) return e.issues
    throw e
  }
  throw new Error('no InputError')
}

describe('operator inputs name their fields by path, never by a flag (issue 40.1)', () => {
  it('a report range reads its days in its zone, the last day included', () => {
    expect(readReportRange({ from: '2026-11-03', to: '2026-11-03', timeZone: 'America/Sao_Paulo' }, now)).toEqual({
      from: new Date('2026-11-03T03:00:00Z'),
      to: new Date('2026-11-04T03:00:00Z'),
      by: 'day',
      timeZone: 'America/Sao_Paulo',
    })
  })
  it('every bad field at once, by path, another field named as {path}', () => {
    const issues = issuesOf(() => readReportRange({ from: '2026-11-05', to: '2026-11-03', timeZone: 'UTC', by: 'year' }, now))
    expect(issues.map((i) => i.path)).toEqual(['by', 'from'])
    expect(issues[1]!.message).toBe('must be earlier than {to}')
    expect(issues.every((i) => !i.message.includes('--'))).toBe(true)
    expect(inDoorWords(issues[1]!.message, (p) => `--${p}`)).toBe('must be earlier than --to')
  })
  it('an unknown zone is the timeZone field; a date form names the zone field as {timeZone}', () => {
    const issues = issuesOf(() => readSettledRange({ settledAfter: 'soon', timeZone: 'Mars/Olympus' }, now))
    expect(issues.map((i) => i.path)).toEqual(['timeZone', 'settledAfter'])
    expect(issues[1]!.message).toContain('in {timeZone}')
  })
  it('the order waits for the clock that decides', () => {
    expect(() => readSettledRange({ settledAfter: '2026-11-27', settledBefore: 'today', timeZone: 'UTC' }, now, false)).not.toThrow()
    expect(issuesOf(() => readSettledRange({ settledAfter: '2026-11-27', settledBefore: 'today', timeZone: 'UTC' }, now)).map((i) => i.path)).toEqual(['settledAfter'])
  })
})
