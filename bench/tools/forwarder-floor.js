// Diagnostic (issue 39.2): the floor of the forwarder's throughput target. The listener's own
// pipeline (dist/lib/webhooks/listener.js, the Forwarder the command uses) served over HTTP in a
// process of its own, in four variants, against bench/lib/proxy.js's plain undici proxy under the
// same 50-connection load, round after round:
//   log       the event log on disk, as `svc webhooks listen` runs it (journal mode);
//   journal only   the log's journal appended as the log appends it (a frame per record, one
//             write per turn, the answers after it), and no SQLite at all: what the listener's
//             thread would still do if the log's rows were written by a thread of their own, and
//             so the most such a writer thread could give (its own CPU not counted);
//   no log    the log stubbed out (a record is kept in memory and "committed" at once);
//   no log, no verify   and the signature not checked either (--skip-verify).
// For each: deliveries/s, its ratio to the proxy of the same round, and CPU µs per delivery of the
// process's main thread and of all its threads (from /proc); then at one connection, the p50 each
// adds to a delivery sent straight to the app (the issue's second target, ≤ 0.3 ms). What "no
// log, no verify" reaches is what HTTP in, undici out, parsing and routing cost: the most any
// durable log could leave. Last, the machine's budget: the load generator (this process) and the
// app share the cores with the target, so at 0.9x the proxy's rate the listener may spend only
// what the machine's busy time at that rate leaves after their CPU per delivery.
//   node bench/tools/forwarder-floor.js [rounds]
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { startChild } from '../lib/child.js'
import { signedDeliveries } from '../lib/deliveries.js'
import { load } from '../lib/load.js'
import { ROOT } from '../lib/proc.js'
import { median, percentile } from '../lib/stats.js'

const VARIANTS = { log: 'log', 'journal only': 'journal', 'no log': 'nolog', 'no log, no verify': 'nolog-noverify' }

if (process.argv[2] === '--child') {
  const [variant, appUrl, secret] = process.argv.slice(3)
  const lib = (p) => import(pathToFileURL(join(ROOT, 'dist/lib/webhooks', p)).href)
  const { EventStore } = await lib('event-store.js')
  const { WebhookListener } = await lib('listener.js')
  const { Forwarder } = await lib('forward.js')
  const { Journal, journalFrame } = await lib('event-store-journal.js')
  const dir = mkdtempSync(join(tmpdir(), 'svc-floor-'))
  let seq = 0
  const store =
    variant === 'log'
      ? await EventStore.open({ path: join(dir, 'events.db'), journal: true })
      : variant === 'journal'
        ? journalOnly(new Journal(join(dir, 'events.db')), journalFrame)
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
  await measure()
}

/**
 * A store that keeps only the log's journal: each record's frame (its values in the log's column
 * order, as EventStore.record makes them), appended in one write at the end of the turn, after
 * which the turn's records count as stored; the journal starts over every 500 records, as a commit
 * would start it over.
 */
function journalOnly(journal, journalFrame) {
  let seq = 0
  let frames = []
  let records = 0
  let turn
  return {
    warm() {},
    isDelivered: () => false,
    record(r) {
      const body = r.body ?? Buffer.alloc(0)
      const values = [
        r.receivedAt,
        r.source ?? 'service',
        r.eventId ?? null,
        r.type ?? null,
        r.chargeId ?? null,
        1,
        JSON.stringify(r.headers ?? {}),
        body,
        r.verification,
        r.verifyReason ?? null,
        r.verifyMessage ?? null,
        r.outcome,
        r.answeredStatus,
        r.forwardUrl ?? null,
        r.forwardStatus ?? null,
        r.latencyMs ?? null,
        r.error ?? null,
        r.responseSnippet ?? null,
        null,
        r.route ?? null,
      ]
      frames.push(...journalFrame(++seq, values))
      turn ??= new Promise((resolve) =>
        setImmediate(() => {
          journal.append(frames)
          records += frames.length / 2
          frames = []
          turn = undefined
          if (records >= 500) {
            journal.reset()
            records = 0
          }
          resolve()
        }),
      )
      return { ...r, seq, attempt: 1 }
    },
    committed: () => turn ?? Promise.resolve(),
    close() {},
  }
}

async function measure() {
  const rounds = Number(process.argv[2] ?? 3)
  /** The machine's busy and total CPU ticks, from /proc/stat. */
  const machine = () => {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
    const total = f.reduce((a, b) => a + b, 0)
    return { busy: total - f[3] - f[4], total }
  }
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
        const [c0, a0, m0, me0] = [cpu(t.pid), cpu(app.pid), machine(), process.cpuUsage()]
        const r = await load({ url: t.ready, connections: 50, durationMs: 2500, request })
        const [c1, a1, m1, me1] = [cpu(t.pid), cpu(app.pid), machine(), process.cpuUsage(me0)]
        if (r.errors > 0 || r.statusErrors > 0) throw new Error(`${name}: ${r.errors} failed requests, ${r.statusErrors} non-200 answers`)
        const per = (ms) => (ms * 1000) / r.requests
        results[name].push({
          rate: r.perSecond,
          main: per(c1.main - c0.main),
          all: per(c1.all - c0.all),
          // The load generator and the app: what the rest of the chain costs per delivery.
          others: per(a1.all - a0.all) + (me1.user + me1.system) / r.requests,
          busy: (m1.busy - m0.busy) / (m1.total - m0.total),
        })
      }
    }
    const proxy = results['undici proxy']
    process.stdout.write(`50 connections, ${rounds} rounds of 2.5 s, medians; ratio: run by run to the proxy of the same round\n`)
    for (const [name, rs] of Object.entries(results)) {
      const ratio = median(rs.map((r, i) => r.rate / proxy[i].rate))
      const [rate, main, all] = [median(rs.map((r) => r.rate)).toFixed(0), median(rs.map((r) => r.main)).toFixed(1), median(rs.map((r) => r.all)).toFixed(1)]
      const [others, busy] = [median(rs.map((r) => r.others)).toFixed(1), (100 * median(rs.map((r) => r.busy))).toFixed(0)]
      process.stdout.write(
        `${name.padEnd(18)} ${rate.padStart(7)}/s  ${ratio.toFixed(2)}× the proxy  main thread ${main.padStart(6)} µs  all threads ${all.padStart(6)} µs per delivery; load and app ${others.padStart(5)} µs; machine ${busy}% busy\n`,
      )
    }
    // The budget: at 0.9x the proxy's rate, with the machine as busy as it was under the proxy,
    // the whole chain may spend cores × busy / rate per delivery; the load generator and the app take theirs.
    const cores = availableParallelism()
    const rate = 0.9 * median(proxy.map((r) => r.rate))
    const chain = (cores * median(proxy.map((r) => r.busy)) * 1e6) / rate
    const others = median(Object.values(results).flatMap((rs) => rs.map((r) => r.others)))
    process.stdout.write(
      `budget at 0.9× the proxy (${rate.toFixed(0)}/s on ${cores} cores as busy as under the proxy): ${chain.toFixed(1)} µs per delivery for the chain, ${others.toFixed(1)} of them the load generator's and the app's: the listener may spend ${(chain - others).toFixed(1)} µs (all threads)\n`,
    )
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
