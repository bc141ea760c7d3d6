/**
 * The sandbox in a merchant's CI: `svc sandbox start --detach` (the built binary, as a CI job runs
 * it) returns once it serves with the foreground's ready output, survives its parent, and is
 * driven by `status`, `reset` and `stop`; a kill -9 leaves a pid file that status and start clean.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { isAlive } from '../../src/lib/sandbox-client/runfile.js'
import { svc } from '../helpers/cli.js'

const config = mkdtempSync(join(tmpdir(), 'svc-detach-'))
const env = { SVC_CONFIG_DIR: config, SVC_API_KEY: undefined, SVC_BASE_URL: undefined, SVC_PROFILE: undefined }
const pids: number[] = []

afterAll(() => {
  for (const pid of pids) if (isAlive(pid)) process.kill(pid, 'SIGKILL')
})

async function status(): Promise<{ exitCode: number; body: Record<string, unknown> }> {
  const r = await svc(['sandbox', 'status', '--json'], { env })
  return { exitCode: r.exitCode, body: JSON.parse(r.stdout) }
}

describe('svc sandbox start --detach, status, reset, stop', () => {
  it('runs in the background with the same ready output, refuses a second start, resets, stops cleanly', async () => {
    const started = await svc(['sandbox', 'start', '--detach', '--port', '0', '--json'], { env, timeoutMs: 30_000 })
    expect(started.exitCode).toBe(0)
    const ready = JSON.parse(started.stdout) as { baseUrl: string; testKey: string; liveKey: string; webhookSecret: string }
    expect(Object.keys(ready)).toEqual(['baseUrl', 'testKey', 'liveKey', 'webhookSecret'])
    expect(ready.testKey).toMatch(/^svc_test_/)

    // It outlived the command that started it, and serves.
    const s = await status()
    expect(s.exitCode).toBe(0)
    expect(s.body).toMatchObject({ running: true, baseUrl: ready.baseUrl, dataDir: join(config, 'sandbox'), detached: true })
    pids.push(s.body.pid as number)
    expect(JSON.stringify(s.body)).not.toContain(ready.testKey)

    const second = await svc(['sandbox', 'start', '--detach', '--port', '0'], { env })
    expect(second.exitCode).toBe(5)
    expect(second.stderr).toContain(`pid ${s.body.pid} at ${ready.baseUrl}`)

    const created = await svc(['charges', 'create', '--amount', '1500', '--payer-tax-number', '529.982.247-25', '-q'], { env })
    expect(created.exitCode).toBe(0)
    expect((await svc(['sandbox', 'reset'], { env })).exitCode).toBe(2) // no terminal: --yes is required
    const reset = await svc(['sandbox', 'reset', '--yes'], { env })
    expect(reset.exitCode).toBe(0)
    const afterReset = await svc(['charges', 'get', created.stdout.trim()], { env })
    expect(afterReset.exitCode).toBe(4)
    // Keys and secret stayed: the same profile still works.
    expect((await svc(['account', '--json'], { env })).exitCode).toBe(0)

    const stopped = await svc(['sandbox', 'stop'], { env })
    expect(stopped.exitCode).toBe(0)
    expect(stopped.stderr).toContain(`Stopped the sandbox at ${ready.baseUrl}`)
    expect(isAlive(s.body.pid as number)).toBe(false)
    expect((await status()).exitCode).toBe(4)
    expect((await svc(['sandbox', 'stop'], { env })).exitCode).toBe(0)
  })

  it('with --webhook-faults and no --seed, says the random seed on stderr, --json included (issue 29 item 19)', async () => {
    const data = mkdtempSync(join(tmpdir(), 'svc-detach-seed-'))
    const started = await svc(['sandbox', 'start', '--detach', '--port', '0', '--data', data, '--no-profile', '--webhook-faults', 'lose=0.1', '--json'], { env, timeoutMs: 30_000 })
    expect(started.exitCode).toBe(0)
    expect(started.stdout.trim().split('\n')).toHaveLength(1)
    const seed = /Webhook faults seed (\d+) \(drawn at random\): add --seed \1 to replay/.exec(started.stderr)
    expect(seed, started.stderr).not.toBeNull()
    pids.push(Number(/pid (\d+)/.exec(started.stderr)![1]))
    expect((await svc(['sandbox', 'stop', '--data', data], { env })).exitCode).toBe(0)
    const given = await svc(['sandbox', 'start', '--detach', '--port', '0', '--data', data, '--no-profile', '--webhook-faults', 'lose=0.1', '--seed', '42', '--json'], { env, timeoutMs: 30_000 })
    expect(given.exitCode).toBe(0)
    pids.push(Number(/pid (\d+)/.exec(given.stderr)![1]))
    expect(given.stderr).not.toContain('drawn at random')
    expect((await svc(['sandbox', 'stop', '--data', data], { env })).exitCode).toBe(0)
  })

  it('after kill -9, status reports it dead and cleans up, and start works again on the same data dir', async () => {
    const started = await svc(['sandbox', 'start', '--detach', '--port', '0', '--json'], { env, timeoutMs: 30_000 })
    expect(started.exitCode).toBe(0)
    const pid = (await status()).body.pid as number
    pids.push(pid)
    process.kill(pid, 'SIGKILL')

    const after = await svc(['sandbox', 'status'], { env })
    expect(after.exitCode).toBe(4)
    expect(after.stderr).toContain(`had died (pid ${pid}`)

    const again = await svc(['sandbox', 'start', '--detach', '--port', '0', '--json'], { env, timeoutMs: 30_000 })
    expect(again.exitCode).toBe(0)
    const s = await status()
    pids.push(s.body.pid as number)
    expect(s.body.running).toBe(true)
    // Same data dir, same keys.
    expect(JSON.parse(again.stdout).testKey).toBe(JSON.parse(started.stdout).testKey)
    expect((await svc(['sandbox', 'stop'], { env })).exitCode).toBe(0)
  })
})

describe('svc sandbox start --detach with a bad --seed FILE (trial report item 3)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-detach-seed-'))
  writeFileSync(join(dir, 'not-json.json'), 'not json')
  writeFileSync(join(dir, 'wrong-format.json'), '{"a":1}')
  const seedEnv = { ...env, SVC_CONFIG_DIR: dir }

  it.each([
    ['a missing file', 'missing.json'],
    ['a file that is not JSON', 'not-json.json'],
    ['a file in the wrong format', 'wrong-format.json'],
  ])(
    'shows the same error as the foreground for %s (text, colour and --json), and exits the same',
    async (_what, file) => {
      for (const extra of [[], ['--json']]) {
        for (const colour of [{}, { FORCE_COLOR: '1' }]) {
          const args = ['sandbox', 'start', '--in-memory', '--port', '0', '--seed', join(dir, file), ...extra]
          const foreground = await svc(args, { env: { ...seedEnv, ...colour } })
          const detached = await svc([...args, '--detach'], { env: { ...seedEnv, ...colour }, timeoutMs: 30_000 })
          expect(foreground.exitCode).toBe(2)
          expect(foreground.stderr).toContain('--seed')
          expect({ exitCode: detached.exitCode, stderr: detached.stderr, stdout: detached.stdout }).toEqual({ exitCode: 2, stderr: foreground.stderr, stdout: '' })
          expect(detached.stderr).not.toContain('before it was ready')
        }
      }
    },
    60_000,
  )
})

describe('extra in-memory sandboxes started with --detach (trial report item 4)', () => {
  it('with --json still say their pid, log and how to stop them on stderr; each writes its own log beside its own run file', async () => {
    const memEnv = { ...env, SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-detach-mem-')) }
    const memoryDir = join(memEnv.SVC_CONFIG_DIR, 'sandbox-memory')
    const started = []
    for (let i = 0; i < 2; i++) {
      const r = await svc(['sandbox', 'start', '--detach', '--in-memory', '--port', '0', '--json', '--no-profile'], { env: memEnv, timeoutMs: 30_000 })
      expect(r.exitCode).toBe(0)
      const ready = JSON.parse(r.stdout) as { baseUrl: string }
      expect(r.stdout.trim().split('\n')).toHaveLength(1)
      // One sentence whose parenthesis closes (issue 29 item 25): `… Stop it with \`kill PID\` (or every in-memory one: \`…\`).`
      const note = /Running in the background \(pid (\d+)\); log: (.+)\. Stop it with `([^`]+)`((?: \(or every in-memory one: `[^`]+`\))?)\.$/m.exec(r.stderr)
      expect(note).not.toBeNull()
      pids.push(Number(note![1]))
      started.push({ baseUrl: ready.baseUrl, pid: Number(note![1]), log: note![2]!, stop: note![3]!, orAll: note![4]! })
    }
    const [first, extra] = started as [(typeof started)[0], (typeof started)[0]]
    expect(first.log).toBe(join(memoryDir, 'sandbox.log'))
    expect(first.stop).toBe('svc sandbox stop --in-memory')
    expect(first.orAll).toBe('')
    expect(extra.stop).toBe(`kill ${extra.pid}`)
    expect(extra.orAll).toBe(' (or every in-memory one: `svc sandbox stop --in-memory --all`)')
    // The extra one's log is beside its own run file, and holds its lines only.
    const runFile = JSON.parse(readFileSync(join(dirname(extra.log), 'sandbox.pid.json'), 'utf8')) as { pid: number; log: string }
    expect(runFile).toMatchObject({ pid: extra.pid, log: extra.log })
    expect(readFileSync(extra.log, 'utf8')).toContain(`sandbox listening on ${extra.baseUrl}`)
    expect(readFileSync(extra.log, 'utf8')).not.toContain(first.baseUrl)
    expect(readFileSync(first.log, 'utf8')).not.toContain(extra.baseUrl)

    // An extra one that fails to start leaves no log of its own behind: its error says it all.
    const failed = await svc(['sandbox', 'start', '--detach', '--in-memory', '--port', '0', '--seed', join(memoryDir, 'missing.json')], { env: memEnv, timeoutMs: 30_000 })
    expect(failed.exitCode).toBe(2)
    expect(failed.stderr).toContain('cannot read the state file')
    expect(readdirSync(memoryDir).filter((f) => f.startsWith('sandbox.pending-'))).toEqual([])

    process.kill(extra.pid, 'SIGTERM')
    expect((await svc(['sandbox', 'stop', '--in-memory'], { env: memEnv })).exitCode).toBe(0)
  }, 60_000)
})

describe('several in-memory sandboxes: status and stop --in-memory see them all (trial report item 1)', () => {
  it('status reports every one (exit 0 while any runs, 4 when none); stop stops the first, stop --all the rest', async () => {
    const memEnv = { ...env, SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-detach-many-')) }
    const run = (args: string[]) => svc(['sandbox', ...args], { env: memEnv, timeoutMs: 30_000 })
    const started: Array<{ baseUrl: string; pid: number }> = []
    for (let i = 0; i < 3; i++) {
      const r = await run(['start', '--detach', '--in-memory', '--port', '0', '--json', '--no-profile'])
      expect(r.exitCode).toBe(0)
      const pid = Number(/Running in the background \(pid (\d+)\)/.exec(r.stderr)![1])
      pids.push(pid)
      started.push({ baseUrl: (JSON.parse(r.stdout) as { baseUrl: string }).baseUrl, pid })
    }
    const [first, second, third] = started as [(typeof started)[0], (typeof started)[0], (typeof started)[0]]
    const status = async () => {
      const r = await run(['status', '--in-memory', '--json'])
      return { exitCode: r.exitCode, body: JSON.parse(r.stdout) as { running: boolean; pid?: number; baseUrl?: string; others?: Array<{ pid: number; baseUrl: string }> } }
    }

    // --json: the first as today's object, the others beside it, in the order they started.
    const all = await status()
    expect(all.exitCode).toBe(0)
    expect(all.body).toMatchObject({ running: true, pid: first.pid, baseUrl: first.baseUrl, dataDir: null, detached: true })
    expect(all.body.others?.map((o) => [o.pid, o.baseUrl])).toEqual([
      [second.pid, second.baseUrl],
      [third.pid, third.baseUrl],
    ])
    // Piped: one field<TAB>value block each, a blank line between them.
    const piped = await run(['status', '--in-memory'])
    const blocks = piped.stdout.trimEnd().split('\n\n')
    expect(blocks.map((b) => /^pid\t(\d+)$/m.exec(b)?.[1])).toEqual(started.map((s) => String(s.pid)))
    expect(blocks[0]!.split('\n')[0]).toBe('running\ttrue')
    expect(piped.stdout).not.toContain('others')

    // stop --in-memory stops the first, as before; status still sees the two that run.
    expect((await run(['stop', '--in-memory'])).stderr).toContain(`Stopped the sandbox at ${first.baseUrl} (pid ${first.pid})`)
    expect(isAlive(first.pid)).toBe(false)
    const after = await status()
    expect(after.exitCode).toBe(0)
    expect([after.body.pid, ...(after.body.others ?? []).map((o) => o.pid)]).toEqual([second.pid, third.pid])

    // Without --all it stops nothing more, and says what still runs.
    const again = await run(['stop', '--in-memory'])
    expect(again.exitCode).toBe(0)
    expect(again.stderr).toContain(`2 other in-memory sandboxes run (pid ${second.pid}, ${third.pid}): stop them with \`svc sandbox stop --in-memory --all\``)
    expect(isAlive(second.pid) && isAlive(third.pid)).toBe(true)

    // --all needs --in-memory (exit 2); with it, every one stops.
    expect((await run(['stop', '--all'])).exitCode).toBe(2)
    const stopAll = await run(['stop', '--in-memory', '--all', '--json'])
    expect(stopAll.exitCode).toBe(0)
    expect(JSON.parse(stopAll.stdout)).toEqual({ stopped: true, sandboxes: [second, third].map((s) => ({ pid: s.pid, baseUrl: s.baseUrl })) })
    expect(isAlive(second.pid) || isAlive(third.pid)).toBe(false)
    const none = await status()
    expect(none).toEqual({ exitCode: 4, body: { running: false, dataDir: null } })
    expect(JSON.parse((await run(['stop', '--in-memory', '--all', '--json'])).stdout)).toEqual({ stopped: false, sandboxes: [] })
  }, 90_000)
})
