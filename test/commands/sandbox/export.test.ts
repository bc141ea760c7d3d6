/**
 * `svc sandbox export`: the state to stdout (with a warning on a terminal: it holds the keys in
 * full) or to a file created 0600, replaced whole, with no temporary file left behind.
 */
import { execFileSync } from 'node:child_process'
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import SandboxExport from '../../../src/commands/sandbox/export.js'
import { ProfileStore } from '../../../src/lib/config/store.js'
import { SandboxClock } from '../../../src/lib/sandbox/engine/clock.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'
import { runCommand } from '../../helpers/run-command.js'

let sb: RunningSandbox
let clock: SandboxClock
const dir = mkdtempSync(join(tmpdir(), 'svc-export-'))

beforeAll(async () => {
  clock = new SandboxClock({ manual: true, start: Date.parse('2026-11-22T12:00:00.000Z') })
  sb = await startSandboxServer({ port: 0, inMemory: true, clock })
  const store = await ProfileStore.open()
  store.save('sandbox', { apiKey: sb.testKey, baseUrl: sb.baseUrl, webhookSecret: sb.webhookSecret })
})

afterAll(async () => {
  await sb.close()
  clock.stop()
})

describe('svc sandbox export', () => {
  it('prints the state on stdout, warning on a terminal that it holds the keys in full', async () => {
    const tty = await runCommand(SandboxExport, [], { tty: true })
    expect(tty.exitCode).toBe(0)
    const state = JSON.parse(tty.stdout) as { format: string; clock: { now: string }; tables: { api_keys: Array<{ key: string }> } }
    expect(state.format).toBe('svc-sandbox-state/1')
    expect(state.clock.now).toBe('2026-11-22T12:00:00.000Z')
    expect(state.tables.api_keys.map((k) => k.key)).toContain(sb.testKey)
    expect(tty.stderr).toContain("holds the sandbox's test API keys in full")
    const piped = await runCommand(SandboxExport, [])
    expect(piped.stderr).toBe('')
  })

  it('leaves out the live key and the webhook secret unless --include-live-secrets (issue 36.8)', async () => {
    const plain = await runCommand(SandboxExport, [])
    expect(plain.exitCode).toBe(0)
    expect(plain.stdout).not.toContain(sb.liveKey)
    expect(plain.stdout).not.toContain(sb.webhookSecret)
    const full = await runCommand(SandboxExport, ['--include-live-secrets'], { tty: true })
    expect(full.exitCode).toBe(0)
    const state = JSON.parse(full.stdout) as { tables: { api_keys: Array<{ key: string }> } }
    expect(state.tables.api_keys.map((k) => k.key)).toContain(sb.liveKey)
    expect(full.stdout).toContain(sb.webhookSecret)
    expect(full.stderr).toContain("holds the sandbox's API keys (live included) and webhook secret in full")
  })

  it('writes FILE with mode 0600, replacing an older world-readable one whole', async () => {
    const file = join(dir, 'state.json')
    writeFileSync(file, 'older, world-readable', { mode: 0o644 })
    const r = await runCommand(SandboxExport, ['-o', file])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain(`Wrote ${file} (mode 0600)`)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, 'utf8')).format).toBe('svc-sandbox-state/1')
    expect(readdirSync(dir)).toEqual(['state.json'])
  })

  it('counts in the singular what there is one of: "1 product sale", not "1 product sales" (issue 29 item 25)', async () => {
    const sale = await fetch(`${sb.baseUrl}/_sandbox/product-sales`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.testKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ productName: 'Curso de Pix', valueInCents: 9900, buyerEmail: 'ana@example.com' }),
    })
    expect(sale.status).toBe(201)
    const file = join(dir, 'one-sale.json')
    const r = await runCommand(SandboxExport, ['-o', file])
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toMatch(/: 0 charges, 0 withdrawals, 1 product sale, 1 event, \d+ deliver(y|ies); clock at /)
  })

  it('exits 2 naming -o when the file cannot be written', async () => {
    const r = await runCommand(SandboxExport, ['-o', join(dir, 'missing', 'state.json'), '--json'])
    expect(r.exitCode).toBe(2)
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'invalid_request', details: [{ field: 'output' }] })
  })

  it('names the directory that does not exist (trial report item 9)', async () => {
    const missing = join(dir, 'nonexist', 'dir')
    const r = await runCommand(SandboxExport, ['-o', join(missing, 'x.json')])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(`the directory ${missing} does not exist`)
    expect(r.stderr).toContain(`mkdir -p ${missing}`)
    expect(r.stderr).not.toContain('ENOENT')
  })
})

describe('svc sandbox export -o never replaces what is not a regular file (issue 29 item 4)', () => {
  it('refuses a symlink with exit 2, leaving the link and its target as they were', async () => {
    const target = join(dir, 'target.txt')
    writeFileSync(target, 'the target')
    const link = join(dir, 'link.json')
    symlinkSync(target, link)
    const r = await runCommand(SandboxExport, ['-o', link, '--json'])
    expect(r.exitCode).toBe(2)
    const err = JSON.parse(r.stderr).error
    expect(err).toMatchObject({ code: 'invalid_request', details: [{ field: 'output' }] })
    expect(err.message).toContain('symlink')
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readlinkSync(link)).toBe(target)
    expect(readFileSync(target, 'utf8')).toBe('the target')
  })

  it('refuses a device (/dev/null) and a directory, saying what is there', async () => {
    const dev = await runCommand(SandboxExport, ['-o', '/dev/null'])
    expect(dev.exitCode).toBe(2)
    expect(dev.stderr).toContain('Cannot write /dev/null: it is a device')
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true)
    const sub = join(dir, 'a-dir')
    mkdirSync(sub)
    const d = await runCommand(SandboxExport, ['-o', sub])
    expect(d.exitCode).toBe(2)
    expect(d.stderr).toContain('it is a directory')
    expect(statSync(sub).isDirectory()).toBe(true)
  })

  it('refuses a FIFO without opening it (which would block)', async () => {
    const fifo = join(dir, 'pipe')
    execFileSync('mkfifo', [fifo])
    const r = await runCommand(SandboxExport, ['-o', fifo])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('it is a FIFO')
    expect(lstatSync(fifo).isFIFO()).toBe(true)
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([])
  })
})
