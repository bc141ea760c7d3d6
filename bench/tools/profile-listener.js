// Diagnostic: a CPU profile of `svc webhooks listen --no-tui` (unbundled, for readable file names)
// under 50-connection load, summed by file and by function.  node bench/tools/profile-listener.js [ms]
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startChild } from '../lib/child.js'
import { signedDeliveries } from '../lib/deliveries.js'
import { load } from '../lib/load.js'
import { BIN, ROOT } from '../lib/proc.js'
import { readProfile, summarise, topFunctions } from '../profile.js'

const SECRET = `whsec_${randomBytes(24).toString('hex')}`
const dir = mkdtempSync(join(tmpdir(), 'svc-prof-'))
const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-bench-cfg-')), NO_COLOR: '1' }
const app = await startChild([join(ROOT, 'bench/lib/app.js')], {})
const listener = await startChild(['--cpu-prof', '--cpu-prof-dir', dir, BIN, 'webhooks', 'listen', '--forward', app.ready, '--port', '0', '--no-tui', '--secret', SECRET], env, (l) => JSON.parse(l).listening)
const r = await load({ url: listener.ready, connections: 50, durationMs: Number(process.argv[2] ?? 4000), request: signedDeliveries(SECRET) })
console.log('rate', r.perSecond.toFixed(0), 'errors', r.errors, r.statusErrors)
await listener.stop()
await app.stop()
const profile = readProfile(dir)
for (const [n, ms] of summarise(profile, true).rows.slice(0, 30)) console.log(ms.toFixed(0).padStart(7), n)
console.log('--- functions')
for (const [k, ms] of topFunctions(profile, 30)) console.log(ms.toFixed(0).padStart(7), k)
