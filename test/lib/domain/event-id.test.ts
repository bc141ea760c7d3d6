import { describe, expect, it } from 'vitest'
import { eventIdAt, instantHex } from '../../../src/lib/domain/event-id.js'

describe('event ids', () => {
  it('are evt_, the instant in 12 hex, then the 12 random hex characters given', () => {
    expect(eventIdAt(Date.parse('2026-11-27T00:00:00Z'), 'a1b2c3d4e5f6')).toBe(`evt_${Date.parse('2026-11-27T00:00:00Z').toString(16).padStart(12, '0')}a1b2c3d4e5f6`)
  })

  it('sort like their instants', () => {
    expect(instantHex(1) < instantHex(2) && instantHex(2) < instantHex(1e13)).toBe(true)
    expect(instantHex(-5)).toBe('000000000000')
  })
})
