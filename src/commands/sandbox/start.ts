import { Errors, Flags } from '@oclif/core'
import { BaseCommand } from '../../lib/command-kit/base.js'
import { UsageError } from '../../lib/errors.js'
import { getIO } from '../../lib/output/io.js'
import { painter } from '../../lib/output/color.js'
import { type SandboxReady, seedOption, runSandboxStart, webhookFaultsOption } from '../../lib/services/sandbox-start.js'
import { detachedNotes, keptProfilesNote, nextSteps, readyBanner, readyLines } from '../../lib/sandbox-client/ready-view.js'
import { detachedChild, detachedLogFile, sendDetachedError, startDetached } from '../../lib/services/sandbox-detach.js'
import { isLoopbackHost } from '../../lib/net/loopback.js'
import { untilStopSignal } from '../../lib/input/shutdown.js'
import { promptConfirm } from '../../lib/input/prompt.js'

export default class SandboxStart extends BaseCommand<typeof SandboxStart> {
  static override summary = 'Run the local emulator of the whole service, in the foreground or (--detach) in the background.'
  static override description =
    'A stateful copy of the service on loopback: every endpoint, keys and environments, the charge state machine with expiry ' +
    'and settlement on a controllable clock, signed webhooks with retries, rate limits and optional faults. On first start it ' +
    'creates a merchant, a svc_test_ and a svc_live_ key and a webhook secret (kept in the data dir and reused), and writes the ' +
    'profiles `sandbox` and `sandbox-live` (the default profile too when none exists), so other commands work at once. ' +
    'Profiles that point at another sandbox still running are never taken over: on a terminal you are asked, otherwise they ' +
    'are kept and stderr says how to reach the new one (SVC_BASE_URL and SVC_API_KEY). ' +
    'With --json it prints exactly one line {"baseUrl","testKey","liveKey","webhookSecret"} on stdout when ready, logs on ' +
    'stderr. Stops cleanly on Ctrl+C (SIGINT), SIGTERM or SIGHUP (in the foreground), letting deliveries in flight finish.\n\n' +
    '--detach runs it in the background (it survives the terminal closing) and returns once it serves, with the same ready ' +
    'output (--json included) and, on stderr, its pid, log and how to stop it; its log goes to sandbox.log beside the database (an extra ' +
    'in-memory sandbox, started while another runs: beside its own run file). `svc sandbox status` says whether it runs, ' +
    '`svc sandbox stop` stops it, `svc sandbox reset` empties its data. One sandbox per data dir: a second start on a data dir ' +
    'in use exits 5 naming the running one; a pid file left by a sandbox that died is detected and cleaned.'

  static override examples = [
    '<%= config.bin %> sandbox start',
    '<%= config.bin %> sandbox start --port 0 --in-memory --json > sandbox.json &',
    '<%= config.bin %> sandbox start --speed 60 --chaos 0.1',
    '<%= config.bin %> sandbox start --data ./.sandbox --no-profile',
    '<%= config.bin %> sandbox start --in-memory --port 0 --json   # a second one: the profiles stay with the first while it runs',
    '<%= config.bin %> sandbox start --detach --port 0 --json | jq -r .baseUrl',
    '<%= config.bin %> sandbox start --detach && npm test; <%= config.bin %> sandbox stop',
    '<%= config.bin %> sandbox start --webhook-faults duplicate=0.2,lose=0.1,fail-first=0.3 --seed 42',
    '<%= config.bin %> sandbox export -o state.json && <%= config.bin %> sandbox start --in-memory --port 0 --seed state.json',
  ]

  static override flags = {
    port: Flags.integer({ description: 'Port to listen on (0: any free port).', default: 8787, min: 0, max: 65_535 }),
    host: Flags.string({ description: 'Address to listen on. Anything but loopback exposes the sandbox and its keys to your network.', default: '127.0.0.1' }),
    data: Flags.string({ description: 'Directory for the sandbox database (default: <config dir>/sandbox).', helpValue: 'DIR', exclusive: ['in-memory'] }),
    'in-memory': Flags.boolean({ description: 'Keep nothing on disk: fresh keys and no charges on every start.', exclusive: ['data'] }),
    speed: Flags.string({ description: 'Sandbox seconds per wall second (e.g. 60: an hour-long hold settles in a minute).', helpValue: 'N' }),
    chaos: Flags.string({ description: 'Share of requests, 0 to 1, answered with a fault (500/503, dropped connection, slow answer).', helpValue: 'RATE' }),
    'no-profile': Flags.boolean({ description: 'Do not write the sandbox and sandbox-live profiles.' }),
    detach: Flags.boolean({ description: 'Run in the background; return once it serves (stop it with `svc sandbox stop`).' }),
    'webhook-faults': Flags.string({
      description:
        'Inject webhook faults, parts optional: duplicate=R (delivered twice, signed afresh), reorder=R (held until the next event of its resource went out, at most 60 s of sandbox time), ' +
        'lose=R (never sent: confirm with GET), delay=DURATION (every first attempt, sandbox clock), fail-first=R (first attempt fails as a network error; the retry schedule runs). ' +
        'R is a share from 0 to 1. Only the test environment gets faults: live stands for production and is delivered untouched. ' +
        '`sandbox deliveries` marks what was injected (held-back events show as held, lost ones as lost) and the log names each fault as it is injected. ' +
        'Without --seed a random seed is drawn and printed (on stderr with --detach).',
      helpValue: 'SPEC',
    }),
    seed: Flags.string({
      description:
        'Digits: the seed of the webhook faults (the same seed and events give the same faults). Anything else: a state file from `svc sandbox export` to start from ' +
        '(same ids, keys, secret and clock), into an empty data dir or --in-memory. Give it twice for both: --seed 42 --seed state.json. ' +
        'A state file is a regular file of at most 16 MiB, checked whole before anything is written (ids, states and their fields, fees that balance, ' +
        'references between tables, a sane clock); a refusal exits 2 naming the field, and any failure (a busy port too) leaves the data dir as it was.',
      helpValue: 'N|FILE',
      multiple: true,
    }),
  }

  async run(): Promise<void> {
    const { flags, io } = this
    const speed = number(flags.speed, 'speed', (n) => n > 0 && n <= 1_000_000, 'a number above 0, e.g. 60')
    const chaos = number(flags.chaos, 'chaos', (n) => n >= 0 && n <= 1, 'a rate from 0 to 1, e.g. 0.1')
    const webhookFaults = webhookFaultsOption(flags['webhook-faults'])
    const { faultsSeed, stateFile } = seedOption(flags.seed, webhookFaults !== undefined)
    if (!isLoopbackHost(flags.host)) {
      this.warnUser(`listening on ${flags.host}: anyone who can reach this address can use the sandbox and read its keys. Use --host 127.0.0.1 unless you mean it.`)
    }
    const paintErr = painter(io.colorErr)
    if (flags.detach) {
      const ready = await startDetached({ argv: this.argv.filter((a) => a !== '--detach'), dataDir: flags.data, inMemory: flags['in-memory'], env: io.env })
      this.printReady(ready, { speed, chaos }, false)
      this.noteKeptProfiles(ready)
      for (const note of detachedNotes(ready, faultsSeed !== undefined)) this.note(paintErr('dim', note))
      return
    }
    // Started by `--detach`: the ready output goes to the parent, which prints it.
    const child = detachedChild(io.env)
    const started = await runSandboxStart({
      port: flags.port,
      host: flags.host,
      dataDir: flags.data,
      inMemory: flags['in-memory'],
      speed,
      chaos,
      webhookFaults,
      webhookFaultsSeed: faultsSeed,
      stateFile,
      writeProfiles: !flags['no-profile'],
      openProfiles: this.factory.openProfiles,
      env: io.env,
      log: (line) => io.err(`${paintErr('dim', line)}\n`),
      detached: child !== undefined,
      logFile: detachedLogFile(io.env),
      confirmTakeover:
        io.canPrompt && !child && !flags.json ? (url) => promptConfirm(io, `The profiles sandbox and sandbox-live point at the sandbox still running at ${url}. Point them at this one instead?`) : undefined,
    })
    if (started.staleRun) this.note(paintErr('dim', `Cleaned the pid file of a sandbox that had died (pid ${started.staleRun.pid}, started ${started.staleRun.startedAt}).`))
    const { sandbox } = started
    const ready: SandboxReady = {
      sandbox: { baseUrl: sandbox.baseUrl, testKey: sandbox.testKey, liveKey: sandbox.liveKey, webhookSecret: sandbox.webhookSecret, panelUrl: sandbox.panelUrl, webhookFaults: sandbox.webhookFaults },
      dataDir: started.dataDir,
      profiles: started.profiles,
      ...(child && started.logFile ? { log: started.logFile } : {}),
    }
    if (child) child.sendReady(ready)
    else {
      this.printReady(ready, { speed, chaos }, true)
      this.noteKeptProfiles(ready)
    }
    const signal = await untilStopSignal({ hangup: !child })
    this.note(paintErr('dim', `${signal}: stopping the sandbox (finishing deliveries in flight)…`))
    await started.stop()
    this.note(paintErr('dim', 'Sandbox stopped.'))
  }

  /** Started by `--detach` and not ready yet: the parent ends with this error too (sandbox-detach.ts). */
  protected override async catch(err: Error & { oclif?: { exit?: number }; exitCode?: number }): Promise<never> {
    if (!(err instanceof Errors.ExitError)) await sendDetachedError((this.io ?? getIO()).env, err)
    return super.catch(err)
  }

  /**
   * Once: on a terminal the banner's Profiles row says the profiles were kept and how to use this
   * sandbox (and the next steps give the line to paste), so the warning is for pipes and --json.
   */
  private noteKeptProfiles(ready: SandboxReady): void {
    const note = keptProfilesNote(ready)
    if (note && (this.flags.json || !this.io.isStdoutTTY)) this.warnUser(note)
  }

  /** The command's render: the ready output, the same in the foreground and after --detach. */
  private printReady(ready: SandboxReady, opts: { speed?: number; chaos?: number }, foreground: boolean): void {
    const { io, flags } = this
    const { sandbox } = ready
    if (flags.json) {
      this.printJsonLine({ baseUrl: sandbox.baseUrl, testKey: sandbox.testKey, liveKey: sandbox.liveKey, webhookSecret: sandbox.webhookSecret })
    } else if (io.isStdoutTTY) {
      io.out(readyBanner(ready, opts, painter(io.color)))
      if (foreground && io.isStderrTTY) io.err(nextSteps(ready, painter(io.colorErr)))
    } else {
      io.out(readyLines(ready))
    }
  }
}

function number(raw: string | undefined, field: string, ok: (n: number) => boolean, expected: string): number | undefined {
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (raw.trim() === '' || !Number.isFinite(n) || !ok(n)) throw new UsageError(`--${field} must be ${expected}, not "${raw}".`, { field })
  return n
}
