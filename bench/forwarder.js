/**
 * The `svc webhooks listen` forwarder: signed deliveries (each a new event, so none is a
 * duplicate) at 50 concurrent connections through a real `svc webhooks listen --no-tui`
 * process to a local app, against the same load sent straight to the app. The app and the
 * listener run in their own processes; the load loop runs here. The target (issue 39.2) is
 * ≥ 0.9× the plain undici proxy (the listener forwards with undici too); the node:http proxy
 * is printed as a second baseline. At one connection, the undici proxy's own added p50 is the
 * floor that any forwarding hop costs, beside the listener's.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startChild } from './lib/child.js'
import { signedDeliveries } from './lib/deliveries.js'
import { load } from './lib/load.js'
import { BIN, ROOT } from './lib/proc.js'
import { median, ms, percentile, perSecond, ratio } from './lib/stats.js'

const SECRET = `whsec_${randomBytes(24).toString('hex')}`
const CONNECTIONS = 50

export async function benchForwarder({ report, quick, vs, swap = false }) {
  const runs = quick ? 3 : 5
  const durationMs = quick ? 1500 : 3000
  report.section(
    '3. webhooks listen forwarder',
    `${CONNECTIONS} connections, ${durationMs / 1000} s per run, median of ${runs} runs, listener vs a plain reverse proxy and straight to the app${vs ? `, and the listener of ${vs}` : ''}`,
  )
  const configDirs = []
  const app = await startChild([join(ROOT, 'bench/lib/app.js')], {}, (line) => line)
  let listener
  let full
  let other
  let proxies = []
  // A listener of a build (this one, or the --vs one), each with its own config dir and event log.
  const startListener = (bin, extra = []) => {
    const configDir = mkdtempSync(join(tmpdir(), 'svc-bench-cfg-'))
    configDirs.push(configDir)
    const env = { ...process.env, SVC_CONFIG_DIR: configDir, NO_COLOR: '1' }
    for (const k of ['SVC_API_KEY', 'SVC_BASE_URL', 'SVC_PROFILE', 'SVC_WEBHOOK_SECRET', 'SVC_DEBUG']) delete env[k]
    return startChild([bin, 'webhooks', 'listen', '--forward', app.ready, '--port', '0', '--no-tui', '--secret', SECRET, ...extra], env, (line) => JSON.parse(line).listening)
  }
  try {
    // swap (the budget's second pass): the --vs listener starts first.
    if (vs && swap) other = await startListener(join(vs, 'bin/run.js'))
    listener = await startListener(BIN)
    // The same listener with the power-loss-safe log (an fsync per group commit), published beside the default.
    full = await startListener(BIN, ['--durability', 'full'])
    if (vs && !swap) other = await startListener(join(vs, 'bin/run.js'))
    proxies = [await startChild([join(ROOT, 'bench/lib/proxy.js'), 'http', app.ready], {}), await startChild([join(ROOT, 'bench/lib/proxy.js'), 'undici', app.ready], {})]
    const request = signedDeliveries(SECRET)
    const targets = { direct: app.ready, listener: listener.ready, full: full.ready, ...(other ? { other: other.ready } : {}), 'proxy (node:http)': proxies[0].ready, 'proxy (undici)': proxies[1].ready }
    // Warm every path (JIT, connections, the event log's first writes).
    for (const url of Object.values(targets)) await load({ url, connections: CONNECTIONS, durationMs: 500, request })
    // Interleaved runs, so a slow moment of the machine falls on every path alike.
    const results = Object.fromEntries(Object.keys(targets).map((k) => [k, []]))
    for (let i = 0; i < runs; i++) {
      // Every other run in the reverse order, so no path always runs right after another.
      const order = (i + (swap ? 1 : 0)) % 2 === 0 ? Object.entries(targets) : Object.entries(targets).reverse()
      for (const [name, url] of order) results[name].push(check(await load({ url, connections: CONNECTIONS, durationMs, request }), name))
    }
    const rate = (rs) => median(rs.map((r) => r.perSecond))
    const pct = (rs, p) => median(rs.map((r) => percentile(r.latencies, p)))
    const { direct, listener: through } = results
    const directRate = rate(direct)
    const throughRate = rate(through)
    // The target's baseline is the undici proxy (issue 39.2); node:http is the second one.
    const proxyName = 'proxy (undici)'
    const proxyRate = rate(results[proxyName])
    const httpRate = rate(results['proxy (node:http)'])
    report.row({ name: 'straight to the app (baseline)', value: perSecond(directRate), baseline: `p50 ${ms(pct(direct, 50))}, p99 ${ms(pct(direct, 99))}` })
    for (const k of ['proxy (node:http)', 'proxy (undici)']) {
      report.row({ name: `plain ${k}${k === proxyName ? ' (baseline)' : ''}`, value: perSecond(rate(results[k])), baseline: `direct ${ratio(rate(results[k]) / directRate)}, p50 ${ms(pct(results[k], 50))}` })
    }
    report.row({
      name: 'through the listener, vs plain undici proxy',
      value: perSecond(throughRate),
      baseline: `${proxyName} ${ratio(throughRate / proxyRate)}, proxy (node:http) ${ratio(throughRate / httpRate)}`,
      target: '≥ 0.90×',
      ok: throughRate / proxyRate >= 0.9,
    })
    report.row({
      name: 'through the listener, vs direct',
      value: ratio(throughRate / directRate),
      baseline: `listener p50 ${ms(pct(through, 50))}, p99 ${ms(pct(through, 99))}`,
      target: '≥ 0.60×',
      ok: throughRate / directRate >= 0.6,
    })
    report.row({
      name: 'through the listener, --durability full',
      value: perSecond(rate(results.full)),
      baseline: `${proxyName} ${ratio(rate(results.full) / proxyRate)}, default durability ${ratio(rate(results.full) / throughRate)}, p50 ${ms(pct(results.full, 50))}`,
    })
    if (other) {
      const otherRate = rate(results.other)
      report.row({
        name: 'through the --vs listener',
        value: perSecond(otherRate),
        baseline: `${proxyName} ${ratio(otherRate / proxyRate)}, direct ${ratio(otherRate / directRate)}, p50 ${ms(pct(results.other, 50))}, p99 ${ms(pct(results.other, 99))}`,
      })
      const rates = (rs) => rs.map((r) => r.perSecond)
      report.compare({ suite: 'forwarder', name: 'deliveries/s, 50 connections', mine: rates(through), theirs: rates(results.other), better: 'higher', unit: '/s' })
      report.row({
        name: 'this listener vs the --vs listener',
        value: ratio(throughRate / otherRate),
        baseline: `runs: ${results.listener.map((r) => Math.round(r.perSecond)).join(', ')} vs ${results.other.map((r) => Math.round(r.perSecond)).join(', ')}`,
      })
    }
    // Without queueing: one connection, so the difference is the listener's own work per delivery.
    const one = { direct: [], through: [], full: [], other: [], proxy: [] }
    for (let i = 0; i < runs; i++) {
      one.direct.push(check(await load({ url: app.ready, connections: 1, durationMs: durationMs / 3, request }), 'direct'))
      one.proxy.push(check(await load({ url: proxies[1].ready, connections: 1, durationMs: durationMs / 3, request }), 'proxy (undici)'))
      const mineFirst = (i + (swap ? 1 : 0)) % 2 === 0
      if (mineFirst) one.through.push(check(await load({ url: listener.ready, connections: 1, durationMs: durationMs / 3, request }), 'listener'))
      if (other) one.other.push(check(await load({ url: other.ready, connections: 1, durationMs: durationMs / 3, request }), 'the --vs listener'))
      if (!mineFirst) one.through.push(check(await load({ url: listener.ready, connections: 1, durationMs: durationMs / 3, request }), 'listener'))
      one.full.push(check(await load({ url: full.ready, connections: 1, durationMs: durationMs / 3, request }), 'listener, --durability full'))
    }
    const added1 = pct(one.through, 50) - pct(one.direct, 50)
    const proxyAdded1 = pct(one.proxy, 50) - pct(one.direct, 50)
    report.row({
      name: 'added latency p50, 1 connection, plain undici proxy (baseline)',
      value: ms(proxyAdded1),
      baseline: `p99 +${ms(pct(one.proxy, 99) - pct(one.direct, 99))}: what any forwarding hop adds`,
    })
    report.row({
      name: 'added latency p50, 1 connection',
      value: ms(added1),
      baseline: `p99 +${ms(pct(one.through, 99) - pct(one.direct, 99))}; direct p50 ${ms(pct(one.direct, 50))}; over the undici proxy +${ms(added1 - proxyAdded1)}`,
      target: '≤ 0.3 ms',
      ok: added1 <= 0.3,
    })
    report.row({ name: 'added latency p50, 1 connection, --durability full', value: ms(pct(one.full, 50) - pct(one.direct, 50)), baseline: `p99 +${ms(pct(one.full, 99) - pct(one.direct, 99))}` })
    if (other) {
      report.row({ name: 'added latency p50, 1 connection, --vs', value: ms(pct(one.other, 50) - pct(one.direct, 50)), baseline: `p99 +${ms(pct(one.other, 99) - pct(one.direct, 99))}` })
      // The whole p50 (app included) rather than the added part: a difference of two small medians swings by more than 10 % on its own.
      const p50s = (rs) => rs.map((r) => percentile(r.latencies, 50))
      report.compare({
        suite: 'forwarder',
        name: 'p50 through the listener, 1 connection',
        mine: p50s(one.through),
        theirs: p50s(one.other),
        better: 'lower',
        unit: ' ms',
      })
    }
  } finally {
    await listener?.stop()
    await full?.stop()
    await other?.stop()
    for (const p of proxies) await p.stop()
    await app.stop()
    for (const dir of configDirs) rmSync(dir, { recursive: true, force: true })
  }
}

function check(result, what) {
  if (result.errors > 0 || result.statusErrors > 0) throw new Error(`${what}: ${result.errors} failed requests, ${result.statusErrors} non-200 answers`)
  return result
}
