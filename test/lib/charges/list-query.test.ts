import { describe, expect, it } from 'vitest'

const now = new Date('2026-11-20T15:00:00Z')

describe('chargeListQuery: one operation for charges list and list_charges (issue 40.1)', () => {
  it('names a bad field by its path, another field as {path}, never a flag', async () => {
    const { readListQuery } = await import('../../../src/lib/charges/list-query.js')
    const { InputError } = await import('../../../src/lib/charges/operator-input.js')
    let error: unknown
    try {
      readListQuery({ createdAfter: '2026-11-20', createdBefore: '2026-11-19', startingAfter: 'x' }, now)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(InputError)
    expect((error as InstanceType<typeof InputError>).issues).toEqual([
      { path: 'startingAfter', message: 'must be a charge id (24 hexadecimal characters)' },
      { path: 'createdAfter', message: 'must be earlier than {createdBefore}' },
    ])
  })
  it('reads a date that counts back on the service clock, after one request for its Date header', async () => {
    const { chargeListQuery } = await import('../../../src/lib/charges/list-query.js')
    const serviceNow = new Date('2026-11-23T15:00:00Z')
    const calls: unknown[] = []
    const client = async () => ({ listCharges: async (q: unknown) => void calls.push(q) as never, serverNow: () => serviceNow })
    expect(await chargeListQuery({ createdAfter: '2h' }, client)).toEqual({ createdAfter: '2026-11-23T13:00:00.000Z' })
    expect(calls).toEqual([{ limit: 1 }])
  })
})
