// Diagnostic, not a target: CPU time per delivery (µs, from /proc/<pid>/stat) of the listener and of
// the two plain reverse proxies of bench/forwarder.js under the same 50-connection load, round after
// round, in alternating order. Less noisy than throughput on a shared 2-core machine.  node bench/tools/forwarder-cpu.js [rounds] [DIR]
// DIR: another built checkout of svc, whose listener runs beside this one's (its own event log).
// Calibrate before reading a few per cent: two copies of one build (A/A) came out 0.93x and 0.97x
// CPU per delivery here, the listener started first reading cheaper.
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startChild } from '../lib/child.js'
import { signedDeliveries } from '../lib/deliveries.js'
import { load } from '../lib/load.js'
import { BIN, cpuMs, ROOT } from '../lib/proc.js'
import { median } from '../lib/stats.js'

const SECRET = `whsec_${randomBytes(24).toString('hex')}`
const configDir = mkdtempSync(join(tmpdir(), 'svc-bench-cfg-'))
const app = await startChild([join(ROOT, 'bench/lib/app.js')], {})
const vs = process.argv[3]
const listen = (bin, dir) => startChild([bin, 'webhooks', 'listen', '--forward', app.ready, '--port', '0', '--no-tui', '--secret', SECRET], { SVC_CONFIG_DIR: dir, NO_COLOR: '1' }, (l) => JSON.parse(l).listening)
const targets = {
  listener: await listen(BIN, configDir),
  ...(vs ? { 'listener vs': await listen(join(vs, 'bin/run.js'), mkdtempSync(join(tmpdir(), 'svc-bench-cfg-'))) } : {}),
  'proxy http': await startChild([join(ROOT, 'bench/lib/proxy.js'), 'http', app.ready], {}),
  'proxy undici': await startChild([join(ROOT, 'bench/lib/proxy.js'), 'undici', app.ready], {}),
}
const request = signedDeliveries(SECRET)
for (const t of Object.values(targets)) await load({ url: t.ready, connections: 50, durationMs: 800, request })
const ratios = { rate: [], cpu: [] }
for (let round = 0; round < Number(process.argv[2] ?? 2); round++) {
  // Every other round in the reverse order, so that no target always runs right after another.
  const order = round % 2 === 0 ? Object.entries(targets) : Object.entries(targets).reverse()
  const seen = {}
  for (const [name, t] of order) {
    const [c0, a0] = [cpuMs(t.pid), cpuMs(app.pid)]
    const r = await load({ url: t.ready, connections: 50, durationMs: 2500, request })
    const [c1, a1] = [cpuMs(t.pid), cpuMs(app.pid)]
    const perRequest = (ms) => (ms * 1000) / r.requests
    seen[name] = { rate: r.perSecond, cpu: perRequest(c1 - c0) }
    console.log(
      name.padEnd(13),
      r.perSecond.toFixed(0).padStart(6),
      '/s',
      perRequest(c1 - c0)
        .toFixed(1)
        .padStart(6),
      'µs cpu/req',
      ' app',
      perRequest(a1 - a0).toFixed(1),
      'µs',
    )
  }
  if (vs) {
    ratios.rate.push(seen.listener.rate / seen['listener vs'].rate)
    ratios.cpu.push(seen.listener.cpu / seen['listener vs'].cpu)
  }
}
// With DIR: this listener against DIR's, round by round (the two ran in the same round), medians.
if (vs) console.log(`this listener / DIR's: deliveries/s ${median(ratios.rate).toFixed(3)}×, CPU per delivery ${median(ratios.cpu).toFixed(3)}× (medians of ${ratios.rate.length} rounds)`)
for (const t of [...Object.values(targets), app]) await t.stop()
