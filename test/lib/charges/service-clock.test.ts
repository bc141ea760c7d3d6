/** Dates that count back are read on the service's clock; bad ones fail before any request. */
import { describe, expect, it } from 'vitest'
import { readOnServiceClock } from '../../../src/lib/charges/service-clock.js'

const SERVICE_NOW = new Date('2030-01-01T00:00:00Z')

function fakeClient() {
  const calls: unknown[] = []
  return { calls, client: async () => ({ listCharges: async (q: unknown) => void calls.push(q) as never, serverNow: () => SERVICE_NOW }) }
}

describe('readOnServiceClock', () => {
  it("reads on this machine's clock, with no request, when nothing counts back", async () => {
    const f = fakeClient()
    const seen: Date[] = []
    await readOnServiceClock(f.client, false, (now) => seen.push(now))
    expect(f.calls).toEqual([])
    expect(seen).toHaveLength(1)
    expect(seen[0]).not.toEqual(SERVICE_NOW)
  })

  it("reads again on the service's clock (one small request) when a date counts back", async () => {
    const f = fakeClient()
    const value = await readOnServiceClock(f.client, true, (now) => now.toISOString())
    expect(f.calls).toEqual([{ limit: 1 }])
    expect(value).toBe(SERVICE_NOW.toISOString())
  })

  it('throws what the reading throws before any request: a bad flag sends nothing', async () => {
    const f = fakeClient()
    await expect(
      readOnServiceClock(f.client, true, () => {
        throw new Error('--from is not a date')
      }),
    ).rejects.toThrow('--from')
    expect(f.calls).toEqual([])
  })
})

describe('readOnServiceClock: who decides the order (issue 36.2)', () => {
  it('the first reading does not decide when a date counts back; the one on the service clock does', async () => {
    const f = fakeClient()
    const seen: Array<[string, boolean]> = []
    await readOnServiceClock(f.client, true, (now, decides) => seen.push([now.toISOString(), decides]))
    expect(seen.map((s) => s[1])).toEqual([false, true])
    expect(seen[1]![0]).toBe(SERVICE_NOW.toISOString())
  })

  it('with nothing counting back, the one reading on this machine decides', async () => {
    const f = fakeClient()
    const seen: boolean[] = []
    await readOnServiceClock(f.client, false, (_now, decides) => seen.push(decides))
    expect(seen).toEqual([true])
  })
})
