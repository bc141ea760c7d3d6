/**
 * A merchant who writes Python (CLI.md 0.4): examples/python/drive_sandbox.py, standard library
 * only, starts a detached sandbox with the built `svc`, reads /openapi.json, drives a charge to
 * settled (advance, then the sandbox clock past the hold), receives and verifies the webhooks,
 * reads the delivery log over HTTP, and stops the sandbox. Needs python3 (skipped with a note
 * where it is missing; in CI, .ci/run installs Debian's).
 */
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BIN } from '../helpers/cli.js'
import { ROOT } from '../helpers/run-command.js'
import { needs } from '../helpers/system-tools.js'

const SCRIPT = join(ROOT, 'examples/python/drive_sandbox.py')
const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`

describe('examples/python/drive_sandbox.py', () => {
  it('drives create → advance → settled and reads the deliveries over HTTP, then stops the sandbox', { timeout: 90_000 }, async (ctx) => {
    const python = needs(ctx, 'python3')
    const child = spawn(python, [SCRIPT], { env: { ...process.env, SVC_BIN: `${quote(process.execPath)} ${quote(BIN)}`, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c))
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
    const timer = setTimeout(() => child.kill('SIGKILL'), 80_000)
    const [code] = (await once(child, 'close')) as [number | null]
    clearTimeout(timer)
    expect(stderr).toBe('')
    expect(code).toBe(0)
    const summary = JSON.parse(stdout) as { baseUrl: string; statuses: string[]; deliveries: Array<{ type: string; state: string }>; verified: number; operations: number }
    expect(summary.statuses).toEqual(['awaiting_payment', 'paid_pending_settlement', 'settled'])
    expect(summary.deliveries.map((d) => [d.type, d.state])).toEqual([
      ['charge.awaiting_payment', 'succeeded'],
      ['charge.paid_pending_settlement', 'succeeded'],
      ['charge.settled', 'succeeded'],
    ])
    expect(summary.verified).toBe(3)
    expect(summary.operations).toBeGreaterThan(20)
    // The sandbox was stopped: its port answers no more.
    await expect(fetch(`${summary.baseUrl}/_sandbox/info`)).rejects.toThrow()
  })

  it('--help says how to run it; without svc to run it says what to set, and starts nothing', (ctx) => {
    const python = needs(ctx, 'python3')
    const help = spawnSync(python, [SCRIPT, '--help'], { encoding: 'utf8' })
    expect(help.status).toBe(0)
    expect(help.stdout).toContain('SVC_BIN=')
    const missing = spawnSync(python, [SCRIPT], { encoding: 'utf8', env: { ...process.env, SVC_BIN: 'no-such-svc-binary' } })
    expect(missing.status).toBe(1)
    expect(missing.stderr).toContain('set SVC_BIN')
  })
})
