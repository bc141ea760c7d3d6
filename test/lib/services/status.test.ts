/** `getStatus`'s typed input: read before the door's sources are opened, a bad field named by its path. */
import { describe, expect, it } from 'vitest'
import { InputError } from '../../../src/lib/charges/operator-input.js'
import { getStatus } from '../../../src/lib/services/status.js'

describe('getStatus', () => {
  it('refuses every bad duration at once, by path, before asking the door for anything', async () => {
    let opened = 0
    const sources = async () => {
      opened++
      throw new Error('not reached')
    }
    const refused = getStatus({ since: '0s', grace: 'soon' }, sources)
    await expect(refused).rejects.toBeInstanceOf(InputError)
    await expect(refused).rejects.toMatchObject({
      issues: [
        { path: 'since', message: expect.stringContaining('"0s" is not a duration') },
        { path: 'grace', message: expect.stringContaining('"soon" is not a duration') },
      ],
    })
    await expect(getStatus({ since: '36501d' }, sources)).rejects.toMatchObject({ issues: [{ path: 'since', message: expect.stringContaining('longer than the 36500d') }] })
    expect(opened).toBe(0)
  })
})
