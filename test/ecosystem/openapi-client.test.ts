/**
 * The document works with a third-party generator (CLI.md 0.4): openapi-typescript makes the types
 * of test/fixtures/openapi-client/api.d.ts from `svc openapi` (the checked-in copy must be what
 * the generator makes of today's document), tsc type-checks a small openapi-fetch script with
 * them, and the script drives a charge on a sandbox.
 */
import { execFile } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import openapiTS from 'openapi-typescript'
import { describe, expect, it } from 'vitest'
import { buildOpenApiDocument } from '../../src/lib/contract/openapi.js'
import { driveCharge } from '../fixtures/openapi-client/drive.js'
import { ROOT } from '../helpers/run-command.js'
import { useSandboxClient } from '../helpers/sandbox-client.js'

const DIR = join(ROOT, 'test/fixtures/openapi-client')
const TYPES = join(DIR, 'api.d.ts')

describe('a client generated from the document (openapi-typescript + openapi-fetch)', () => {
  const ctx = useSandboxClient()

  it("the checked-in types are what openapi-typescript makes of today's document", async () => {
    const generated = await openapiTS(JSON.parse(JSON.stringify(buildOpenApiDocument())))
    // SVC_UPDATE_FIXTURES=1 rewrites the copy after a change to the contract.
    if (process.env.SVC_UPDATE_FIXTURES === '1') writeFileSync(TYPES, generated)
    expect(readFileSync(TYPES, 'utf8'), 'stale: run SVC_UPDATE_FIXTURES=1 npx vitest run test/ecosystem/openapi-client.test.ts').toBe(generated)
  })

  it('type-checks a script that uses them (tsc, strict)', { timeout: 120_000 }, async () => {
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc')
    const run = await promisify(execFile)(process.execPath, [tsc, '-p', join(DIR, 'tsconfig.json')], { cwd: DIR, timeout: 110_000 }).then(
      () => ({ code: 0, out: '' }),
      (err: { code?: number; stdout?: string }) => ({ code: err.code ?? 1, out: err.stdout ?? '' }),
    )
    expect(run.out).toBe('')
    expect(run.code).toBe(0)
  })

  it('drives a charge on the sandbox: created, advanced to settled, read back; an unknown id is charge_not_found', async () => {
    const r = await driveCharge(ctx.sandbox.baseUrl, ctx.sandbox.testKey)
    expect(r.created.status).toBe('awaiting_payment')
    expect(r.created.amount.grossInCents).toBe(1500)
    expect(r.settled.status).toBe('settled')
    expect(r.read).toMatchObject({ id: r.created.id, status: 'settled', metadata: { order: '42' } })
    expect(r.read.settlement.blockchainTxId).toBeTruthy()
    expect(r.missingCode).toBe('charge_not_found')
  })
})
