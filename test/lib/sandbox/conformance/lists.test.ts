/** Spec 4.2: newest first, filters, limit, cursor pagination exactly once while charges keep arriving. */
import { ChargeListSchema } from '../../../../src/lib/contract/schemas.js'
import { describe, expect, it } from 'vitest'
import { errorOf, useHarness } from '../../../helpers/conformance.js'

const h = useHarness()

const list = async (query: string, key?: string) => {
  const r = await h.call('GET', `/v1/charges${query}`, key ? { key } : {})
  return r
}
const ids = (r: { body: { data: Array<{ id: string }> } }) => r.body.data.map((c) => c.id)

describe('listing', () => {
  it('lists newest first, also among charges created in the same millisecond, default limit 20', async () => {
    const made: string[] = []
    for (let i = 0; i < 22; i++) {
      if (i % 3 === 0) await h.clock.advance(1000)
      made.push((await h.create({ externalId: `list-${i}` })).body.id)
    }
    const r = await list('')
    expect(r.status).toBe(200)
    ChargeListSchema.parse(r.body)
    expect(ids(r)).toEqual(made.slice(-20).reverse())
    expect(r.body.hasMore).toBe(true)
  })

  it('filters by status, externalId, createdAfter and createdBefore (both exclusive)', async () => {
    await h.clock.advance(60_000)
    const a = (await h.create({ externalId: 'flt-a' })).body
    await h.clock.advance(60_000)
    const b = (await h.create({ externalId: 'flt-b' })).body
    await h.clock.advance(60_000)
    const c = (await h.create({ externalId: 'flt-c' })).body
    await h.call('POST', `/v1/charges/${b.id}/cancel`)

    expect(ids(await list('?status=canceled'))).toEqual([b.id])
    expect(ids(await list('?externalId=flt-c'))).toEqual([c.id])
    expect(ids(await list(`?createdAfter=${encodeURIComponent(a.createdAt)}`))).toEqual([c.id, b.id])
    expect(ids(await list(`?createdAfter=${encodeURIComponent(a.createdAt)}&createdBefore=${encodeURIComponent(c.createdAt)}`))).toEqual([b.id])
    expect(ids(await list(`?status=awaiting_payment&createdAfter=${encodeURIComponent(a.createdAt)}`))).toEqual([c.id])
    const offset = new Date(Date.parse(b.createdAt)).toISOString().replace('Z', '+00:00')
    expect(ids(await list(`?createdBefore=${encodeURIComponent(offset)}&limit=1`))).toEqual([a.id])
    expect(ids(await list('?externalId=nope'))).toEqual([])
  })

  it('reads createdAfter/createdBefore as RFC 3339 does: lower-case t and z, offsets, fractions (issue 29 item 28)', async () => {
    await h.clock.advance(60_000)
    const a = (await h.create({ externalId: 'rfc-a' })).body
    await h.clock.advance(60_000)
    const b = (await h.create({ externalId: 'rfc-b' })).body
    const ms = Date.parse(b.createdAt)
    const upper = new Date(ms).toISOString()
    const forms = [upper.toLowerCase(), upper.replace('T', 't'), upper.replace('Z', 'z'), new Date(ms + 5.5 * 3_600_000).toISOString().replace('Z', '+05:30'), upper.replace('Z', '000123Z')]
    const want = ids(await list(`?createdBefore=${encodeURIComponent(upper)}&limit=1`))
    expect(want).toEqual([a.id])
    for (const form of forms) {
      const r = await list(`?createdBefore=${encodeURIComponent(form)}&limit=1`)
      expect(r.status, form).toBe(200)
      expect(ids(r), form).toEqual(want)
      // Both bounds are exclusive: after b's own instant, b is not listed.
      expect(ids(await list(`?createdAfter=${encodeURIComponent(form)}&externalId=rfc-b`)), form).toEqual([])
    }
    for (const bad of ['2020-01-01 00:00:00Z', '2020-02-30T00:00:00Z', '2020-01-01T00:00:00+24:00']) {
      const r = await list(`?createdAfter=${encodeURIComponent(bad)}`)
      expect(r.status, bad).toBe(400)
      expect(errorOf(r).details).toEqual([expect.objectContaining({ field: 'createdAfter', message: expect.stringMatching(/RFC 3339/) })])
    }
  })

  it('rejects a bad parameter with 400 and one detail per parameter', async () => {
    for (const [query, fields] of [
      ['?limit=0', ['limit']],
      ['?limit=101', ['limit']],
      ['?limit=abc', ['limit']],
      ['?status=paid', ['status']],
      ['?createdAfter=yesterday&limit=200', ['createdAfter', 'limit']],
      [`?externalId=${'x'.repeat(129)}`, ['externalId']],
    ] as const) {
      const r = await list(query)
      expect(r.status, query).toBe(400)
      const e = errorOf(r)
      expect(e.code).toBe('invalid_request')
      expect(e.details!.map((d) => d.field).sort()).toEqual([...fields].sort())
    }
    expect((await list('?limit=100')).status).toBe(200)
    expect((await list('?limit=1')).body.data).toHaveLength(1)
  })

  it('rejects a startingAfter that is no charge of this environment', async () => {
    const live = (await h.create({}, { key: h.sb.liveKey })).body
    for (const cursor of ['ffffffffffffffffffffffff', live.id]) {
      const r = await list(`?startingAfter=${cursor}`)
      expect(r.status).toBe(400)
      expect(errorOf(r).details).toEqual([{ field: 'startingAfter', message: expect.any(String) }])
    }
  })
})

describe('cursor pagination', () => {
  it('returns each charge exactly once across pages while new charges keep arriving', async () => {
    const existing: string[] = []
    let cursor: string | undefined
    for (;;) {
      const page = await list(`?limit=7${cursor ? `&startingAfter=${cursor}` : ''}`)
      existing.push(...ids(page))
      if (!page.body.hasMore) break
      cursor = ids(page).at(-1)
    }
    expect(new Set(existing).size).toBe(existing.length)

    // Walk again in small pages, creating charges between pages (some in the same millisecond).
    const seen: string[] = []
    const arrived: string[] = []
    cursor = undefined
    let pages = 0
    for (;;) {
      const page = await list(`?limit=4${cursor ? `&startingAfter=${cursor}` : ''}`)
      seen.push(...ids(page))
      pages++
      arrived.push((await h.create()).body.id)
      if (pages % 2 === 0) await h.clock.advance(1)
      arrived.push((await h.create()).body.id)
      if (!page.body.hasMore) break
      cursor = ids(page).at(-1)
    }
    expect(seen).toEqual(existing)
    for (const id of arrived) expect(seen).not.toContain(id)
    expect(ids(await list(`?limit=${arrived.length}`))).toEqual([...arrived].reverse())
  })

  it('says hasMore false on the last page, also when it is exactly full', async () => {
    await h.clock.advance(3_600_000)
    const since = encodeURIComponent(new Date(h.clock.now() - 1).toISOString())
    const made = [(await h.create()).body.id, (await h.create()).body.id, (await h.create()).body.id]
    const full = await list(`?createdAfter=${since}&limit=3`)
    expect(ids(full)).toEqual([...made].reverse())
    expect(full.body.hasMore).toBe(false)
    const first = await list(`?createdAfter=${since}&limit=2`)
    expect(first.body.hasMore).toBe(true)
    const last = await list(`?createdAfter=${since}&limit=2&startingAfter=${ids(first).at(-1)}`)
    expect(ids(last)).toEqual([made[0]])
    expect(last.body.hasMore).toBe(false)
  })
})
