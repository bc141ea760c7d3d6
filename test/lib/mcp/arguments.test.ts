/** The MCP door's edge of the typed operations: an input's field paths become the tool's arguments. */
import { describe, expect, it } from 'vitest'
import { InputError } from '../../../src/lib/charges/operator-input.js'
import { UsageError } from '../../../src/lib/errors.js'
import { inArguments } from '../../../src/lib/mcp/arguments.js'

describe('inArguments', () => {
  it('names every bad field as the argument, in one usage error, messages included', async () => {
    const refused = inArguments(
      async () => {
        throw new InputError([
          { path: 'since', message: '"0s" is not a duration' },
          { path: 'timeZone', message: 'must go with {since}' },
        ])
      },
      (path) => (path === 'timeZone' ? 'tz' : path),
    )
    await expect(refused).rejects.toBeInstanceOf(UsageError)
    await expect(refused).rejects.toMatchObject({
      exitCode: 2,
      details: [
        { field: 'since', message: '"0s" is not a duration' },
        { field: 'tz', message: 'must go with since' },
      ],
      hint: 'See the tool description.',
    })
  })

  it('passes a result, and any other error, through as they are', async () => {
    expect(await inArguments(async () => 42)).toBe(42)
    const other = new Error('boom')
    await expect(
      inArguments(async () => {
        throw other
      }),
    ).rejects.toBe(other)
  })
})
