/** `listEventLog`: the typed input read before the log is opened, then its rows page by page, the log closed after. */
import { describe, expect, it } from 'vitest'
import { InputError } from '../../../src/lib/charges/operator-input.js'
import { listEventLog } from '../../../src/lib/services/webhook-events.js'
import { EventStore } from '../../../src/lib/webhooks/event-store.js'
import { freshConfigDir } from '../../helpers/config.js'

const NOW = new Date('2026-11-20T12:00:00Z')

async function logOf(n: number): Promise<() => Promise<EventStore>> {
  const env = { SVC_CONFIG_DIR: freshConfigDir() }
  const store = await EventStore.open({ env })
  for (let i = 0; i < n; i++) {
    store.record({
      receivedAt: new Date(NOW.getTime() - (n - i) * 3_600_000).toISOString(),
      source: 'service',
      eventId: `evt_${i}`,
      type: i % 2 ? 'charge.paid' : 'withdrawal.paid',
      headers: {},
      body: new TextEncoder().encode('{}'),
      verification: 'verified',
      outcome: i === 0 ? 'failed' : 'forwarded',
      answeredStatus: 200,
    })
  }
  await store.committed()
  store.close()
  return () => EventStore.open({ env })
}

describe('listEventLog', () => {
  it('refuses a bad since and limit at once, by path, and opens no log', async () => {
    let opened = 0
    const ctx = { openEventStore: async () => (opened++, EventStore.open({ env: { SVC_CONFIG_DIR: freshConfigDir() } })), now: () => NOW }
    const refused = listEventLog({ since: 'last tuesday', limit: 0 }, ctx)
    await expect(refused).rejects.toBeInstanceOf(InputError)
    await expect(refused).rejects.toMatchObject({ issues: [{ path: 'since', message: expect.stringContaining('is not a date') }, { path: 'limit' }] })
    expect(opened).toBe(0)
  })

  it('hands the rows newest first, up to limit, filtered; since counts back on the clock given', async () => {
    const open = await logOf(6)
    const ctx = { openEventStore: open, now: () => NOW }
    const ids = async (input: Parameters<typeof listEventLog>[0]) => [...(await listEventLog(input, ctx)).pages].flat().map((r) => r.eventId)
    expect(await ids({})).toEqual(['evt_5', 'evt_4', 'evt_3', 'evt_2', 'evt_1', 'evt_0'])
    expect(await ids({ limit: 2 })).toEqual(['evt_5', 'evt_4'])
    expect(await ids({ limit: 2, all: true })).toHaveLength(6)
    expect(await ids({ type: 'charge.*' })).toEqual(['evt_5', 'evt_3', 'evt_1'])
    expect(await ids({ state: 'failed' })).toEqual(['evt_0'])
    expect(await ids({ since: '3h' })).toEqual(['evt_5', 'evt_4', 'evt_3'])
  })

  it('closes the log once its rows are read, or when the door closes it first', async () => {
    const open = await logOf(1)
    const stores: EventStore[] = []
    const ctx = { openEventStore: async () => (stores.push(await open()), stores.at(-1)!), now: () => NOW }
    const read = await listEventLog({}, ctx)
    expect(read.path).toBe(stores[0]!.path)
    expect([...read.pages].flat()).toHaveLength(1)
    expect(() => stores[0]!.page({ limit: 1 })).toThrow()
    const unread = await listEventLog({}, ctx)
    unread.close()
    unread.close()
    expect(() => stores[1]!.page({ limit: 1 })).toThrow()
  })
})
