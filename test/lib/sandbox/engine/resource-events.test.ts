import { describe, expect, it } from 'vitest'
import { resourceEvent } from '../../../../src/lib/sandbox/engine/resource-events.js'

describe('events of withdrawals, split charges and product sales', () => {
  it('are the JSON a receiver gets, {id, type, createdAt, environment, data}, stored as the exact text signed', () => {
    const at = Date.parse('2026-11-22T12:00:00Z')
    const e = resourceEvent('withdrawal.paid', 'test', at, 'withdrawal:wd_1', { id: 'wd_1', status: 'paid' })
    expect(JSON.parse(e.body)).toEqual({ id: e.id, type: 'withdrawal.paid', createdAt: '2026-11-22T12:00:00.000Z', environment: 'test', data: { id: 'wd_1', status: 'paid' } })
    expect(e).toMatchObject({ type: 'withdrawal.paid', environment: 'test', createdAt: '2026-11-22T12:00:00.000Z', resourceKey: 'withdrawal:wd_1' })
    expect(e.id).toMatch(/^evt_/)
  })
})
