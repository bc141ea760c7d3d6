import { Flags } from '@oclif/core'
import { BaseCommand } from '../../lib/command/base.js'
import { UsageError } from '../../lib/errors.js'
import { painter } from '../../lib/output/color.js'
import { nextSteps, readyBanner, startLocalSandbox } from '../../lib/services/sandbox-start.js'
import { isLoopbackHost } from '../../lib/net/loopback.js'
import { untilStopSignal } from '../../lib/services/shutdown.js'

export default class SandboxStart extends BaseCommand<typeof SandboxStart> {
  static override summary = 'Run the local emulator of the whole service in the foreground.'
  static override description =
    'A stateful copy of the service on loopback: every endpoint, keys and environments, the charge state machine with expiry ' +
    'and settlement on a controllable clock, signed webhooks with retries, rate limits and optional faults. On first start it ' +
    'creates a merchant, a svc_test_ and a svc_live_ key and a webhook secret (kept in the data dir and reused), and writes the ' +
    'profiles `sandbox` and `sandbox-live` (the default profile too when none exists), so other commands work at once. ' +
    'With --json it prints exactly one line {"baseUrl","testKey","liveKey","webhookSecret"} on stdout when ready, logs on ' +
    'stderr. Stops cleanly on Ctrl+C (SIGINT) or SIGTERM.'

  static override examples = [
    '<%= config.bin %> sandbox start',
    '<%= config.bin %> sandbox start --port 0 --in-memory --json > sandbox.json &',
    '<%= config.bin %> sandbox start --speed 60 --chaos 0.1',
    '<%= config.bin %> sandbox start --data ./.sandbox --no-profile',
  ]

  static override flags = {
    port: Flags.integer({ description: 'Port to listen on (0: any free port).', default: 8787, min: 0, max: 65_535 }),
    host: Flags.string({ description: 'Address to listen on. Anything but loopback exposes the sandbox and its keys to your network.', default: '127.0.0.1' }),
    data: Flags.string({ description: 'Directory for the sandbox database (default: <config dir>/sandbox).', helpValue: 'DIR', exclusive: ['in-memory'] }),
    'in-memory': Flags.boolean({ description: 'Keep nothing on disk: fresh keys and no charges on every start.', exclusive: ['data'] }),
    speed: Flags.string({ description: 'Sandbox seconds per wall second (e.g. 60: an hour-long hold settles in a minute).', helpValue: 'N' }),
    chaos: Flags.string({ description: 'Share of requests, 0 to 1, answered with a fault (500/503, dropped connection, slow answer).', helpValue: 'RATE' }),
    'no-profile': Flags.boolean({ description: 'Do not write the sandbox and sandbox-live profiles.' }),
  }

  async run(): Promise<void> {
    const { flags, io } = this
    const speed = number(flags.speed, 'speed', (n) => n > 0 && n <= 1_000_000, 'a number above 0, e.g. 60')
    const chaos = number(flags.chaos, 'chaos', (n) => n >= 0 && n <= 1, 'a rate from 0 to 1, e.g. 0.1')
    if (!isLoopbackHost(flags.host)) {
      this.warnUser(`listening on ${flags.host}: anyone who can reach this address can use the sandbox and read its keys. Use --host 127.0.0.1 unless you mean it.`)
    }
    const paintErr = painter(io.colorErr)
    const started = await startLocalSandbox({
      port: flags.port,
      host: flags.host,
      dataDir: flags.data,
      inMemory: flags['in-memory'],
      speed,
      chaos,
      writeProfiles: !flags['no-profile'],
      env: io.env,
      log: (line) => io.err(`${paintErr('dim', line)}\n`),
    })
    const { sandbox } = started
    if (flags.json) {
      io.out(`${JSON.stringify({ baseUrl: sandbox.baseUrl, testKey: sandbox.testKey, liveKey: sandbox.liveKey, webhookSecret: sandbox.webhookSecret })}\n`)
    } else if (io.isStdoutTTY) {
      io.out(readyBanner(started, { speed, chaos }, painter(io.color)))
      if (io.isStderrTTY) io.err(nextSteps(started, paintErr))
    } else {
      io.out(`baseUrl\t${sandbox.baseUrl}\ntestKey\t${sandbox.testKey}\nliveKey\t${sandbox.liveKey}\nwebhookSecret\t${sandbox.webhookSecret}\n`)
    }
    const signal = await untilStopSignal()
    this.note(paintErr('dim', `${signal}: stopping the sandbox (finishing deliveries in flight)…`))
    await sandbox.close()
    this.note(paintErr('dim', 'Sandbox stopped.'))
  }
}

function number(raw: string | undefined, field: string, ok: (n: number) => boolean, expected: string): number | undefined {
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (raw.trim() === '' || !Number.isFinite(n) || !ok(n)) throw new UsageError(`--${field} must be ${expected}, not "${raw}".`, { field })
  return n
}
