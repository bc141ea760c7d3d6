import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { describe, expect, it } from 'vitest'
import WebhooksCheck from '../../../src/commands/webhooks/check.js'
import { ProfileStore } from '../../../src/lib/config/store.js'
import WebhooksVerify from '../../../src/commands/webhooks/verify.js'
import { signatureHeader } from '../../../src/lib/webhooks/signature.js'
import { runCommand } from '../../helpers/run-command.js'

const secret = 'whsec_test_0123456789abcdef'
const body = '{"id":"evt_1","type":"charge.settled"}'
const now = Math.floor(Date.now() / 1000)

describe('svc webhooks verify', () => {
  it('accepts a valid delivery read from stdin and exits 0', async () => {
    const r = await runCommand(WebhooksVerify, ['--secret', secret, '--timestamp', String(now), '--signature', signatureHeader(secret, now, body)], { stdin: body })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe('valid (secret #1)\n')
  })

  it('rejects a tampered body with exit 1 and the reason', async () => {
    const file = join(process.env.SVC_CONFIG_DIR!, 'body.json')
    writeFileSync(file, body.replace('settled', 'refunded'))
    const r = await runCommand(WebhooksVerify, ['--secret', secret, '--timestamp', String(now), '--signature', signatureHeader(secret, now, body), '--body-file', file, '--json'])
    expect(r.exitCode).toBe(1)
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: false, reason: 'signature_mismatch' })
  })

  it('rejects a stale timestamp', async () => {
    const old = now - 301
    const r = await runCommand(WebhooksVerify, ['--secret', secret, '--timestamp', String(old), '--signature', signatureHeader(secret, old, body)], { stdin: body })
    expect(r.exitCode).toBe(1)
    expect(r.stdout).toContain('timestamp_too_old')
  })

  it('names the missing secret with exit 2', async () => {
    const r = await runCommand(WebhooksVerify, ['--timestamp', String(now), '--signature', signatureHeader(secret, now, body)], { stdin: body })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('secret')
  })

  it('a --body-file that does not exist or is a directory: exit 2 naming the flag and the path, not "a bug"', async () => {
    const sig = ['--secret', secret, '--timestamp', String(now), '--signature', signatureHeader(secret, now, body)]
    const missing = await runCommand(WebhooksVerify, [...sig, '--body-file', '/nonexistent'])
    expect(missing.exitCode).toBe(2)
    expect(missing.stderr).toContain('cannot read --body-file /nonexistent: no such file')
    expect(missing.stderr).not.toContain('bug')
    // The secret from the environment: --secret would add its warning before the one JSON error line.
    const dir = await runCommand(WebhooksVerify, [...sig.slice(2), '--body-file', process.env.SVC_CONFIG_DIR!, '--json'], { env: { SVC_WEBHOOK_SECRET: secret } })
    expect(dir.exitCode).toBe(2)
    expect(JSON.parse(dir.stderr)).toMatchObject({ error: { code: 'invalid_request', details: [{ field: 'body-file' }] } })
  })

  it('exits 2 when a required flag is missing', async () => {
    const r = await runCommand(WebhooksVerify, ['--secret', secret], { stdin: body })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/signature|timestamp/)
  })

  it("uses the profile's secret, as listen and check do (issue 16 item 18)", async () => {
    const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-verify-')) }
    const store = await ProfileStore.open(env)
    store.save('sandbox', { apiKey: 'svc_test_abcdefghijklmnop', baseUrl: 'http://127.0.0.1:1', webhookSecret: secret })
    store.setDefault('sandbox')
    const r = await runCommand(WebhooksVerify, ['--timestamp', String(now), '--signature', signatureHeader(secret, now, body)], { stdin: body, env })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe('valid (secret #1)\n')
  })

  it('--secret "" is an error (exit 2), never a silent fall-back to the profile\'s (issue 16 item 18)', async () => {
    const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-verify-')) }
    const store = await ProfileStore.open(env)
    store.save('sandbox', { apiKey: 'svc_test_abcdefghijklmnop', baseUrl: 'http://127.0.0.1:1', webhookSecret: secret })
    store.setDefault('sandbox')
    const verify = await runCommand(WebhooksVerify, ['--secret', '', '--timestamp', String(now), '--signature', signatureHeader(secret, now, body)], { stdin: body, env })
    expect(verify.exitCode).toBe(2)
    expect(verify.stderr).toContain('--secret is empty.')
    const check = await runCommand(WebhooksCheck, ['http://127.0.0.1:9/hooks', '--secret', ''], { env })
    expect(check.exitCode).toBe(2)
    expect(check.stderr).toContain('--secret is empty.')
  })
})
