import { describe, expect, it } from 'vitest'
import { type CancelResult, cancelCharges, normalizeIds } from '../../../src/lib/services/cancel-charges.js'
import { ApiError, NetworkError, UsageError } from '../../../src/lib/errors.js'
import { charge } from '../../helpers/api-fixtures.js'

const id = (n: number) => n.toString(16).padStart(24, '0')

describe('normalizeIds', () => {
  it('trims, drops blanks and repeats, keeping the order', () => {
    expect(normalizeIds([` ${id(2)} `, '', id(1), id(2)], 'as arguments')).toEqual([id(2), id(1)])
  })
  it('refuses the whole batch when one value is not an id', () => {
    expect(() => normalizeIds([id(1), 'nope'], 'on stdin')).toThrow(UsageError)
  })
  it('refuses an empty batch', () => {
    expect(() => normalizeIds([' '], 'on stdin')).toThrow(/No charge ids given on stdin/)
  })
})

describe('cancelCharges', () => {
  it('reports every result in order and returns the worst exit code', async () => {
    const results: CancelResult[] = []
    const outcomes: Record<string, () => Promise<ReturnType<typeof charge>>> = {
      [id(1)]: async () => charge({ id: id(1), status: 'canceled' }),
      [id(2)]: async () => {
        throw new ApiError({ status: 404, code: 'charge_not_found', message: 'x' })
      },
      [id(3)]: async () => {
        throw new NetworkError('down')
      },
      [id(4)]: async () => {
        throw new ApiError({ status: 409, code: 'charge_not_cancelable', message: 'x' })
      },
    }
    const worst = await cancelCharges(
      [id(1), id(2), id(3), id(4)],
      (i) => outcomes[i]!(),
      (r) => results.push(r),
    )
    expect(results.map((r) => [r.id, r.ok ? 0 : r.exitCode])).toEqual([
      [id(1), 0],
      [id(2), 4],
      [id(3), 7],
      [id(4), 5],
    ])
    expect(worst).toBe(7)
  })

  it('a bug while canceling one id counts as exit 1 and does not stop the others', async () => {
    const seen: string[] = []
    const worst = await cancelCharges(
      [id(1), id(2)],
      async (i) => {
        if (i === id(1)) throw new TypeError('bug')
        return charge({ id: i, status: 'canceled' })
      },
      (r) => seen.push(r.id),
    )
    expect(seen).toEqual([id(1), id(2)])
    expect(worst).toBe(1)
  })
})
