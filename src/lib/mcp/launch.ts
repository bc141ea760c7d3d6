/**
 * Starting `svc mcp`, from the oclif command or from the bundle's entry without oclif.
 *
 * An agent starts the server and waits for its answer to `initialize`; oclif's start (its chunks,
 * the config, the command class) costs about as much again as the SDK. So, as `--version` and
 * the root help are answered without oclif, the bundle's entry hands `svc mcp` with only the plain
 * flags (`--profile`, `--tools`, `--allow-live-writes`) and credentials that resolve cleanly to
 * `fastMcp`; anything else (`--help`, `--api-key`, `--timeout`, a flag it does not know, missing
 * credentials, a plain-http URL to warn about, a bad `--tools`) goes through the oclif command,
 * which says what is wrong with the usual words and exit codes. Both end in `startMcp`. The fast
 * path reads the flags with the command's own definitions (the manifest's, inlined by the build),
 * so a flag is defined once, in the command. Without it (SVC_NO_FAST_PATH=1) `initialize` is
 * answered ~245 ms later on this project's bench machine: oclif's start, not the SDK's.
 */
import { parseArgs } from 'node:util'
import { type Credentials, resolveCredentials } from '../config/resolve.js'
import { onConfigWarning } from '../config/store.js'
import { isLoopbackHost, isLoopbackUrl } from '../net/loopback.js'
import { chooseTools, serveMcp } from './server.js'
import { McpSession } from './session.js'

export interface StartOptions {
  credentials: Credentials
  /** The --profile given (for the webhook secret of that profile). */
  profile?: string
  env: NodeJS.ProcessEnv
  timeoutMs: number
  version: string
  allowLiveWrites: boolean
  /** --tools, split. */
  only?: string[]
  /** stderr. */
  log: (line: string) => void
}

/** Serves until the client closes stdin, or SIGINT/SIGTERM; then closes the session's clients. */
export async function startMcp(o: StartOptions): Promise<void> {
  const session = new McpSession({
    credentials: o.credentials,
    profile: o.profile,
    env: o.env,
    timeoutMs: o.timeoutMs,
    userAgent: `svc/${o.version} (mcp)`,
    allowLiveWrites: o.allowLiveWrites,
    log: o.log,
  })
  const stop = new AbortController()
  const onSignal = () => stop.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    await serveMcp({ session, allowLiveWrites: o.allowLiveWrites, only: o.only, version: o.version, stop: stop.signal })
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    await session.close()
  }
}

/** A flag of the `svc mcp` command as its oclif definition (or the manifest) gives it. */
export interface FlagSpec {
  type: 'boolean' | 'option'
  char?: string
}

/** The flags the fast path serves; any other flag of the command (--api-key, --timeout…) is the command's to handle. */
const PLAIN = new Set(['profile', 'tools', 'allow-live-writes'])

/**
 * The plain flags of `argv`, read with the command's own flag definitions (`flags`: the oclif
 * manifest's entry for `mcp`, inlined by the build), so this spells no flag of its own; undefined
 * for anything else (oclif takes it and reports it in its words).
 */
export function plainMcpFlags(argv: string[], flags: Record<string, FlagSpec>): { profile?: string; tools?: string; allowLiveWrites: boolean } | undefined {
  const options = Object.fromEntries(Object.entries(flags).map(([name, f]) => [name, { type: f.type === 'boolean' ? ('boolean' as const) : ('string' as const), ...(f.char ? { short: f.char } : {}) }]))
  try {
    const { values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false })
    if (Object.keys(values).some((name) => !PLAIN.has(name))) return undefined
    const string = (v: unknown) => (typeof v === 'string' ? v : undefined)
    return { profile: string(values.profile), tools: string(values.tools), allowLiveWrites: values['allow-live-writes'] === true }
  } catch {
    return undefined
  }
}

const DEFAULT_TIMEOUT_MS = 30_000

/** `svc mcp` without oclif: true when it served; false to let the oclif command run instead. */
export async function fastMcp(o: { argv: string[]; flags: Record<string, FlagSpec>; env: NodeJS.ProcessEnv; version: string }): Promise<boolean> {
  const flags = plainMcpFlags(o.argv, o.flags)
  if (!flags) return false
  const log = (line: string) => void process.stderr.write(`${line}\n`)
  // What the config store says (a directory narrowed to 0700…) is said once, whichever path runs.
  onConfigWarning((text) => log(`Warning: ${text}`))
  let credentials: Credentials
  try {
    credentials = await resolveCredentials({ profile: flags.profile }, o.env)
  } catch {
    return false
  }
  const url = new URL(credentials.baseUrl)
  // The command warns about a key sent in clear; the fast path only runs where there is nothing to warn about.
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) return false
  // Nor where SVC_API_KEY / SVC_BASE_URL override --profile (issue 36.24): the command says so.
  if (credentials.envOverride) return false
  const only = flags.tools?.split(',')
  try {
    chooseTools({ environment: credentials.environment, sandbox: isLoopbackUrl(credentials.baseUrl), allowLiveWrites: flags.allowLiveWrites, only })
  } catch {
    return false
  }
  // Nothing but protocol on stdout: a stray console.log (ours or a dependency's) goes to stderr.
  console.log = console.error
  console.info = console.error
  console.debug = console.error
  await startMcp({ credentials, profile: flags.profile, env: o.env, timeoutMs: DEFAULT_TIMEOUT_MS, version: o.version, allowLiveWrites: flags.allowLiveWrites, only, log })
  return true
}
