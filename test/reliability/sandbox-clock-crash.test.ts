/**
 * The sandbox clock never runs backwards across a kill -9: a clock advanced by 25 h is still
 * ahead after the process is killed and started again on the same data dir, so new charges sort
 * after the old ones and the timers set on the advanced clock (a QR's expiry) still fall due.
 */
import { once } from 'node:events'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { type Background, svc, svcBackground } from '../helpers/cli.js'

const HOUR = 3_600_000
let running: Background | undefined

afterEach(async () => {
  await running?.stop()
  running = undefined
})

async function start(dataDir: string, env: Record<string, string>): Promise<{ baseUrl: string; testKey: string }> {
  running = await svcBackground(['sandbox', 'start', '--data', dataDir, '--port', '0', '--json', '--no-profile'], { env })
  return running.first as { baseUrl: string; testKey: string }
}

it('keeps an advanced clock ahead after a kill -9, and its timers still fall due', async () => {
  const config = mkdtempSync(join(tmpdir(), 'svc-clock-crash-'))
  const dataDir = join(config, 'data')
  const env = { SVC_CONFIG_DIR: config }
  const first = await start(dataDir, env)
  const api = { ...env, SVC_API_KEY: first.testKey, SVC_BASE_URL: first.baseUrl }

  expect((await svc(['sandbox', 'clock', 'advance', '25h'], { env: api })).exitCode).toBe(0)
  const before = JSON.parse((await svc(['charges', 'create', '--amount', '1500', '--json'], { env: api })).stdout) as { id: string; createdAt: string }
  expect(Date.parse(before.createdAt)).toBeGreaterThan(Date.now() + 24 * HOUR)

  running!.child.kill('SIGKILL')
  await once(running!.child, 'close')
  running = undefined

  const second = await start(dataDir, env)
  const api2 = { ...env, SVC_API_KEY: second.testKey, SVC_BASE_URL: second.baseUrl }
  const clock = JSON.parse((await svc(['sandbox', 'clock', 'show', '--json'], { env: api2 })).stdout) as { now: string }
  expect(Date.parse(clock.now)).toBeGreaterThanOrEqual(Date.parse(before.createdAt))

  const after = JSON.parse((await svc(['charges', 'create', '--amount', '1600', '--json'], { env: api2 })).stdout) as { id: string; createdAt: string }
  expect(Date.parse(after.createdAt)).toBeGreaterThanOrEqual(Date.parse(before.createdAt))
  const listed = (await svc(['charges', 'list', '-q'], { env: api2 })).stdout.trim().split('\n')
  expect(listed.slice(0, 2)).toEqual([after.id, before.id])

  // The QR of the charge made before the crash expires one hour after its creation, on the advanced clock.
  expect((await svc(['sandbox', 'clock', 'advance', '61m'], { env: api2 })).exitCode).toBe(0)
  const expired = JSON.parse((await svc(['charges', 'get', before.id, '--json'], { env: api2 })).stdout) as { status: string }
  expect(expired.status).toBe('expired')
}, 60_000)
