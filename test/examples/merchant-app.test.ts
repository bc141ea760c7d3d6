/**
 * The example shop (examples/merchant-app) as a merchant would have it: svc-cli installed from the
 * packed tarball into a project of its own, its TypeScript checked against the shipped .d.ts, and
 * its own vitest suite run against `startSandbox()`. Also proves the library's import promise:
 * svc-cli/sandbox, svc-cli/webhooks and svc-cli/client load neither oclif, Ink nor React. A
 * file using svc-cli/client is added to the installed copy, so its types are checked with the
 * shop's and it runs against the sandbox.
 * Needs the npm registry (or its cache) for svc-cli's dependencies, as `npm ci` does.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/run-command.js'

const app = join(mkdtempSync(join(tmpdir(), 'svc-merchant-')), 'merchant-app')
const repoBin = join(ROOT, 'node_modules', '.bin')
const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', PATH: `${join(app, 'node_modules', '.bin')}:${repoBin}:${process.env.PATH}` }
/** A merchant's use of svc-cli/client, typed: written into the installed copy (tsc checks it with the rest). */
const CLIENT_USE = `
import { type Charge, createClient, SvcApiError, type SvcClient } from 'svc-cli/client'
import { startSandbox } from 'svc-cli/sandbox'

const sandbox = await startSandbox()
const client: SvcClient = sandbox.client()
const charge: Charge = await client.charges.create({ amountInCents: 1500, payerTaxNumber: '52998224725' }, { idempotencyKey: 'order-1' })
// @ts-expect-error amountInCents is required, and a number
await client.charges.create({ amountInCents: '1500', payerTaxNumber: '52998224725' }).catch(() => undefined)
const listed: string[] = []
for await (const c of client.charges.list({ status: 'awaiting_payment', limit: 1 })) listed.push(c.id)
let error = ''
try {
  await client.charges.get('ffffffffffffffffffffffff')
} catch (err) {
  if (err instanceof SvcApiError) error = \`\${err.status} \${err.code} \${err.requestId === undefined ? 'no' : 'a'} requestId\`
}
const direct = createClient({ apiKey: sandbox.testKey, baseUrl: sandbox.baseUrl, timeout: 5000, maxRetries: 1 })
const account = await direct.account.get()
await direct.close()
await sandbox.close()
console.log(JSON.stringify({ status: charge.status, listed: listed.includes(charge.id), error, account: typeof account }))
`

for (const k of ['SVC_API_KEY', 'SVC_BASE_URL', 'SVC_PROFILE', 'SVC_WEBHOOK_SECRET', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'NODE_OPTIONS']) delete env[k]

beforeAll(() => {
  cpSync(join(ROOT, 'examples', 'merchant-app'), app, { recursive: true, filter: (src) => !/node_modules|svc-cli\.tgz/.test(src) })
  writeFileSync(join(app, 'src', 'client-use.ts'), CLIENT_USE)
  // `npm test` built dist/ already; --ignore-scripts keeps prepack from rebuilding it under running tests.
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', app], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  const packed = JSON.parse(out.slice(out.search(/^\[/m)))[0] as { filename: string }
  renameSync(join(app, packed.filename), join(app, 'svc-cli.tgz'))
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: app, env, encoding: 'utf8' })
  if (install.status !== 0) throw new Error(`npm install in the example failed:\n${install.stdout}\n${install.stderr}`)
}, 300_000)

describe('examples/merchant-app, with svc-cli from the packed tarball', () => {
  it('its own test suite passes against startSandbox()', () => {
    const report = join(app, 'report.json')
    const r = spawnSync('npx', ['vitest', 'run', '--reporter=json', `--outputFile=${report}`], { cwd: app, env, encoding: 'utf8', timeout: 120_000 })
    const json = JSON.parse(readFileSync(report, 'utf8')) as { numPassedTests: number; numFailedTests: number; numTotalTests: number }
    expect({ status: r.status, failed: json.numFailedTests }, r.stderr).toEqual({ status: 0, failed: 0 })
    expect(json.numPassedTests).toBeGreaterThanOrEqual(7)
  }, 150_000)

  it('type-checks against the shipped declarations (strict TypeScript)', () => {
    const r = spawnSync(join(app, 'node_modules', '.bin', 'tsc'), ['--noEmit'], { cwd: app, env, encoding: 'utf8', timeout: 120_000 })
    expect(r.stdout + r.stderr).toBe('')
    expect(r.status).toBe(0)
  }, 150_000)

  it('svc-cli/client, typed, works against the sandbox from the installed package', () => {
    const r = spawnSync(process.execPath, [join('src', 'client-use.ts')], { cwd: app, env, encoding: 'utf8', timeout: 60_000 })
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout)).toEqual({ status: 'awaiting_payment', listed: true, error: '404 charge_not_found a requestId', account: 'object' })
  }, 90_000)

  it('importing svc-cli/sandbox, svc-cli/webhooks and svc-cli/client loads neither oclif, Ink nor React', () => {
    const probe = `
      import { registerHooks } from 'node:module'
      const seen = new Set()
      registerHooks({ resolve(spec, ctx, next) { const r = next(spec, ctx); seen.add(r.url); return r } })
      await import('svc-cli/webhooks')
      await import('svc-cli/client')
      const { startSandbox } = await import('svc-cli/sandbox')
      const sb = await startSandbox()
      await sb.trigger('charge.settled')
      await sb.close()
      const heavy = [...seen].filter((u) => /node_modules\\/(@oclif|ink|react|yoga-layout)\\//.test(u))
      console.log(JSON.stringify(heavy))
    `
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: app, env, encoding: 'utf8', timeout: 60_000 })
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout)).toEqual([])
  }, 90_000)
})
