/** A door's validation error: every issue at once, in the door's words (`flags` for the CLI, `arguments` for svc mcp). */
import { describe, expect, it } from 'vitest'
import { echoed, flagLabel, flagsError, stripFieldName } from '../../../src/lib/charges/flag-issues.js'

describe('flag issues', () => {
  it('labels a flag with the API field it feeds, or alone', () => {
    expect(flagLabel('amount', 'amountInCents')).toBe('--amount (amountInCents)')
    expect(flagLabel('split')).toBe('--split')
  })

  it("drops the field's name from the front of a schema message", () => {
    expect(stripFieldName('amountInCents must be at least 1000', 'amountInCents')).toBe('must be at least 1000')
    expect(stripFieldName('metadata must hold at most 20 entries', 'metadata.color')).toBe('must hold at most 20 entries')
    expect(stripFieldName('must not be empty', 'externalId')).toBe('must not be empty')
  })

  it('quotes a value, cut to 40 characters', () => {
    expect(echoed('abc')).toBe('"abc"')
    expect(echoed('x'.repeat(50))).toBe(`"${'x'.repeat(40)}…" (50 characters)`)
  })

  it('one issue names the field; several are counted in the door’s noun; exit 2 with every detail', () => {
    const one = flagsError([{ field: '--tz', message: 'is unknown' }], 'See the help.')
    expect(one).toMatchObject({ exitCode: 2, message: 'Invalid --tz; nothing was sent.', hint: 'See the help.', details: [{ field: '--tz', message: 'is unknown' }] })
    const two = [
      { field: 'from', message: 'is required' },
      { field: 'to', message: 'is required' },
    ]
    expect(flagsError(two, 'h').message).toBe('2 flags are invalid; nothing was sent.')
    expect(flagsError(two, 'h', 'arguments').message).toBe('2 arguments are invalid; nothing was sent.')
  })
})
