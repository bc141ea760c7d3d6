import { describe, expect, it } from 'vitest'
import { splitOf } from '../../../src/lib/contract/charge-split.js'
import type { Charge } from '../../../src/lib/contract/schemas.js'

describe('splitOf', () => {
  it("is a split charge's division, and undefined on another charge", () => {
    const split = { status: 'pending', destinations: [] }
    expect(splitOf({ id: 'c1', split } as unknown as Charge)).toBe(split)
    expect(splitOf({ id: 'c2' } as unknown as Charge)).toBeUndefined()
  })
})
