/**
 * domain/charge-contributions.ts, the memory of a report (what each charge added, by id): for any
 * sequence of records, reads and deletions, it answers as a Map of arrays does, whatever the ids
 * (the service's 24 hexadecimal digits, or anything else: an id is opaque) and however far it
 * grows past its first capacity.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ChargeContributions } from '../../../src/lib/domain/charge-contributions.js'

// Few distinct ids, so that the same id comes again; hex ids that differ in one word only, and ids of other forms.
const hexWord = fc.constantFrom('00000000', 'ffffffff', '01a221ba', '95530000', '00000001', 'deadbeef')
const hexId = fc.tuple(hexWord, hexWord, hexWord).map((w) => w.join(''))
const otherId = fc.constantFrom('', 'x', '01A221BA9553000000000001', `${'a'.repeat(24)} `, 'ch_123', 'a'.repeat(23), 'a'.repeat(25))
const id = fc.oneof({ weight: 4, arbitrary: hexId }, { weight: 1, arbitrary: otherId })
const values = fc.array(fc.oneof(fc.integer({ min: -1, max: 400 }), fc.integer({ min: 0, max: 2 ** 53 - 1 })), { minLength: 3, maxLength: 3 })
const op = fc.oneof(fc.record({ kind: fc.constant('set' as const), id, values }), fc.record({ kind: fc.constant('get' as const), id }), fc.record({ kind: fc.constant('delete' as const), id }))

describe('ChargeContributions', () => {
  it('answers as a Map of arrays for any sequence of set, get and delete', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), fc.integer({ min: 1, max: 64 }), (ops, capacity) => {
        const table = new ChargeContributions(3, capacity)
        const model = new Map<string, number[]>()
        for (const o of ops) {
          if (o.kind === 'set') {
            table.set(o.id, o.values)
            model.set(o.id, o.values)
          } else if (o.kind === 'delete') {
            table.delete(o.id)
            model.delete(o.id)
          } else expect(table.get(o.id)).toEqual(model.get(o.id))
        }
        for (const key of model.keys()) expect(table.get(key)).toEqual(model.get(key))
      }),
      { numRuns: 300 },
    )
  })

  it('keeps 100 000 distinct ids of the service’s form apart, past many growths', () => {
    const table = new ChargeContributions(2, 4)
    const idOf = (i: number) => `01a221ba${((i * 2_654_435_761) >>> 0).toString(16).padStart(8, '0')}${i.toString(16).padStart(8, '0')}`
    for (let i = 0; i < 100_000; i++) table.set(idOf(i), [i, -i])
    for (let i = 0; i < 100_000; i += 997) expect(table.get(idOf(i))).toEqual([i, -i])
    expect(table.get(idOf(100_000))).toBeUndefined()
  })
})
