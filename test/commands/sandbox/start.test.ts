import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, truncateSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { Errors } from '@oclif/core'
import { afterEach, describe, expect, it } from 'vitest'
import SandboxStart from '../../../src/commands/sandbox/start.js'
import SandboxStatus from '../../../src/commands/sandbox/status.js'
import SandboxStop from '../../../src/commands/sandbox/stop.js'
import { ProfileStore } from '../../../src/lib/config/store.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import { detectSandbox } from '../../../src/lib/sandbox-client/panel-client.js'
import { isLoopbackHost as isLoopback } from '../../../src/lib/net/loopback.js'
import { ROOT, runCommand } from '../../helpers/run-command.js'
import { testIO } from '../../helpers/test-io.js'

interface Started {
  stdout: () => string
  stderr: () => string
  /** Resolves with stdout once it holds a complete line. */
  firstLine: Promise<string>
  /** Sends the stop signal to the command and resolves with its exit code. */
  stop(signal?: 'SIGINT' | 'SIGTERM'): Promise<number>
}

const running: Started[] = []

/** Runs `sandbox start` in the background, reading its output as it comes (runCommand waits for the end). */
function start(argv: string[], opts: { tty?: boolean; env?: Record<string, string>; answer?: string } = {}): Started {
  const tty = opts.tty ?? false
  const before = new Set([...process.listeners('SIGTERM'), ...process.listeners('SIGINT')])
  // `answer`: a terminal on stdin too, which types this line when asked.
  const stdin = opts.answer === undefined ? Readable.from([]) : Readable.from([Buffer.from(`${opts.answer}\n`)])
  const env = { ...process.env, ...(opts.answer === undefined ? {} : { CI: '' }), ...opts.env }
  const t = testIO({ tty, stdin, stdinTTY: opts.answer !== undefined, env })
  const stdout = t.out
  const stderr = t.err
  const firstLine = new Promise<string>((resolve) => {
    const onText = () => {
      if (stdout().includes('\n')) resolve(stdout())
    }
    t.stdout.on('text', onText)
  })
  const done = SandboxStart.runWith(argv, ROOT, { io: t.io }).then(
    () => 0,
    (e: unknown) => {
      if (e instanceof Errors.ExitError) return e.oclif.exit ?? 1
      throw e
    },
  )
  const started: Started = {
    stdout,
    stderr,
    firstLine: Promise.race([firstLine, done.then((code) => `exited ${code}: ${stderr()}`)]),
    async stop(signal = 'SIGTERM') {
      // Call only the command's own handler: emitting the signal would reach the test runner's too.
      const handler = process.listeners(signal).find((l) => !before.has(l))
      ;(handler as ((s: string) => void) | undefined)?.(signal)
      return done
    },
  }
  running.push(started)
  return started
}

afterEach(async () => {
  for (const s of running.splice(0)) await s.stop().catch(() => {})
})

describe('svc sandbox start', () => {
  it('--json prints exactly one line with the base URL, both keys and the secret, and writes the profiles', async () => {
    const s = start(['--json', '--in-memory', '--port', '0'])
    const line = await s.firstLine
    const ready = JSON.parse(line) as Record<string, string>
    expect(Object.keys(ready)).toEqual(['baseUrl', 'testKey', 'liveKey', 'webhookSecret'])
    expect(ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(ready.testKey).toMatch(/^svc_test_/)
    expect(ready.liveKey).toMatch(/^svc_live_/)
    expect(ready.webhookSecret).toMatch(/^whsec_/)
    expect(await detectSandbox(ready.baseUrl!)).toBe(true)

    const store = await ProfileStore.open()
    expect(store.get('sandbox')).toEqual({ apiKey: ready.testKey, baseUrl: ready.baseUrl, webhookSecret: ready.webhookSecret })
    expect(store.get('sandbox-live')).toEqual({ apiKey: ready.liveKey, baseUrl: ready.baseUrl, webhookSecret: ready.webhookSecret })
    expect(store.defaultProfile).toBe('sandbox')

    expect(await s.stop('SIGTERM')).toBe(0)
    expect(s.stdout()).toBe(line)
    expect(s.stderr()).toContain('Sandbox stopped.')
    expect(await detectSandbox(ready.baseUrl!)).toBe(false)
  })

  it('keeps an existing default profile, and --no-profile writes none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-start-'))
    const env = { SVC_CONFIG_DIR: dir }
    const store = await ProfileStore.open(env)
    store.save('work', { apiKey: 'svc_live_abcdefghijklmnop', baseUrl: 'https://api.example.test' })
    store.setDefault('work')

    const a = start(['--json', '--in-memory', '--port', '0', '--no-profile'], { env })
    await a.firstLine
    expect(await a.stop()).toBe(0)
    expect((await ProfileStore.open(env)).names()).toEqual(['work'])

    const b = start(['--json', '--in-memory', '--port', '0'], { env })
    await b.firstLine
    expect(await b.stop('SIGINT')).toBe(0)
    const after = await ProfileStore.open(env)
    expect(after.names()).toEqual(['sandbox', 'sandbox-live', 'work'])
    expect(after.defaultProfile).toBe('work')
  })

  describe('a second sandbox never takes over the profiles of one still running (issue 16 item 2)', () => {
    it('piped: keeps them, says how to reach the new one, and the first stays reachable after the second stops', async () => {
      const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-start-')) }
      const a = start(['--json', '--data', mkdtempSync(join(tmpdir(), 'svc-data-')), '--port', '0'], { env })
      const first = JSON.parse(await a.firstLine) as Record<string, string>
      const b = start(['--json', '--in-memory', '--port', '0'], { env })
      const second = JSON.parse(await b.firstLine) as Record<string, string>
      expect(second.baseUrl).not.toBe(first.baseUrl)
      expect(b.stderr()).toContain(`Kept the profiles sandbox and sandbox-live: they point at the sandbox still running at ${first.baseUrl}`)
      expect(b.stderr()).toContain(`export SVC_BASE_URL=${second.baseUrl}`)
      expect(b.stderr()).not.toContain(second.testKey)
      const store = await ProfileStore.open(env)
      expect(store.get('sandbox')).toMatchObject({ apiKey: first.testKey, baseUrl: first.baseUrl })
      expect(store.get('sandbox-live')).toMatchObject({ apiKey: first.liveKey, baseUrl: first.baseUrl })
      expect(await b.stop()).toBe(0)
      expect(await detectSandbox(first.baseUrl!)).toBe(true)
      expect(await a.stop()).toBe(0)
    })

    it('a terminal is asked: yes takes them over', async () => {
      const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-start-')), NO_COLOR: '1' }
      const a = start(['--json', '--data', mkdtempSync(join(tmpdir(), 'svc-data-')), '--port', '0'], { env })
      const first = JSON.parse(await a.firstLine) as Record<string, string>
      const b = start(['--in-memory', '--port', '0'], { env, tty: true, answer: 'y' })
      await b.firstLine
      expect(b.stderr()).toContain(`The profiles sandbox and sandbox-live point at the sandbox still running at ${first.baseUrl}. Point them at this one instead? [y/N]`)
      const store = await ProfileStore.open(env)
      expect(store.get('sandbox')?.baseUrl).not.toBe(first.baseUrl)
      expect(b.stdout()).toMatch(/Profiles\s+sandbox \(test key\)/)
      await b.stop()
      await a.stop()
    })

    it('a terminal is asked: no (or Enter) keeps them, and the banner says so', async () => {
      const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-start-')), NO_COLOR: '1' }
      const a = start(['--json', '--data', mkdtempSync(join(tmpdir(), 'svc-data-')), '--port', '0'], { env })
      const first = JSON.parse(await a.firstLine) as Record<string, string>
      const b = start(['--in-memory', '--port', '0'], { env, tty: true, answer: '' })
      await b.firstLine
      await new Promise((r) => setImmediate(r))
      expect((await ProfileStore.open(env)).get('sandbox')?.baseUrl).toBe(first.baseUrl)
      expect(b.stdout()).toContain(`not written: sandbox and sandbox-live point at the sandbox running at ${first.baseUrl}`)
      expect(b.stderr()).toContain('--base-url http://127.0.0.1:')
      // Said once, in the banner and the next steps: not again in a warning (issue 29 item 25).
      expect(b.stderr()).not.toContain('Kept the profiles')
      await b.stop()
      await a.stop()
    })

    it('profiles of a sandbox that no longer runs are replaced as before', async () => {
      const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-start-')) }
      const a = start(['--json', '--in-memory', '--port', '0'], { env })
      await a.firstLine
      await a.stop()
      const b = start(['--json', '--in-memory', '--port', '0'], { env })
      const second = JSON.parse(await b.firstLine) as Record<string, string>
      expect((await ProfileStore.open(env)).get('sandbox')?.baseUrl).toBe(second.baseUrl)
      expect(b.stderr()).not.toContain('Kept the profiles')
      await b.stop()
    })
  })

  it('a second in-memory sandbox on another port starts (parallel CI jobs); a second on the same data dir is refused (issue 24 item 4)', async () => {
    const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-start-')) }
    const a = start(['--json', '--in-memory', '--port', '0', '--no-profile'], { env })
    const first = JSON.parse(await a.firstLine) as Record<string, string>
    const b = start(['--json', '--in-memory', '--port', '0', '--no-profile'], { env })
    const line = await b.firstLine
    expect(line).not.toMatch(/^exited/)
    const second = JSON.parse(line) as Record<string, string>
    expect(second.baseUrl).not.toBe(first.baseUrl)
    expect(await detectSandbox(second.baseUrl!)).toBe(true)
    expect(await detectSandbox(first.baseUrl!)).toBe(true)
    // Its run file had a directory of its own, gone with it; one left by a process that died is cleaned.
    const memoryDir = join(env.SVC_CONFIG_DIR, 'sandbox-memory')
    expect(readdirSync(memoryDir).filter((n) => /^\d+-\d+$/.test(n))).toHaveLength(1)
    expect(await b.stop()).toBe(0)
    expect(readdirSync(memoryDir).filter((n) => /^\d+-\d+$/.test(n))).toEqual([])
    expect(await detectSandbox(first.baseUrl!)).toBe(true)
    mkdirSync(join(memoryDir, '999999999-0'))
    const again = start(['--json', '--in-memory', '--port', '0', '--no-profile'], { env })
    expect(await again.firstLine).not.toMatch(/^exited/)
    expect(readdirSync(memoryDir)).not.toContain('999999999-0')
    expect(await again.stop()).toBe(0)

    const data = mkdtempSync(join(tmpdir(), 'svc-data-'))
    const c = start(['--json', '--data', data, '--port', '0', '--no-profile'], { env })
    await c.firstLine
    const r = await runCommand(SandboxStart, ['--data', data, '--port', '0', '--no-profile'], { env })
    expect(r.exitCode).toBe(5)
    expect(r.stderr).toContain(`A sandbox already runs on the data dir ${data}`)
    expect(r.stderr).not.toContain('on memory')
    expect(r.stderr).toContain(`svc sandbox status --data ${data}`)
  })

  it('with only an in-memory sandbox running, status and stop without --in-memory name --in-memory and leave it alone (newcomer trial)', async () => {
    const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-start-')) }
    const a = start(['--json', '--in-memory', '--port', '0', '--no-profile'], { env })
    const { baseUrl } = JSON.parse(await a.firstLine) as { baseUrl: string }
    const tty = await runCommand(SandboxStatus, [], { env, tty: true })
    expect(tty.exitCode).toBe(4)
    expect(tty.stdout).toContain('No sandbox runs on')
    expect(tty.stdout).toContain(`An in-memory sandbox runs at ${baseUrl}`)
    expect(tty.stdout).toContain('svc sandbox status --in-memory')
    const piped = await runCommand(SandboxStatus, ['--json'], { env })
    expect(piped.exitCode).toBe(4)
    expect(JSON.parse(piped.stdout)).toEqual({ running: false, dataDir: join(env.SVC_CONFIG_DIR, 'sandbox') })
    expect(piped.stderr).toContain('svc sandbox status --in-memory')
    const stop = await runCommand(SandboxStop, [], { env })
    expect(stop.exitCode).toBe(0)
    expect(stop.stderr).toContain('No sandbox runs on')
    expect(stop.stderr).toContain('svc sandbox stop --in-memory')
    expect(await detectSandbox(baseUrl)).toBe(true)
    // With --in-memory it is found, and nothing more is said.
    expect((await runCommand(SandboxStatus, ['--in-memory'], { env })).exitCode).toBe(0)
  })

  it('reuses the keys and secret of its data dir after a restart', async () => {
    const data = mkdtempSync(join(tmpdir(), 'svc-sandbox-data-'))
    const first = start(['--json', '--data', data, '--port', '0', '--no-profile'])
    const one = JSON.parse(await first.firstLine) as Record<string, string>
    await first.stop()
    const second = start(['--json', '--data', data, '--port', '0', '--no-profile'])
    const two = JSON.parse(await second.firstLine) as Record<string, string>
    await second.stop()
    expect([two.testKey, two.liveKey, two.webhookSecret]).toEqual([one.testKey, one.liveKey, one.webhookSecret])
  })

  it('on a terminal prints the banner with the URL, the keys and the secret, and next steps on stderr', async () => {
    const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-start-')), NO_COLOR: '1' }
    const s = start(['--in-memory', '--port', '0', '--no-profile'], { tty: true, env })
    await s.firstLine
    await new Promise((r) => setImmediate(r))
    expect((await ProfileStore.open(env)).get('sandbox')).toBeUndefined()
    expect(s.stdout()).toMatch(/Local sandbox ready/)
    expect(s.stdout()).toMatch(/Base URL\s+http:\/\/127\.0\.0\.1:\d+/)
    expect(s.stdout()).toMatch(/Test key\s+svc_test_\w+/)
    expect(s.stdout()).toMatch(/Webhook secret\s+whsec_\w+/)
    expect(s.stderr()).toContain('svc charges create --amount 1500')
    expect(s.stderr()).toContain('Press Ctrl+C to stop.')
    expect(await s.stop()).toBe(0)
  })

  it('exits 2 with a hint when the port is taken, and on bad flag values, before starting', async () => {
    const blocker = createServer()
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r))
    const port = String((blocker.address() as { port: number }).port)
    try {
      const r = await runCommand(SandboxStart, ['--in-memory', '--port', port])
      expect(r.exitCode).toBe(2)
      expect(r.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`)
      expect(r.stderr).toContain('--port 0')
      expect(r.stderr).toContain('`svc sandbox status`')
    } finally {
      blocker.close()
    }
    for (const argv of [
      ['--speed', '0'],
      ['--chaos', '1.5'],
      ['--speed', 'fast'],
      ['--in-memory', '--data', '/tmp/x'],
    ]) {
      const r = await runCommand(SandboxStart, [...argv, '--port', '0'])
      expect(r.exitCode, argv.join(' ')).toBe(2)
      expect(r.stdout).toBe('')
    }
  })

  it('its summary names both ways it runs (issue 24 item 12)', () => {
    expect(SandboxStart.summary).toMatch(/foreground.*--detach.*background/)
  })

  it('knows which addresses are loopback (anything else gets a loud warning)', () => {
    expect(['127.0.0.1', 'localhost', '::1', '[::1]', '127.1.2.3'].every(isLoopback)).toBe(true)
    expect(['0.0.0.0', '::', '192.168.0.10', 'example.test'].some(isLoopback)).toBe(false)
  })
})

describe('a --seed FILE that is not JSON (trial report item 9)', () => {
  it('exits 2 suggesting an export into a new file, never over the one given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-seed-'))
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, 'my notes, not JSON')
    const r = await runCommand(SandboxStart, ['--in-memory', '--port', '0', '--no-profile', '--seed', bad], { env: { SVC_CONFIG_DIR: dir } })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(`svc sandbox export -o ${join(dir, 'bad.export.json')}`)
    expect(r.stderr).not.toContain(`-o ${bad}`)
  })
})

describe('--seed FILE that the sandbox cannot honour (issue 29 item 6)', () => {
  const seedDir = mkdtempSync(join(tmpdir(), 'svc-seed-hostile-'))

  it('a FIFO or a device is refused by what it is, without waiting for a writer', async () => {
    const fifo = join(seedDir, 'pipe')
    execFileSync('mkfifo', [fifo])
    for (const [path, what] of [
      [fifo, 'is a FIFO'],
      ['/dev/zero', 'is a device'],
      [seedDir, 'is a directory'],
    ] as const) {
      const r = await runCommand(SandboxStart, ['--in-memory', '--port', '0', '--no-profile', '--seed', path], { env: { SVC_CONFIG_DIR: seedDir } })
      expect(r.exitCode, path).toBe(2)
      expect(r.stderr, path).toContain(`the state file ${path} ${what}`)
    }
  })

  it('a file over 16 MiB is refused before it is read', async () => {
    const big = join(seedDir, 'big.json')
    writeFileSync(big, '')
    truncateSync(big, 16 * 1024 * 1024 + 1)
    const r = await runCommand(SandboxStart, ['--in-memory', '--port', '0', '--no-profile', '--seed', big], { env: { SVC_CONFIG_DIR: seedDir } })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('a state holds at most 16777216')
  })

  it('a fee that does not balance: exit 2 naming the field, and the data dir is not made', async () => {
    const sb = await startSandboxServer({ port: 0, inMemory: true })
    await fetch(`${sb.baseUrl}/v1/charges`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.testKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amountInCents: 1500, payerTaxNumber: '529.982.247-25' }),
    })
    const res = await fetch(`${sb.baseUrl}/_sandbox/export`, { headers: { authorization: `Bearer ${sb.testKey}` } })
    const state = (await res.json()) as { tables: { charges: Array<{ body: string }> } }
    await sb.close()
    const charge = JSON.parse(state.tables.charges[0]!.body)
    charge.amount.netInCents -= 1
    state.tables.charges[0]!.body = JSON.stringify(charge)
    const file = join(seedDir, 'unbalanced.json')
    writeFileSync(file, JSON.stringify(state))
    const data = join(seedDir, 'never-made')
    const r = await runCommand(SandboxStart, ['--data', data, '--port', '0', '--no-profile', '--seed', file, '--json'], { env: { SVC_CONFIG_DIR: seedDir } })
    expect(r.exitCode).toBe(2)
    const err = JSON.parse(r.stderr).error
    expect(err.details).toEqual([{ field: 'seed tables.charges[0].body.amount.netInCents', message: expect.stringContaining('is not gross 1500') }])
    expect(existsSync(data)).toBe(false)

    // The same state, balanced again, on a busy port: exit 2 naming the port, and still no data dir.
    charge.amount.netInCents += 1
    state.tables.charges[0]!.body = JSON.stringify(charge)
    writeFileSync(file, JSON.stringify(state))
    const busy = createServer()
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
    const port = String((busy.address() as { port: number }).port)
    try {
      const clash = await runCommand(SandboxStart, ['--data', data, '--port', port, '--no-profile', '--seed', file, '--json'], { env: { SVC_CONFIG_DIR: seedDir } })
      expect(clash.exitCode).toBe(2)
      expect(JSON.parse(clash.stderr).error.details).toEqual([{ field: 'port', message: expect.stringContaining('already in use') }])
      expect(existsSync(data)).toBe(false)
    } finally {
      await new Promise<void>((resolve) => busy.close(() => resolve()))
    }
  })
})
