// Diagnostic: CPU µs per record() of the listener's event log at its row cap (10 000 rows, pruned
// every 100 records), for this build and any other built checkouts given, each in its own process,
// round after round. Found the byte budget's full sum of the log at every prune (issue 29 item 13).
//   node bench/tools/event-store-cpu.js [DIR ...] [--rounds N] [--failed N] [--per-commit N]
// --failed N: N failed forwards first, which the row cap keeps (pruning must not read them again).
// --per-commit N: records per commit (default 50; 1 is the listener at one connection, ~17 at 50).
// Also prints the size the write-ahead log reached (its file is not shrunk when the log starts over).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { pathToFileURL } from 'node:url'
import { ROOT } from '../lib/proc.js'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '3' }, failed: { type: 'string', default: '0' }, 'per-commit': { type: 'string', default: '50' }, child: { type: 'string' } },
})
const perCommit = Number(values['per-commit'])

if (values.child) {
  const { EventStore } = await import(pathToFileURL(join(values.child, 'dist/lib/webhooks/event-store.js')).href)
  const dir = mkdtempSync(join(tmpdir(), 'svc-store-cpu-'))
  const store = await EventStore.open({ path: join(dir, 'events.db') })
  const body = Buffer.alloc(1100, 'x')
  const headers = { 'content-type': 'application/json', 'x-svc-event-id': 'evt', 'x-svc-signature': `t=1,v1=${'a'.repeat(64)}`, 'x-svc-timestamp': '1', 'x-svc-event-type': 'charge.paid', host: '127.0.0.1:1' }
  const forwardUrl = 'http://127.0.0.1:3000/webhooks'
  const rec = (eventId, outcome) => ({ receivedAt: new Date().toISOString(), source: 'service', eventId, type: 'charge.paid', headers, body, verification: 'verified', outcome, answeredStatus: 200, forwardUrl })
  for (let i = 0; i < Number(values.failed); i++) store.record(rec(`evt_failed_${i}`, 'failed'))
  let n = 0
  // As the listener does: is it delivered, record, and a commit every few records (one event-loop turn).
  const batch = async (k) => {
    for (let i = 0; i < k; i++) {
      const id = `evt_${n++}`
      store.isDelivered(id, forwardUrl)
      store.record(rec(id, 'forwarded'))
      if (i % perCommit === perCommit - 1) await store.committed()
    }
    await store.committed()
  }
  await batch(12_000)
  const c0 = process.cpuUsage()
  await batch(20_000)
  const c = process.cpuUsage(c0)
  const wal = statSync(join(dir, 'events.db-wal')).size
  store.close()
  rmSync(dir, { recursive: true, force: true })
  process.stdout.write(`${((c.user + c.system) / 20_000).toFixed(1)} ${(wal / 1e6).toFixed(1)}\n`)
  process.exit(0)
}

const builds = [ROOT, ...positionals]
const runs = Object.fromEntries(builds.map((b) => [b, []]))
const wals = Object.fromEntries(builds.map((b) => [b, []]))
for (let r = 0; r < Number(values.rounds); r++) {
  for (const b of builds) {
    const res = spawnSync(process.execPath, [new URL(import.meta.url).pathname, '--child', b, '--failed', values.failed, '--per-commit', String(perCommit)], { encoding: 'utf8' })
    if (res.status !== 0) throw new Error(`${b}: ${res.stderr}`)
    const [cpu, walMb] = res.stdout.trim().split(' ').map(Number)
    runs[b].push(cpu)
    wals[b].push(walMb)
  }
}
for (const b of builds) console.log(`${b.padEnd(24)} min ${Math.min(...runs[b]).toFixed(1)} µs CPU/record  (${runs[b].join(', ')}), ${perCommit} per commit; WAL reached ${Math.max(...wals[b])} MB`)
