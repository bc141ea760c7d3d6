// Diagnostic (issue 39.2): the p50 that `svc webhooks listen` adds at one connection (a delivery
// at a time, no queueing: the path's own length), for this build and another built checkout
// (DIR), beside the plain undici proxy, round after round in alternating order; each round's
// figures are over the p50 straight to the app in the same round. Medians of the rounds, and the
// ratio this/DIR of each round. The bench's one figure per run is too noisy on a shared machine
// to tell a change of a tenth of a millisecond.
//   node bench/tools/listener-latency.js [rounds] [DIR]
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startChild } from '../lib/child.js'
import { signedDeliveries } from '../lib/deliveries.js'
import { load } from '../lib/load.js'
import { BIN, ROOT } from '../lib/proc.js'
import { median, percentile } from '../lib/stats.js'

const SECRET = `whsec_${randomBytes(24).toString('hex')}`
const rounds = Number(process.argv[2] ?? 8)
const vs = process.argv[3]
const app = await startChild([join(ROOT, 'bench/lib/app.js')], {})
const listen = (bin) =>
  startChild(
    [bin, 'webhooks', 'listen', '--forward', app.ready, '--port', '0', '--no-tui', '--secret', SECRET],
    { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-bench-cfg-')), NO_COLOR: '1' },
    (l) => JSON.parse(l).listening,
  )
const targets = {
  listener: await listen(BIN),
  ...(vs ? { 'listener of DIR': await listen(join(vs, 'bin/run.js')) } : {}),
  'undici proxy': await startChild([join(ROOT, 'bench/lib/proxy.js'), 'undici', app.ready], {}),
}
const request = signedDeliveries(SECRET)
const p50 = async (url) => percentile((await load({ url, connections: 1, durationMs: 1000, request })).latencies, 50)
try {
  for (const t of Object.values(targets)) await load({ url: t.ready, connections: 1, durationMs: 500, request })
  const added = Object.fromEntries(Object.keys(targets).map((k) => [k, []]))
  const ratios = []
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? Object.entries(targets) : Object.entries(targets).reverse()
    const direct = await p50(app.ready)
    for (const [name, t] of order) added[name].push((await p50(t.ready)) - direct)
    if (vs) ratios.push(added.listener.at(-1) / added['listener of DIR'].at(-1))
  }
  console.log(`1 connection, ${rounds} rounds of 1 s, added p50 over straight to the app (median; min–max)`)
  for (const [name, xs] of Object.entries(added)) console.log(`${name.padEnd(16)} ${median(xs).toFixed(3)} ms  (${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)})`)
  if (vs) console.log(`this listener / DIR's, round by round: median ${median(ratios).toFixed(2)}×  (${ratios.map((r) => r.toFixed(2)).join(', ')})`)
} finally {
  for (const t of [...Object.values(targets), app]) await t.stop()
}
