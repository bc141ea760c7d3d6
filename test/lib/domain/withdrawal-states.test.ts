import { describe, expect, it } from 'vitest'
import { WITHDRAWAL_LANE, WITHDRAWAL_STARTED_EVENT, withdrawalTransition } from '../../../src/lib/domain/withdrawal-states.js'

describe('the withdrawal state machine (spec 6.3)', () => {
  it('a withdrawal starts processing, then is paid or failed, each with its event', () => {
    expect(WITHDRAWAL_STARTED_EVENT).toBe('withdrawal.processing')
    expect(withdrawalTransition('processing', 'paid')?.event).toBe('withdrawal.paid')
    expect(withdrawalTransition('processing', 'failed')?.event).toBe('withdrawal.failed')
  })

  it('has no way back and none between the final states', () => {
    expect(withdrawalTransition('paid', 'processing')).toBeUndefined()
    expect(withdrawalTransition('failed', 'paid')).toBeUndefined()
    expect(withdrawalTransition('paid', 'failed')).toBeUndefined()
  })

  it('draws its lane in order, processing before paid', () => {
    expect(WITHDRAWAL_LANE).toEqual(['processing', 'paid'])
  })
})
