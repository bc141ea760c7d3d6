/** The CLI's edge of the operator's inputs: an input's field paths named as the flags that feed them, in one usage error. */
import { describe, expect, it } from 'vitest'
import { FlagReader, flagOf, withFlags } from '../../../src/lib/command-kit/operator-flags.js'
import { InputError } from '../../../src/lib/charges/operator-input.js'
import { UsageError } from '../../../src/lib/errors.js'

function caught(run: () => unknown): unknown {
  try {
    run()
  } catch (e) {
    return e
  }
  return undefined
}

describe('operator flags', () => {
  it('names a path as its flag: kebab-case, timeZone as --tz', () => {
    expect(flagOf('settledAfter')).toBe('--settled-after')
    expect(flagOf('timeZone')).toBe('--tz')
    expect(flagOf('from')).toBe('--from')
  })

  it('withFlags: an InputError becomes one usage error naming the flags, {path} in a message too; anything else passes', async () => {
    const error = await withFlags('See the help.', () => {
      throw new InputError([
        { path: 'settledAfter', message: 'must be earlier than {settledBefore}' },
        { path: 'timeZone', message: 'is unknown' },
      ])
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UsageError)
    expect(error).toMatchObject({
      message: '2 flags are invalid; nothing was sent.',
      hint: 'See the help.',
      details: [
        { field: '--settled-after', message: 'must be earlier than --settled-before' },
        { field: '--tz', message: 'is unknown' },
      ],
    })
    const other = new Error('boom')
    await expect(withFlags('h', () => Promise.reject(other))).rejects.toBe(other)
  })

  it('FlagReader: the reader with the flags named at done()', () => {
    const r = new FlagReader('See `svc status --help`.')
    expect(r.duration('since', '2h', '24h')).toBe(7_200_000)
    r.duration('grace', 'soon', '1h')
    expect(caught(() => r.done())).toMatchObject({ message: 'Invalid --grace; nothing was sent.', details: [{ field: '--grace', message: '"soon" is not a duration: use e.g. 30m, 1h, 24h, 7d' }] })
  })
})
