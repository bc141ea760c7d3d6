import { describe, expect, it } from 'vitest'
import { RecordingDeliveries } from '../../../../src/lib/sandbox/deliveries/null-sink.js'
import { resourceEvent } from '../../../../src/lib/sandbox/engine/resource-events.js'

describe('RecordingDeliveries: a worker that delivers nothing', () => {
  it('records every event it is given and keeps one endpoint per environment', () => {
    const sink = new RecordingDeliveries()
    const event = resourceEvent('withdrawal.paid', 'test', Date.parse('2026-11-22T12:00:00Z'), 'withdrawal:wd_1', {})
    sink.publish(event)
    expect(sink.events).toEqual([event])
    expect(sink.setEndpoint('test', 'http://127.0.0.1:3000/hooks')).toEqual({ environment: 'test', url: 'http://127.0.0.1:3000/hooks', active: true })
    expect(sink.getEndpoint('test')?.url).toBe('http://127.0.0.1:3000/hooks')
    expect(sink.getEndpoint('live')).toBeUndefined()
    expect(sink.removeEndpoint('test')).toBe(true)
    expect(sink.removeEndpoint('test')).toBe(false)
  })

  it('has no delivery log and nothing to resend', () => {
    const sink = new RecordingDeliveries()
    expect(sink.list()).toEqual([])
    expect(sink.resend()).toBeUndefined()
  })
})
