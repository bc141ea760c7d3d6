/**
 * `svc sandbox status|stop|start` never take a pid for a sandbox without proof (issue 25 item 1).
 * A sandbox killed before it was ready leaves a pid file; once the OS gives its pid to another
 * program, or another sandbox answers on its old port, that program must be left alone: status
 * says not running and cleans the file, stop sends no signal, start starts. Real processes: a
 * `sleep` child stands for the stranger, and a second detached sandbox for the other sandbox.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { isAlive, processStartTime, RUN_FILE, type RunInfo, runState } from '../../src/lib/sandbox-client/runfile.js'
import { svc } from '../helpers/cli.js'

const config = mkdtempSync(join(tmpdir(), 'svc-identity-'))
const env = { SVC_CONFIG_DIR: config, SVC_API_KEY: undefined, SVC_BASE_URL: undefined, SVC_PROFILE: undefined }
const dataDir = join(config, 'sandbox')
const runFile = join(dataDir, RUN_FILE)
const children: ChildProcess[] = []
const pids: number[] = []

afterAll(() => {
  for (const c of children) c.kill('SIGKILL')
  for (const pid of pids) if (isAlive(pid)) process.kill(pid, 'SIGKILL')
})

function stranger(): ChildProcess {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' })
  children.push(child)
  return child
}

/** The run file a sandbox of this data dir would have left: another process's start time, its own nonce. */
function leaveRunFile(info: Partial<RunInfo> & { pid: number }): void {
  mkdirSync(dataDir, { recursive: true })
  const full: RunInfo = { baseUrl: '', dataDir, startedAt: new Date(Date.now() - 120_000).toISOString(), version: '0.0.0', detached: true, nonce: 'a'.repeat(32), ...info }
  writeFileSync(runFile, JSON.stringify(full))
}

function stillAlive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null && isAlive(child.pid!)
}

describe('a pid file whose pid the OS gave to another program', () => {
  it('status says not running and cleans it, stop leaves the process alone, start starts', async () => {
    const sleep = stranger()
    const own = processStartTime(sleep.pid!)
    // Where /proc exists the sandbox recorded its own start time, which is not the stranger's.
    const procStart = own === undefined ? undefined : String(Number(own) - 1)

    leaveRunFile({ pid: sleep.pid!, procStart })
    const status = await svc(['sandbox', 'status', '--json'], { env })
    expect(status.exitCode).toBe(4)
    expect(JSON.parse(status.stdout)).toMatchObject({ running: false })
    expect(status.stderr).toContain(`pid ${sleep.pid}`)
    expect(existsSync(runFile)).toBe(false)
    expect(stillAlive(sleep)).toBe(true)

    leaveRunFile({ pid: sleep.pid!, procStart })
    const stop = await svc(['sandbox', 'stop'], { env })
    expect(stop.exitCode).toBe(0)
    expect(stop.stderr).not.toContain('Stopped the sandbox')
    expect(stop.stderr).toContain('No sandbox runs')
    await new Promise((r) => setImmediate(r))
    expect(stillAlive(sleep)).toBe(true)

    // A fresh file, as if it had died still starting a moment ago: start does not exit 5 for it.
    leaveRunFile({ pid: sleep.pid!, procStart, startedAt: new Date().toISOString() })
    const start = await svc(['sandbox', 'start', '--detach', '--port', '0', '--json'], { env, timeoutMs: 30_000 })
    // Nothing but the note of where it runs (on stderr with --json too).
    expect(start.stderr).toMatch(/^Running in the background \(pid \d+\); log: [^\n]+\n$/)
    expect(start.exitCode).toBe(0)
    const running = await svc(['sandbox', 'status', '--json'], { env })
    expect(running.exitCode).toBe(0)
    const pid = JSON.parse(running.stdout).pid as number
    pids.push(pid)
    expect(pid).not.toBe(sleep.pid)
    expect((await svc(['sandbox', 'stop'], { env })).exitCode).toBe(0)
    expect(isAlive(pid)).toBe(false)
    expect(stillAlive(sleep)).toBe(true)
  })

  it('a file without the start time or the nonce of a start proves nothing: the stranger is left alone', async () => {
    const sleep = stranger()
    leaveRunFile({ pid: sleep.pid!, nonce: undefined, procStart: undefined, startedAt: new Date().toISOString() })
    const stop = await svc(['sandbox', 'stop', '--json'], { env })
    expect(stop.exitCode).toBe(0)
    expect(JSON.parse(stop.stdout)).toEqual({ stopped: false, running: false })
    expect(stillAlive(sleep)).toBe(true)
  })

  it('another live sandbox answering at the old URL without the nonce is not taken for it', async () => {
    const other = await svc(['sandbox', 'start', '--detach', '--in-memory', '--port', '0', '--no-profile', '--json'], { env, timeoutMs: 30_000 })
    expect(other.exitCode).toBe(0)
    const { baseUrl } = JSON.parse(other.stdout) as { baseUrl: string }
    const otherStatus = JSON.parse((await svc(['sandbox', 'status', '--in-memory', '--json'], { env })).stdout) as { pid: number }
    pids.push(otherStatus.pid)

    // The worst case: the old pid is now that other sandbox's, and it answers at the old URL.
    // No start time to compare (as on a system without /proc): only the nonce can tell.
    leaveRunFile({ pid: otherStatus.pid, baseUrl, procStart: undefined })
    const status = await svc(['sandbox', 'status', '--json'], { env })
    expect(status.exitCode).toBe(4)
    expect(existsSync(runFile)).toBe(false)

    leaveRunFile({ pid: otherStatus.pid, baseUrl, procStart: undefined })
    const stop = await svc(['sandbox', 'stop'], { env })
    expect(stop.exitCode).toBe(0)
    expect(stop.stderr).not.toContain('Stopped the sandbox')
    expect(isAlive(otherStatus.pid)).toBe(true)
    // It still serves, and its own pid file still names it.
    const still = await svc(['sandbox', 'status', '--in-memory', '--json'], { env })
    expect(still.exitCode).toBe(0)
    expect(JSON.parse(still.stdout)).toMatchObject({ running: true, baseUrl })

    expect((await svc(['sandbox', 'stop', '--in-memory'], { env })).exitCode).toBe(0)
    expect(isAlive(otherStatus.pid)).toBe(false)
  })
})

describe('runState', () => {
  it('the recorded start time proves the process itself, even when its URL does not answer (a busy or hung sandbox is still stoppable)', async () => {
    const procStart = processStartTime(process.pid)
    expect(procStart).toMatch(/^\d+$/)
    leaveRunFile({ pid: process.pid, procStart, baseUrl: 'http://127.0.0.1:9' })
    let probed = false
    const state = await runState(dataDir, {
      probe: async () => {
        probed = true
        return { kind: 'unreachable' }
      },
    })
    expect(state).toMatchObject({ kind: 'running', info: { pid: process.pid } })
    expect(probed).toBe(false)
  })

  it('without a start time to compare, the URL must echo the nonce: the same nonce is running, none is not', async () => {
    leaveRunFile({ pid: process.pid, procStart: undefined, baseUrl: 'http://127.0.0.1:9' })
    expect((await runState(dataDir, { probe: async () => ({ kind: 'sandbox', instance: 'a'.repeat(32) }) })).kind).toBe('running')
    expect(await runState(dataDir, { probe: async () => ({ kind: 'sandbox' }) })).toMatchObject({ kind: 'stale', reason: 'reused' })
    expect(await runState(dataDir, { probe: async () => ({ kind: 'unreachable' }) })).toMatchObject({ kind: 'stale', reason: 'unproven' })
  })
})
