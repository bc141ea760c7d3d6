/**
 * The webhook endpoints and their health (deliveries/endpoints.ts, spec 6.4.8): an endpoint with
 * no success in a failed delivery's 24 h window is deactivated with the merchant's e-mail notice,
 * saving its URL again reactivates it, and what is known survives a restart.
 */
import { describe, expect, it } from 'vitest'
import { DeliveryLog } from '../../../../src/lib/sandbox/deliveries/delivery-log.js'
import { Endpoints } from '../../../../src/lib/sandbox/deliveries/endpoints.js'
import { openDatabase } from '../../../../src/lib/sandbox/store/db.js'

const T0 = Date.parse('2026-01-01T00:00:00Z')
const DAY = 24 * 3600_000

function setup() {
  const store = new DeliveryLog(openDatabase({ inMemory: true }))
  const logs: string[] = []
  const open = () =>
    new Endpoints(
      store,
      (write) => write(),
      (l) => logs.push(l),
    )
  return { endpoints: open(), reopen: open, logs }
}

describe('webhook endpoints', () => {
  it('saves one URL per environment, active', () => {
    const { endpoints } = setup()
    expect(endpoints.save('test', 'https://example.test/hook', T0)).toEqual({ environment: 'test', url: 'https://example.test/hook', active: true })
    expect(endpoints.info('live')).toBeUndefined()
    expect(endpoints.target('test')).toMatchObject({ url: 'https://example.test/hook', active: true })
  })

  it('refuses a URL that is not http(s)', () => {
    const { endpoints } = setup()
    expect(() => endpoints.save('test', 'ftp://example.test/', T0)).toThrow(RangeError)
    expect(endpoints.info('test')).toBeUndefined()
  })

  it('deactivates an endpoint with no success in the window, telling the merchant, until its URL is saved again', () => {
    const { endpoints, logs } = setup()
    endpoints.save('test', 'https://example.test/hook', T0)
    endpoints.checkWindow('test', T0 + 1000, T0 + 1000 + DAY)
    expect(endpoints.info('test')).toMatchObject({ active: false, deactivatedAt: new Date(T0 + 1000 + DAY).toISOString() })
    expect(logs.at(-1)).toMatch(/\[e-mail to the merchant\] Your test webhook endpoint https:\/\/example\.test\/hook was deactivated/)
    endpoints.save('test', 'https://example.test/hook', T0 + 2 * DAY)
    expect(endpoints.info('test')?.active).toBe(true)
    expect(logs.at(-1)).toBe('webhooks: test endpoint reactivated: https://example.test/hook')
  })

  it('keeps an endpoint that succeeded within the window, or whose URL was saved after the window began', () => {
    const { endpoints } = setup()
    endpoints.save('test', 'https://example.test/hook', T0)
    endpoints.noteSuccess('test', T0 + 5000)
    endpoints.checkWindow('test', T0 + 1000, T0 + 1000 + DAY)
    expect(endpoints.info('test')).toMatchObject({ active: true, lastSuccessAt: new Date(T0 + 5000).toISOString() })
    endpoints.save('live', 'https://example.test/live', T0 + 2000)
    endpoints.checkWindow('live', T0 + 1000, T0 + 1000 + DAY)
    expect(endpoints.info('live')?.active).toBe(true)
  })

  it('remembers URLs, deactivation and the last success written across a restart', () => {
    const { endpoints, reopen } = setup()
    endpoints.save('test', 'https://example.test/hook', T0)
    endpoints.noteSuccess('test', T0 + 10)
    endpoints.noteSuccess('test', T0 + 20) // within the second: not written yet
    endpoints.save('live', 'https://example.test/live', T0)
    endpoints.checkWindow('live', T0 + 1, T0 + 1 + DAY)
    expect(reopen().info('test')?.lastSuccessAt).toBe(new Date(T0 + 10).toISOString())
    endpoints.persistLastSuccess()
    const again = reopen()
    expect(again.info('test')).toMatchObject({ url: 'https://example.test/hook', active: true, lastSuccessAt: new Date(T0 + 20).toISOString() })
    expect(again.info('live')).toMatchObject({ active: false })
  })

  it('removes a URL (false when none was set)', () => {
    const { endpoints, reopen } = setup()
    endpoints.save('test', 'https://example.test/hook', T0)
    expect(endpoints.remove('test')).toBe(true)
    expect(endpoints.remove('test')).toBe(false)
    expect(reopen().info('test')).toBeUndefined()
  })
})
