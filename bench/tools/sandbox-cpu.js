// Diagnostic, not a target: CPU µs per charge creation of the sandbox process (from
// /proc/<pid>/stat) with no webhook URL and with every event delivered to a local app, under the
// 50-connection load of bench/sandbox.js; with --profile, a CPU profile of the sandbox summed by
// file and function.   node bench/tools/sandbox-cpu.js [rounds] [DIR] [--profile]
// DIR: another built checkout of svc, whose sandbox (its own data dir) takes the same load in the
// same rounds, the two in alternating order; the medians of the rounds' ratios end the output.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { api, TEST_CPF } from '../lib/api.js'
import { startChild } from '../lib/child.js'
import { load } from '../lib/load.js'
import { cpuMs, ROOT } from '../lib/proc.js'
import { startSandboxProcess } from '../lib/sandbox.js'
import { median } from '../lib/stats.js'
import { readProfile, summarise, topFunctions } from '../profile.js'

const args = process.argv.slice(2)
const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 3)
const vs = args.find((a) => !/^\d+$/.test(a) && !a.startsWith('--'))
const profile = args.includes('--profile')
const profDir = mkdtempSync(join(tmpdir(), 'svc-sbprof-'))
const dataDirs = []
const start = async (root) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-sandbox-'))
  dataDirs.push(dataDir)
  return startSandboxProcess({ dataDir }, root)
}
if (profile) process.env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${profDir}`
const sandboxes = { this: await start(undefined) }
delete process.env.NODE_OPTIONS
if (vs) sandboxes.DIR = await start(vs)
const app = await startChild([join(ROOT, 'bench/lib/app.js')], {})
const body = JSON.stringify({ amountInCents: 1500, payerTaxNumber: TEST_CPF })
const requestOf = (sandbox) => () => ({ body, headers: { authorization: `Bearer ${sandbox.testKey}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() } })
const create = (sandbox, ms) => load({ url: `${sandbox.baseUrl}/v1/charges`, connections: 50, durationMs: ms, request: requestOf(sandbox), expect: 201 })
for (const s of Object.values(sandboxes)) await create(s, 500)
const ratios = { 'no webhook': { rate: [], cpu: [] }, delivered: { rate: [], cpu: [] } }
const measure = async (label, round) => {
  const seen = {}
  const names = Object.keys(sandboxes)
  // Every other round in the reverse order, so that neither sandbox always runs right after the other.
  for (const name of round % 2 ? names.reverse() : names) {
    const sandbox = sandboxes[name]
    const c0 = cpuMs(sandbox.pid)
    const a0 = cpuMs(app.pid)
    const r = await create(sandbox, 2500)
    const c1 = cpuMs(sandbox.pid)
    const a1 = cpuMs(app.pid)
    seen[name] = { rate: r.perSecond, cpu: ((c1 - c0) * 1000) / r.requests }
    console.log(
      `${label}${vs ? ` (${name})` : ''}`.padEnd(20),
      r.perSecond.toFixed(0).padStart(6),
      '/s',
      seen[name].cpu.toFixed(1).padStart(6),
      'µs sandbox cpu/creation',
      ' app',
      (((a1 - a0) * 1000) / r.requests).toFixed(1),
      'µs',
    )
  }
  if (vs) {
    ratios[label].rate.push(seen.this.rate / seen.DIR.rate)
    ratios[label].cpu.push(seen.this.cpu / seen.DIR.cpu)
  }
}
for (let i = 0; i < rounds; i++) await measure('no webhook', i)
for (const s of Object.values(sandboxes)) await api(s, 'PUT', '/_sandbox/webhook', { url: app.ready })
for (let i = 0; i < rounds; i++) await measure('delivered', i)
await app.stop()
for (const s of Object.values(sandboxes)) await s.stop()
// With DIR: this sandbox against DIR's, round by round (the two ran in the same round), medians.
if (vs) {
  for (const [label, r] of Object.entries(ratios)) {
    console.log(`${label}: this sandbox / DIR's: creations/s ${median(r.rate).toFixed(3)}×, CPU per creation ${median(r.cpu).toFixed(3)}× (medians of ${r.rate.length} rounds)`)
  }
}
if (profile) {
  const p = readProfile(profDir)
  for (const [n, ms] of summarise(p, true).rows.slice(0, 25)) console.log(ms.toFixed(0).padStart(7), n)
  console.log('--- functions')
  for (const [k, ms] of topFunctions(p, 25)) console.log(ms.toFixed(0).padStart(7), k)
}
rmSync(profDir, { recursive: true, force: true })
for (const d of dataDirs) rmSync(d, { recursive: true, force: true })
