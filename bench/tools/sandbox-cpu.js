// Diagnostic, not a target: CPU µs per charge creation of the sandbox process (from
// /proc/<pid>/stat) with no webhook URL and with every event delivered to a local app, under the
// 50-connection load of bench/sandbox.js; with --profile, a CPU profile of the sandbox summed by
// file and function.   node bench/tools/sandbox-cpu.js [rounds] [--profile]
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { api, TEST_CPF } from '../lib/api.js'
import { startChild } from '../lib/child.js'
import { load } from '../lib/load.js'
import { cpuMs, ROOT } from '../lib/proc.js'
import { startSandboxProcess } from '../lib/sandbox.js'
import { readProfile, summarise, topFunctions } from '../profile.js'

const rounds = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 3)
const profile = process.argv.includes('--profile')
const profDir = mkdtempSync(join(tmpdir(), 'svc-sbprof-'))
const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-sandbox-'))
if (profile) process.env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${profDir}`
const sandbox = await startSandboxProcess({ dataDir })
delete process.env.NODE_OPTIONS
const app = await startChild([join(ROOT, 'bench/lib/app.js')], {})
const body = JSON.stringify({ amountInCents: 1500, payerTaxNumber: TEST_CPF })
const request = () => ({ body, headers: { authorization: `Bearer ${sandbox.testKey}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() } })
const create = (ms) => load({ url: `${sandbox.baseUrl}/v1/charges`, connections: 50, durationMs: ms, request, expect: 201 })
await create(500)
const measure = async (label) => {
  const c0 = cpuMs(sandbox.pid)
  const a0 = cpuMs(app.pid)
  const r = await create(2500)
  const c1 = cpuMs(sandbox.pid)
  const a1 = cpuMs(app.pid)
  console.log(
    label.padEnd(12),
    r.perSecond.toFixed(0).padStart(6),
    '/s',
    (((c1 - c0) * 1000) / r.requests).toFixed(1).padStart(6),
    'µs sandbox cpu/creation',
    ' app',
    (((a1 - a0) * 1000) / r.requests).toFixed(1),
    'µs',
  )
}
for (let i = 0; i < rounds; i++) await measure('no webhook')
await api(sandbox, 'PUT', '/_sandbox/webhook', { url: app.ready })
for (let i = 0; i < rounds; i++) await measure('delivered')
await app.stop()
await sandbox.stop()
if (profile) {
  const p = readProfile(profDir)
  for (const [n, ms] of summarise(p, true).rows.slice(0, 25)) console.log(ms.toFixed(0).padStart(7), n)
  console.log('--- functions')
  for (const [k, ms] of topFunctions(p, 25)) console.log(ms.toFixed(0).padStart(7), k)
}
rmSync(profDir, { recursive: true, force: true })
rmSync(dataDir, { recursive: true, force: true })
