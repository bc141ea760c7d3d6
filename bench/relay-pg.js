/**
 * `node bench/run.js --only relay-pg` (issue 38): the relay on PostgreSQL for a team.
 *   - ingest/s (verified, committed, answered 200) with 1 and 2 `svc relay serve --store` processes
 *     on one PostgreSQL schema, beside one `svc relay serve --data` on SQLite, same load generator
 *     (closed loop, 32 connections in all, signed deliveries of ~300 bytes);
 *   - A→B latency: an event POSTed to instance A until its frame arrives on a stream held by
 *     instance B (NOTIFY wake-up, B reads the store), p50/p99 over sequential events.
 * PostgreSQL: SVC_BENCH_PG_URL or SVC_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/test);
 * the bench works in a schema of its own (relay_bench_<random>), dropped at the end.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startChild } from './lib/child.js'
import { load } from './lib/load.js'
import { BIN } from './lib/proc.js'
import { ms, percentile, perSecond, ratio } from './lib/stats.js'

const SECRET = 'whsec_bench_relay_0123456789abcdef'
const PG_URL = process.env.SVC_BENCH_PG_URL ?? process.env.SVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

function storeUrl(schema, app) {
  const url = new URL(PG_URL)
  url.searchParams.set('options', `-c search_path=${schema}`)
  url.searchParams.set('application_name', app)
  return url.toString()
}

function body(i) {
  return JSON.stringify({
    id: `evt_bench_${i}_${randomBytes(4).toString('hex')}`,
    type: 'charge.paid',
    createdAt: new Date().toISOString(),
    environment: 'test',
    data: { charge: { id: 'c'.repeat(24), status: 'paid', amountInCents: 1500, metadata: { pad: 'x'.repeat(120) } } },
  })
}

async function signer() {
  const { signatureHeader } = await import('../dist/lib/webhooks/signature.js')
  return (i) => {
    const b = body(i)
    const ts = Math.floor(Date.now() / 1000)
    return {
      body: b,
      headers: { 'content-type': 'application/json', 'x-svc-timestamp': String(ts), 'x-svc-signature': signatureHeader(SECRET, ts, b), 'x-svc-event-id': JSON.parse(b).id, 'x-svc-event-type': 'charge.paid' },
    }
  }
}

async function serve(args) {
  const child = await startChild([BIN, 'relay', 'serve', '--port', '0', ...args], { CI: 'true' }, (line) => JSON.parse(line).listening)
  return { url: child.ready, stop: child.stop }
}

/** Closed-loop load over the instances at once (connections split evenly), total answers per second. */
async function ingestRate(urls, sign, durationMs) {
  const per = Math.max(1, Math.floor(32 / urls.length))
  const results = await Promise.all(urls.map((u) => load({ url: `${u}/hooks/team`, connections: per, durationMs, request: sign })))
  const bad = results.reduce((n, r) => n + r.errors + r.statusErrors, 0)
  if (bad > 0) throw new Error(`${bad} deliveries were not answered 200`)
  return results.reduce((n, r) => n + r.perSecond, 0)
}

function post(url, { body: b, headers }) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode))
    })
    req.on('error', reject)
    req.end(b)
  })
}

/** A raw SSE reader: resolves each `delivery` frame in turn. */
function stream(url, token) {
  const frames = []
  const waiters = []
  const req = request(`${url}/v1/stream`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` } }, (res) => {
    let buf = ''
    res.setEncoding('utf8')
    res.on('data', (chunk) => {
      buf += chunk
      for (let cut = buf.indexOf('\n\n'); cut >= 0; cut = buf.indexOf('\n\n')) {
        const block = buf.slice(0, cut)
        buf = buf.slice(cut + 2)
        if (!block.startsWith('event: delivery')) continue
        const data = JSON.parse(
          block
            .split('\n')
            .find((l) => l.startsWith('data: '))
            .slice(6),
        )
        const w = waiters.shift()
        if (w) w(data)
        else frames.push(data)
      }
    })
  })
  req.end()
  return {
    next: () => (frames.length > 0 ? Promise.resolve(frames.shift()) : new Promise((resolve) => waiters.push(resolve))),
    close: () => req.destroy(),
  }
}

export async function benchRelayPg({ report, quick }) {
  const durationMs = quick ? 3000 : 8000
  const events = quick ? 100 : 300
  report.section('relay on PostgreSQL (issue 38)', `ingest ${durationMs / 1000} s closed loop at 32 connections; A→B over ${events} sequential events`)
  const { migrate } = await import('../dist/lib/relay/store/postgres-schema.js')
  const { connectPostgresForMigrate, openPostgresRelayStore } = await import('../dist/lib/relay/store/postgres.js')
  const { openSqliteRelayStore } = await import('../dist/lib/relay/store/sqlite.js')
  const { addRelayChannel, createRelayToken } = await import('../dist/lib/services/relay-admin.js')
  const sign = await signer()
  const schema = `relay_bench_${randomBytes(5).toString('hex')}`
  const admin = await connectPostgresForMigrate(PG_URL, { applicationName: 'svc-relay-bench' })
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-relay-'))
  const running = []
  try {
    await admin.query(`CREATE SCHEMA ${schema}`)
    await admin.query(`SET search_path = ${schema}`)
    await migrate(admin)
    const pgStore = await openPostgresRelayStore(PG_URL, { schema, applicationName: 'svc-relay-bench' })
    const now = new Date()
    await addRelayChannel(pgStore, { name: 'team', secrets: [SECRET], publicUrl: 'http://127.0.0.1', now })
    await pgStore.close()
    const sqlite = await openSqliteRelayStore({ dir: dataDir })
    await addRelayChannel(sqlite, { name: 'team', secrets: [SECRET], publicUrl: 'http://127.0.0.1', now })
    await sqlite.close()

    const sq = await serve(['--data', dataDir])
    running.push(sq)
    const sqliteRate = await ingestRate([sq.url], sign, durationMs)
    await sq.stop()
    report.row({ name: 'ingest/s, 1 instance, SQLite (--data)', value: perSecond(sqliteRate) })

    const a = await serve(['--store', storeUrl(schema, 'svc-relay-bench-a')])
    const b = await serve(['--store', storeUrl(schema, 'svc-relay-bench-b')])
    running.push(a, b)
    const oneRate = await ingestRate([a.url], sign, durationMs)
    report.row({ name: 'ingest/s, 1 instance, PostgreSQL', value: perSecond(oneRate), baseline: `SQLite ${ratio(oneRate / sqliteRate)}` })
    const twoRate = await ingestRate([a.url, b.url], sign, durationMs)
    report.row({ name: 'ingest/s, 2 instances, PostgreSQL', value: perSecond(twoRate), baseline: `1 instance ${ratio(twoRate / oneRate)}` })

    // A token made now: what was ingested above is not its backlog, the stream carries only new events.
    const tokenStore = await openPostgresRelayStore(PG_URL, { schema, applicationName: 'svc-relay-bench' })
    const { token } = await createRelayToken(tokenStore, { name: 'bench', channel: 'team', only: [], match: [], now: new Date() })
    await tokenStore.close()
    const s = stream(b.url, token)
    const latencies = []
    for (let i = 0; i < events; i++) {
      const t0 = performance.now()
      const status = await post(`${a.url}/hooks/team`, sign(i))
      if (status !== 200) throw new Error(`A answered ${status}`)
      const d = await s.next()
      latencies.push(performance.now() - t0)
      await post(`${b.url}/v1/ack`, { body: JSON.stringify({ seqs: [d.seq] }), headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } })
    }
    s.close()
    report.row({ name: 'A→B latency p50 (POST to A → frame on B)', value: ms(percentile(latencies, 50)) })
    report.row({ name: 'A→B latency p99', value: ms(percentile(latencies, 99)), target: '≤ 1 s (the poll fallback)', ok: percentile(latencies, 99) <= 1000 })
  } finally {
    for (const r of running) await r.stop().catch(() => {})
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {})
    await admin.end().catch(() => {})
    rmSync(dataDir, { recursive: true, force: true })
  }
}
