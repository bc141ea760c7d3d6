// Diagnostic (issue 39.2): the floor of the forwarder's throughput target. The listener's own
// pipeline (dist/lib/webhooks/listener.js, the Forwarder the command uses) served over HTTP in a
// process of its own, in three variants, against bench/lib/proxy.js's plain undici proxy under the
// same 50-connection load, round after round:
//   log       the event log on disk, as `svc webhooks listen` runs it;
//   no log    the log stubbed out (a record is kept in memory and "committed" at once);
//   no log, no verify   and the signature not checked either (--skip-verify).
// For each: deliveries/s, its ratio to the proxy of the same round, and CPU µs per delivery of the
// process's main thread and of all its threads (from /proc); then at one connection, the p50 each
// adds to a delivery sent straight to the app (the issue's second target, ≤ 0.3 ms). What "no
// log, no verify" reaches is what HTTP in, undici out, parsing and routing cost: the most any
// durable log could leave.
//   node bench/tools/forwarder-floor.js [rounds]
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { startChild } from '../lib/child.js'
import { signedDeliveries } from '../lib/deliveries.js'
import { load } from '../lib/load.js'
import { ROOT } from '../lib/proc.js'
import { median, percentile } from '../lib/stats.js'

const VARIANTS = { log: 'log', 'no log': 'nolog', 'no log, no verify': 'nolog-noverify' }

if (process.argv[2] === '--child') {
  const [variant, appUrl, secret] = process.argv.slice(3)
  const lib = (p) => import(pathToFileURL(join(ROOT, 'dist/lib/webhooks', p)).href)
  const { EventStore } = await lib('event-store.js')
  const { WebhookListener } = await lib('listener.js')
  const { Forwarder } = await lib('forward.js')
  const dir = mkdtempSync(join(tmpdir(), 'svc-floor-'))
  let seq = 0
  const store =
    variant === 'log'
      ? await EventStore.open({ path: join(dir, 'events.db') })
      : { warm() {}, isDelivered: () => false, record: (r) => ({ ...r, seq: ++seq, attempt: 1 }), committed: () => Promise.resolve(), close() {} }
  const listener = new WebhookListener({ targets: [{ pattern: null, url: new URL(appUrl) }], secrets: [secret], store, forwarder: new Forwarder(), port: 0, skipVerify: variant.endsWith('noverify') })
  process.stdout.write(`${await listener.start()}\n`)
  const stop = () => {
    store.close()
    rmSync(dir, { recursive: true, force: true })
    process.exit(0)
  }
  process.on('SIGTERM', stop)
  process.stdin.on('end', stop).resume()
} else {
  const rounds = Number(process.argv[2] ?? 3)
  /** CPU ms of a process: its main thread, and all its threads. */
  const cpu = (pid) => {
    let main = 0
    let all = 0
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const f = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')
      const ms = (Number(f[11]) + Number(f[12])) * 10
      all += ms
      if (tid === String(pid)) main = ms
    }
    return { main, all }
  }
  const secret = `whsec_${randomBytes(24).toString('hex')}`
  const app = await startChild([join(ROOT, 'bench/lib/app.js')], {})
  const targets = { 'undici proxy': await startChild([join(ROOT, 'bench/lib/proxy.js'), 'undici', app.ready], {}) }
  for (const [name, v] of Object.entries(VARIANTS)) targets[name] = await startChild([new URL(import.meta.url).pathname, '--child', v, app.ready, secret], {})
  const request = signedDeliveries(secret)
  try {
    for (const t of Object.values(targets)) await load({ url: t.ready, connections: 50, durationMs: 800, request })
    const results = Object.fromEntries(Object.keys(targets).map((k) => [k, []]))
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? Object.entries(targets) : Object.entries(targets).reverse()
      for (const [name, t] of order) {
        const c0 = cpu(t.pid)
        const r = await load({ url: t.ready, connections: 50, durationMs: 2500, request })
        const c1 = cpu(t.pid)
        if (r.errors > 0 || r.statusErrors > 0) throw new Error(`${name}: ${r.errors} failed requests, ${r.statusErrors} non-200 answers`)
        results[name].push({ rate: r.perSecond, main: ((c1.main - c0.main) * 1000) / r.requests, all: ((c1.all - c0.all) * 1000) / r.requests })
      }
    }
    const proxy = results['undici proxy']
    process.stdout.write(`50 connections, ${rounds} rounds of 2.5 s, medians; ratio: run by run to the proxy of the same round\n`)
    for (const [name, rs] of Object.entries(results)) {
      const ratio = median(rs.map((r, i) => r.rate / proxy[i].rate))
      const [rate, main, all] = [median(rs.map((r) => r.rate)).toFixed(0), median(rs.map((r) => r.main)).toFixed(1), median(rs.map((r) => r.all)).toFixed(1)]
      process.stdout.write(`${name.padEnd(18)} ${rate.padStart(7)}/s  ${ratio.toFixed(2)}× the proxy  main thread ${main.padStart(6)} µs  all threads ${all.padStart(6)} µs per delivery\n`)
    }
    // One connection: no queueing, so a p50 is the path's own length; added = p50 - straight to the app's p50 of the same round.
    const one = Object.fromEntries(Object.keys(targets).map((k) => [k, []]))
    for (let round = 0; round < rounds; round++) {
      const direct = percentile((await load({ url: app.ready, connections: 1, durationMs: 1000, request })).latencies, 50)
      for (const [name, t] of Object.entries(targets)) one[name].push(percentile((await load({ url: t.ready, connections: 1, durationMs: 1000, request })).latencies, 50) - direct)
    }
    process.stdout.write('1 connection, added p50 over straight to the app (medians of the rounds)\n')
    for (const [name, added] of Object.entries(one)) process.stdout.write(`${name.padEnd(18)} ${median(added).toFixed(3)} ms\n`)
  } finally {
    for (const t of [...Object.values(targets), app]) await t.stop()
  }
}
