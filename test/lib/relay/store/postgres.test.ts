/**
 * The PostgreSQL store against a real server (test/helpers/postgres.ts): what only PostgreSQL
 * has to keep — group commit in one transaction, seqs in commit order across instances, NOTIFY
 * wake-ups with the poll behind them, the stream lease, the database going away and coming back.
 * The behaviour every store keeps is the shared suite's (store-contract.ts).
 */
import { createHash, randomBytes } from 'node:crypto'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openPostgresRelayStore, type PostgresRelayStore } from '../../../../src/lib/relay/store/postgres.js'
import { RelaySchemaError } from '../../../../src/lib/relay/store/postgres-schema.js'
import { RelayStoreUnavailable } from '../../../../src/lib/relay/store/types.js'
import { createPgSchema, needsPostgres, PG_INSTALL, PG_URL, type PgSchema, postgresProblem } from '../../../helpers/postgres.js'
import { startTcpProxy } from '../../../helpers/tcp-proxy.js'
import { describeRelayStore } from '../store-contract.js'

const at = () => new Date().toISOString()
const delivery = (n: number, channel = 'dev') => ({
  channel,
  eventId: `evt_${n}`,
  eventType: 'charge.paid',
  arrivedAt: at(),
  headers: { 'content-type': 'application/json', 'x-svc-event-id': `evt_${n}` },
  body: new Uint8Array(Buffer.from(`{"id":"evt_${n}","bytes":"\u00e9\u0000"}`)),
})

async function seed(store: PostgresRelayStore, token = 'alice') {
  await store.addChannel({ name: 'dev', secrets: ['whsec_x'], createdAt: at() }).catch(() => {})
  return store.createToken({ name: token, channel: 'dev', hash: createHash('sha256').update(randomBytes(8)).digest('hex'), only: [], match: [], createdAt: at() })
}

/** Resolves when `check` holds, polling the store's own state (no wall-clock sleeps in assertions). */
async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}

// The behaviour suite every store keeps, unchanged, each test on a fresh schema of its own.
if ((await postgresProblem()) && process.env.CI !== 'true' && process.env.CI !== '1') {
  it('relay store contract: postgres', (ctx) => ctx.skip(`needs postgresql: ${PG_INSTALL}`))
} else {
  const schemas: PgSchema[] = []
  afterAll(async () => {
    for (const s of schemas.splice(0)) await s.drop()
  })
  describeRelayStore('postgres', async () => {
    const pg = await createPgSchema()
    schemas.push(pg)
    return pg.open({ applicationName: 'svc-relay-contract' })
  })
}

describe('PostgreSQL relay store', () => {
  let pg: PgSchema
  beforeEach(async (ctx) => {
    await needsPostgres(ctx)
    pg = await createPgSchema()
  })
  afterEach(async () => {
    await pg?.drop()
    pg = undefined as unknown as PgSchema
  })

  it('commits concurrent ingests in shared transactions, seqs in order, bytes and headers as given', async () => {
    const store = await pg.open()
    await seed(store)
    const stored = await Promise.all(Array.from({ length: 200 }, (_, i) => store.ingest(delivery(i))))
    expect(stored.map((d) => d.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1))
    const txs = await pg.sql('SELECT count(DISTINCT xmin::text) AS n FROM relay_deliveries')
    expect(Number(txs[0]!.n)).toBeLessThan(20)
    const pending = await store.pending('alice', 0, 500)
    expect(pending).toHaveLength(200)
    expect(Buffer.from(pending[7]!.body)).toEqual(Buffer.from(delivery(7).body))
    expect(pending[7]!.headers).toEqual(delivery(7).headers)
    expect(pending[7]!).toMatchObject({ seq: 8, eventId: 'evt_7', eventType: 'charge.paid', sends: 0 })
  })

  it('two instances on one schema: seqs unique and increasing in commit order, a reader never sees N+1 before N', async () => {
    const a = await pg.open({ applicationName: 'relay-a' })
    const b = await pg.open({ applicationName: 'relay-b' })
    await seed(a)
    const seen: number[] = []
    let reading = true
    const reader = (async () => {
      let cursor = 0
      while (reading) {
        for (const d of await b.pending('alice', cursor, 1000)) {
          seen.push(d.seq)
          cursor = d.seq
        }
      }
    })()
    const all = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 ? a : b).ingest(delivery(i))))
    reading = false
    await reader
    const seqs = all.map((d) => d.seq).sort((x, y) => x - y)
    expect(seqs).toEqual(Array.from({ length: 300 }, (_, i) => i + 1))
    // Read with "seq > cursor" only: had a later seq committed first, the earlier one would be skipped.
    const tail = (await b.pending('alice', seen.at(-1) ?? 0, 1000)).map((d) => d.seq)
    expect([...seen, ...tail]).toEqual(seqs)
  })

  it('wakes a store on another instance by NOTIFY (the payload is the channel name only)', async () => {
    const a = await pg.open({ applicationName: 'relay-a', pollMs: 60_000 })
    const b = await pg.open({ applicationName: 'relay-b', pollMs: 60_000 })
    await seed(a)
    const woken: string[] = []
    b.onIngest((channel) => woken.push(channel))
    await until(async () => (await pg.sql("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'relay-b' AND query LIKE 'LISTEN%'"))[0]!.n !== '0')
    await a.ingest(delivery(1))
    await until(() => woken.includes('dev'))
    expect(woken).toEqual(['dev'])
  })

  it('wakes by the poll when the LISTEN connection is cut, and listens again afterwards', async () => {
    const a = await pg.open({ applicationName: 'relay-a' })
    const b = await pg.open({ applicationName: 'relay-b', pollMs: 100 })
    await seed(a)
    const woken: string[] = []
    b.onIngest((channel) => woken.push(channel))
    await until(async () => (await pg.sql("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'relay-b' AND query LIKE 'LISTEN%'"))[0]!.n !== '0')
    await pg.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'relay-b'")
    await a.ingest(delivery(1))
    await until(() => woken.includes('dev'))
    await until(async () => (await pg.sql("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'relay-b' AND query LIKE 'LISTEN%'"))[0]!.n !== '0')
  })

  it('a stream lease taken on another instance is lost there at once (replaced); revoking loses it too', async () => {
    const a = await pg.open({ applicationName: 'relay-a', pollMs: 60_000 })
    const b = await pg.open({ applicationName: 'relay-b', pollMs: 60_000 })
    await seed(a)
    await until(async () => (await pg.sql("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name IN ('relay-a', 'relay-b') AND query LIKE 'LISTEN%'"))[0]!.n === '2')
    const first = await a.claimStream('alice')
    const lost: string[] = []
    first.onLost((reason) => lost.push(reason))
    const second = await b.claimStream('alice')
    await until(() => lost.length > 0)
    expect(lost).toEqual(['replaced'])
    expect(first.held()).toBe(false)
    expect(second.held()).toBe(true)
    expect(second.generation).toBe(first.generation + 1)
    await b.revokeToken('alice', at())
    await until(() => !second.held())
  })

  it('once another instance took the lease, this one reads nothing more for the token, heard of it or not', async () => {
    const a = await pg.open({ applicationName: 'relay-a', pollMs: 60_000 })
    await seed(a)
    await a.ingest(delivery(1))
    const lease = await a.claimStream('alice')
    expect(await a.pending('alice', 0, 10)).toHaveLength(1)
    // Taken elsewhere. Whether this instance heard of it yet (its own claim's NOTIFY, or the check
    // after its LISTEN connected, may run at any moment) or not, the read is fenced: by the lease
    // row itself until it hears, by the loss once it has.
    await pg.sql("UPDATE relay_stream_leases SET instance = 'other', generation = generation + 1 WHERE token = 'alice'")
    expect(await a.pending('alice', 0, 10)).toEqual([])
    await lease.release()
    // Claimed back, it reads again.
    const again = await a.claimStream('alice')
    expect(await a.pending('alice', 0, 10)).toHaveLength(1)
    await again.release()
  })

  it('a lease of an instance that stopped checking is found by the poll (the NOTIFY lost)', async () => {
    const a = await pg.open({ applicationName: 'relay-a', pollMs: 100 })
    await seed(a)
    const lease = await a.claimStream('alice')
    // Another instance took it without a NOTIFY reaching us (as if sent while our LISTEN was down).
    await pg.sql("UPDATE relay_stream_leases SET instance = 'other', generation = generation + 1 WHERE token = 'alice'")
    await until(() => !lease.held())
  })

  it('PostgreSQL away: ingest rejects with RelayStoreUnavailable and healthy() is false; back: it commits again, no restart', async () => {
    const proxy = await startTcpProxy([Number(new URL(PG_URL).port || 5432)])
    const url = new URL(PG_URL)
    url.host = `127.0.0.1:${proxy.port}`
    const store = await openPostgresRelayStore(url.toString(), { schema: pg.schema, connectTimeoutMs: 500, statementTimeoutMs: 2000, pollMs: 100 })
    try {
      await seed(store)
      const ok = await store.ingest(delivery(1))
      proxy.cut()
      await expect(store.ingest(delivery(2))).rejects.toBeInstanceOf(RelayStoreUnavailable)
      expect(await store.healthy()).toBe(false)
      proxy.restore()
      await until(() => store.healthy())
      const again = await store.ingest(delivery(3))
      expect(again.seq).toBeGreaterThan(ok.seq)
      expect((await store.pending('alice', 0, 10)).map((d) => d.eventId)).toEqual(['evt_1', 'evt_3'])
    } finally {
      await store.close()
      await proxy.close()
    }
  })

  it('survives its connections being terminated server-side (a PostgreSQL restart, as the relay sees it)', async () => {
    const store = await pg.open({ applicationName: 'relay-term' })
    await seed(store)
    const answered: number[] = []
    let failed = 0
    for (let i = 0; i < 40; i++) {
      if (i === 20) await pg.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'relay-term'")
      try {
        answered.push((await store.ingest(delivery(i))).seq)
      } catch (err) {
        expect(i, 'only the commits right after the cut may fail').toBeLessThan(25)
        expect(err).toBeInstanceOf(RelayStoreUnavailable)
        failed++
      }
    }
    // Connections that broke while idle may fail a commit or two (503: the service retries); then it commits again.
    expect(failed).toBeLessThan(5)
    const stored = (await store.pending('alice', 0, 100)).map((d) => d.seq)
    for (const seq of answered) expect(stored).toContain(seq)
  })

  it('two instances pruning at once count the loss of a token once', async () => {
    const a = await pg.open({ applicationName: 'relay-a' })
    const b = await pg.open({ applicationName: 'relay-b' })
    await seed(a)
    for (let i = 0; i < 20; i++) await a.ingest({ ...delivery(i), arrivedAt: new Date(Date.now() - 3_600_000).toISOString() })
    const results = await Promise.all([a.prune(new Date(), 60_000), b.prune(new Date(), 60_000), a.prune(new Date(), 60_000)])
    expect(results.reduce((n, r) => n + r.deleted, 0)).toBe(20)
    expect(await a.takeGap('alice')).toMatchObject({ lost: 20, fromSeq: 1, toSeq: 20, reason: 'retention' })
  })

  it('refuses a missing schema and a newer one, naming svc relay migrate', async () => {
    const bare = await createPgSchema({ migrated: false })
    try {
      const err = await openPostgresRelayStore(PG_URL, { schema: bare.schema }).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(RelaySchemaError)
      expect((err as Error).message).toContain('svc relay migrate')
    } finally {
      await bare.drop()
    }
    await pg.sql('INSERT INTO svc_relay_schema_version (version, description) VALUES (99, $1)', ['from the future'])
    const err = await openPostgresRelayStore(PG_URL, { schema: pg.schema }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RelaySchemaError)
    expect((err as Error).message).toMatch(/version 99, newer/)
  })

  it('never shows the password of an unreachable URL', async () => {
    const err = await openPostgresRelayStore('postgres://svc:hunter2-secret@127.0.0.1:1/none', { connectTimeoutMs: 500 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RelayStoreUnavailable)
    expect(String((err as Error).message)).not.toContain('hunter2')
  })
})
