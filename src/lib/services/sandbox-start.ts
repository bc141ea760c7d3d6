/**
 * `svc sandbox start` below the command: starts the emulator (loaded lazily: it pulls in
 * node:sqlite and the HTTP server), writes the `sandbox` / `sandbox-live` profiles so every other
 * command reaches it, and answers what the ready output shows (SandboxReady); the command renders
 * it (sandbox-client/ready-view.ts).
 */
import { existsSync, readdirSync, renameSync, rmdirSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { OpenProfiles, ProfileStore } from '../config/store.js'
import { CliError, UsageError } from '../errors.js'
import type { RunningSandbox } from '../sandbox/types.js'
import { SANDBOX_LIVE_PROFILE, SANDBOX_PROFILE } from '../config/profiles.js'
import { packageVersion } from '../config/package.js'
import { LOG_FILE, PENDING_LOG_PREFIX, type RunClaim, type RunInfo, claimRunFile, extraMemoryRunDir, panelProbe, runDir, sandboxDataDir } from '../sandbox-client/runfile.js'
import { parseWebhookFaults, type WebhookFaultRates, WebhookFaultsError } from '../sandbox/faults/spec.js'

export interface LocalSandboxOptions {
  port: number
  host: string
  dataDir?: string
  inMemory: boolean
  speed?: number
  chaos?: number
  writeProfiles: boolean
  /** The stored profiles (the run's factory's), opened only to write the sandbox's. */
  openProfiles: OpenProfiles
  env: NodeJS.ProcessEnv
  log: (line: string) => void
  /** `--webhook-faults`, checked (webhookFaultsOption). */
  webhookFaults?: WebhookFaultRates
  /** `--seed N`: the webhook faults' seed. */
  webhookFaultsSeed?: number
  /** `--seed FILE`: a state exported by `svc sandbox export` to start from. */
  stateFile?: string
  /** Started by `--detach` (its output goes to `logFile`). */
  detached?: boolean
  logFile?: string
  /**
   * Asked when the sandbox profiles point at another sandbox that still runs (a terminal only):
   * true takes them over. Without it they are kept, so the running one stays reachable.
   */
  confirmTakeover?: (runningBaseUrl: string) => Promise<boolean>
}

/** What became of the sandbox profiles. `keptFor`: not written, they point at this other running sandbox. */
export interface ProfilesOutcome {
  written: boolean
  madeDefault: boolean
  keptFor?: string
}

export interface StartedSandbox {
  sandbox: RunningSandbox
  /** Undefined in memory. */
  dataDir?: string
  profiles: ProfilesOutcome
  /** A run file left by a sandbox that had died, cleaned on the way. */
  staleRun?: RunInfo
  /** Where a detached sandbox's output goes (its own run dir's sandbox.log for an extra in-memory one). */
  logFile?: string
  /** Closes the sandbox (deliveries in flight finish) and frees its data dir. */
  stop(): Promise<void>
}

/**
 * A detached extra in-memory sandbox writes to a pending log of its own (its parent cannot know
 * its run dir); once it has one, the log moves there beside the run file (the open file keeps
 * being written). Any other log stays where it is.
 */
function ownLog(logFile: string | undefined, dir: string): string | undefined {
  if (!logFile || !basename(logFile).startsWith(PENDING_LOG_PREFIX)) return logFile
  if (dirname(logFile) === dir) return logFile
  const moved = join(dir, LOG_FILE)
  try {
    renameSync(logFile, moved)
    return moved
  } catch {
    return logFile
  }
}

/** What the ready output shows: enough for a detached sandbox's parent to print it too. */
export interface SandboxReady {
  sandbox: Pick<RunningSandbox, 'baseUrl' | 'testKey' | 'liveKey' | 'webhookSecret' | 'webhookFaults'> & { panelUrl?: string }
  dataDir?: string
  profiles: ProfilesOutcome
  /** Where its log went (a detached sandbox; the parent's guess otherwise). */
  log?: string
}

/**
 * The use-case of `svc sandbox start` (its `--detach` child included): data dir, state file,
 * the server, the profiles. It calls the server's `startSandboxServer` (sandbox/sandbox.ts); the
 * library's `startSandbox` (public/sandbox.ts) is the third, for tests in other projects.
 */
export async function runSandboxStart(opts: LocalSandboxOptions): Promise<StartedSandbox> {
  const dataDir = sandboxDataDir(opts)
  // A state file is read and checked before anything starts: a bad one exits 2 with nothing touched.
  const state =
    opts.stateFile === undefined
      ? undefined
      : await (await import('../sandbox/state/state.js')).readStateFile(opts.stateFile).catch((err: unknown) => {
          throw stateError(err)
        })
  // One sandbox per data dir: claimed before the database is opened.
  const { detectSandbox } = await import('../sandbox-client/panel-client.js')
  const dir = runDir({ dataDir, inMemory: opts.inMemory, env: opts.env })
  const base = { dataDir, version: packageVersion(), detached: Boolean(opts.detached) }
  // A seeded start that fails leaves the data dir as it was: one that did not exist goes again.
  const dirExisted = dataDir === undefined || existsSync(dataDir)
  const claim: RunClaim = await claimRunFile(dir, base, panelProbe)
    .catch((err: unknown) => {
      // In memory only the port can clash (listening checks it): another one runs beside the first.
      if (opts.inMemory && err instanceof CliError && err.code === 'sandbox_running') return claimRunFile(extraMemoryRunDir(dir), base, undefined, { ownDir: true })
      throw err
    })
    .catch((err: unknown) => {
      throw listenError(err, opts)
    })
  const { startSandboxServer } = await import('../sandbox/sandbox.js')
  let sandbox: RunningSandbox
  try {
    sandbox = await startSandboxServer({
      port: opts.port,
      host: opts.host,
      dataDir,
      inMemory: opts.inMemory,
      speed: opts.speed,
      chaos: opts.chaos,
      log: opts.log,
      webhookFaults: opts.webhookFaults,
      webhookFaultsSeed: opts.webhookFaultsSeed,
      state,
      instance: claim.nonce,
    })
  } catch (err) {
    claim.release()
    if (state && !dirExisted && dataDir !== undefined) removeIfEmpty(dataDir)
    throw (err as Error).name === 'SandboxStateError' ? stateError(err) : listenError(err, opts)
  }
  const logFile = ownLog(opts.logFile, claim.dir)
  claim.ready(sandbox.baseUrl, logFile)
  const stop = async () => {
    try {
      await sandbox.close()
    } finally {
      claim.release()
    }
  }
  const profiles: ProfilesOutcome = { written: false, madeDefault: false }
  if (opts.writeProfiles) {
    try {
      const store = await opts.openProfiles()
      // Never take the profiles away from another sandbox that still runs: commands using them
      // would lose it, and fail to connect once this one stops.
      const running = await otherRunningSandbox(store, sandbox.baseUrl, detectSandbox)
      if (running && !(await opts.confirmTakeover?.(running))) {
        profiles.keptFor = running
        return { sandbox, dataDir, profiles, staleRun: claim.stale, stop, logFile }
      }
      const common = { baseUrl: sandbox.baseUrl, webhookSecret: sandbox.webhookSecret }
      store.save(SANDBOX_PROFILE, { apiKey: sandbox.testKey, ...common })
      store.save(SANDBOX_LIVE_PROFILE, { apiKey: sandbox.liveKey, ...common })
      profiles.written = true
      if (!store.defaultProfile) {
        store.setDefault(SANDBOX_PROFILE)
        profiles.madeDefault = true
      }
    } catch (err) {
      await stop().catch(() => {})
      throw err
    }
  }
  return { sandbox, dataDir, profiles, staleRun: claim.stale, stop, logFile }
}

async function otherRunningSandbox(store: ProfileStore, own: string, detect: (url: string, opts: { timeoutMs?: number }) => Promise<boolean>): Promise<string | undefined> {
  const urls = new Set<string>()
  for (const name of [SANDBOX_PROFILE, SANDBOX_LIVE_PROFILE]) {
    const url = store.get(name)?.baseUrl?.replace(/\/+$/, '')
    if (url && url !== own.replace(/\/+$/, '')) urls.add(url)
  }
  for (const url of urls) if (await detect(url, { timeoutMs: 1000 })) return url
  return undefined
}

/** `--webhook-faults SPEC`, checked: a bad part exits 2 naming it. */
export function webhookFaultsOption(raw: string | undefined): WebhookFaultRates | undefined {
  if (raw === undefined) return undefined
  try {
    return parseWebhookFaults(raw)
  } catch (err) {
    if (!(err instanceof WebhookFaultsError)) throw err
    throw new UsageError(`--webhook-faults: ${err.message}`, { field: 'webhook-faults', hint: 'e.g. --webhook-faults duplicate=0.1,reorder=0.1,lose=0.05,delay=2s,fail-first=0.2 (each part optional).' })
  }
}

/**
 * `--seed`, as CLI.md spells it for both uses: a value made only of digits is the webhook faults'
 * seed (`--seed 42`), anything else the path of a state file (`--seed ./state.json`; write
 * `./123` for a file named by digits). Given twice, one of each: `--seed 42 --seed state.json`.
 */
export function seedOption(raw: string[] | undefined, faultsOn: boolean): { faultsSeed?: number; stateFile?: string } {
  const out: { faultsSeed?: number; stateFile?: string } = {}
  for (const value of raw ?? []) {
    if (/^\d+$/.test(value)) {
      const n = Number(value)
      if (!Number.isSafeInteger(n)) throw new UsageError(`--seed ${value} is too large for a seed.`, { field: 'seed' })
      if (out.faultsSeed !== undefined) throw new UsageError('--seed: two fault seeds given; give one number (and at most one state file).', { field: 'seed' })
      out.faultsSeed = n
    } else {
      if (value.trim() === '') throw new UsageError("--seed needs a number (the webhook faults' seed) or a state file exported by `svc sandbox export`.", { field: 'seed' })
      if (out.stateFile !== undefined) throw new UsageError('--seed: two state files given; a sandbox starts from one.', { field: 'seed' })
      out.stateFile = value
    }
  }
  if (out.faultsSeed !== undefined && !faultsOn) {
    throw new UsageError(`--seed ${out.faultsSeed} is the seed of the webhook faults, and none are on.`, {
      field: 'seed',
      hint: 'Add --webhook-faults (e.g. duplicate=0.1), or, for a state file whose name is only digits, write it as ./' + String(out.faultsSeed) + '.',
    })
  }
  return out
}

function removeIfEmpty(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir)
  } catch {
    // gone already, or not ours to remove
  }
}

function stateError(err: unknown): Error {
  if ((err as Error).name !== 'SandboxStateError') return err instanceof Error ? err : new Error(String(err))
  const e = err as Error & { field: string }
  return new UsageError(`--seed: ${e.message}`, { field: e.field === 'seed' ? 'seed' : `seed ${e.field}` })
}

function listenError(err: unknown, opts: LocalSandboxOptions): Error {
  const e = err as { code?: string; syscall?: string; path?: string }
  if (e.code === 'EADDRINUSE') {
    return new UsageError(`Port ${opts.port} on ${opts.host} is already in use.`, {
      field: 'port',
      hint: 'Is a sandbox already running? Check with `svc sandbox status`, or pick another port (--port 0 takes any free one).',
    })
  }
  if (e.syscall === 'listen' || e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') {
    return new UsageError(`Cannot listen on ${opts.host}:${opts.port} (${e.code}).`, {
      field: e.code === 'EACCES' ? 'port' : 'host',
      hint: 'Use a port above 1024 and an address of this machine, e.g. --host 127.0.0.1.',
    })
  }
  if (e.path && e.code && /^E(ACCES|PERM|NOENT|NOTDIR|ROFS|EXIST)$/.test(e.code)) {
    return new UsageError(`Cannot use the data directory: ${e.path} (${e.code}).`, { field: 'data', hint: 'Pass --data DIR with a writable directory, or --in-memory.' })
  }
  if (err instanceof CliError) return err
  return err instanceof Error ? err : new Error(String(err))
}
