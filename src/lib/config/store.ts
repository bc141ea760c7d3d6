/**
 * Profiles, stored with conf under the user's config dir (`svc/config.json`), or `SVC_CONFIG_DIR`.
 * The directory is created 0700, the file 0600 and kept so on every write, since it holds API keys
 * and webhook secrets. conf is the one way to write the file (atomically, mode 0600), and it is
 * loaded only by a store that writes (`open`): reading, which every API command does to resolve
 * its credentials, is one readFileSync through the same parser (`parseConfig`, conf's
 * `deserialize`), so such a command does not load conf, atomically and when-exit's signal
 * handlers (about 5 % of `svc charges get`'s start, issue 39.1). The parser checks the shape by
 * hand: conf's own `schema` would compile an ajv validator on every command, and the bundle
 * leaves ajv out of conf (packaging/patches.js, conf-without-ajv) to keep start-up.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type Conf from 'conf'
import { CliError, environmentFaultReason, UsageError, EXIT } from '../errors.js'
import { assertSecretLink, SecretLinkError } from './private-file.js'

/** Every field is an optional string; a new one is a line here and a name in PROFILE_FIELDS. */
export interface Profile {
  apiKey?: string
  baseUrl?: string
  webhookSecret?: string
  /** (0.5) The relay `webhooks listen` receives through (`svc login --relay`), and its token: a secret like the key. */
  relayUrl?: string
  relayToken?: string
}

export interface ConfigData {
  defaultProfile?: string
  profiles: Record<string, Profile>
}

/**
 * The shape the code relies on. Valid JSON of another shape (`"apiKey": 5`, `"profiles": "zzz"`)
 * would otherwise crash deep inside a command (`key.startsWith is not a function`) or list
 * nonsense. Unknown fields are kept: a newer version may have written them. Checked by hand, not
 * with zod: every API command reads this file, and loading zod is a measurable part of start-up, which commands that
 * never decode an API answer (the listener's first frame, for one) should not pay.
 */
interface ShapeIssue {
  path: string[]
  message: string
}

const PROFILE_FIELDS = ['apiKey', 'baseUrl', 'webhookSecret', 'relayUrl', 'relayToken'] as const satisfies ReadonlyArray<keyof Profile>

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/** Every place where `json` is not the ConfigData shape, in file order (defaultProfile, then profiles). */
function shapeIssues(json: unknown): ShapeIssue[] {
  if (!isRecord(json)) return [{ path: [], message: `expected an object, got ${kindOf(json)}` }]
  const issues: ShapeIssue[] = []
  if (json.defaultProfile !== undefined && typeof json.defaultProfile !== 'string') {
    issues.push({ path: ['defaultProfile'], message: `expected a string, got ${kindOf(json.defaultProfile)}` })
  }
  const profiles = json.profiles
  if (profiles === undefined) return issues
  if (!isRecord(profiles)) return [...issues, { path: ['profiles'], message: `expected an object of profiles, got ${kindOf(profiles)}` }]
  for (const [name, profile] of Object.entries(profiles)) {
    if (!isRecord(profile)) {
      issues.push({ path: ['profiles', name], message: `expected an object, got ${kindOf(profile)}` })
      continue
    }
    for (const field of PROFILE_FIELDS) {
      const value = profile[field]
      if (value !== undefined && typeof value !== 'string') issues.push({ path: ['profiles', name, field], message: `expected a string, got ${kindOf(value)}` })
    }
  }
  return issues
}

/** Letters, digits, `.`, `_` and `-`, starting with a letter or digit: safe in a file, a shell and a table. */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

export function assertProfileName(name: string, field = 'profile'): void {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`Profile name "${name}" is not valid: use letters, digits, ".", "_" or "-" (at most 64, starting with a letter or digit).`, { field })
  }
}

/**
 * The error for a profile that the user named but that does not exist. Exit 3 (the credentials
 * class of CLI.md), but its own code: `invalid_api_key` sent users looking at a key that was fine.
 */
export function unknownProfileError(name: string, known: string[]): CliError {
  return profileNotFound(`No profile named "${name}".`, known, `create it with \`svc login --profile ${name}\``)
}

/** `profile_not_found`, exit 3 (no credentials; `profiles use|show|remove` make it 4), with the known profiles in the hint. */
export function profileNotFound(message: string, known: string[], create = 'create one with `svc login`'): CliError {
  const list = known.length ? `Known profiles: ${known.join(', ')}. ` : 'No profiles are stored yet. '
  return new CliError(message, { exitCode: EXIT.auth, code: 'profile_not_found', hint: `${list}List them with \`svc profiles list\`, or ${create}.` })
}

/** The directory holding config.json and the local databases (event log). */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SVC_CONFIG_DIR) return env.SVC_CONFIG_DIR
  const base = env.XDG_CONFIG_HOME || (process.platform === 'darwin' ? join(homedir(), 'Library', 'Preferences') : join(homedir(), '.config'))
  return join(base, 'svc')
}

/** Best effort: on a file system without modes (or a file owned by someone else) there is nothing better to do. */
function tighten(path: string, mode: number): void {
  try {
    chmodSync(path, mode)
  } catch {
    // ignored on purpose, see above
  }
}

/**
 * A config-dir file svc cannot create, open or write (SVC_CONFIG_DIR is a file, a read-only or
 * full disk, mode 0500): the user's environment, not a bug. Exit 1 with code `config_unwritable`
 * naming the path and what to do; undefined when `error` is not such a fault.
 */
export function configUnwritable(path: string, error: unknown, env: NodeJS.ProcessEnv = process.env): CliError | undefined {
  const reason = environmentFaultReason(error)
  if (reason === undefined) return undefined
  const e = error as { path?: unknown }
  const where = typeof e.path === 'string' && e.path !== path ? ` (${e.path})` : ''
  return new CliError(`Cannot use ${path}${where}: ${reason}.`, {
    exitCode: EXIT.unexpected,
    code: 'config_unwritable',
    hint: `svc keeps its profiles and the listener's event log in ${configDir(env)}. Make that a writable directory with free space, or point SVC_CONFIG_DIR at one.`,
    cause: error,
  })
}

/** Where the config's one-line warnings go (the command base points it at its stderr). */
let warnSink: (text: string) => void = (text) => process.stderr.write(`Warning: ${text}\n`)
export function onConfigWarning(sink: (text: string) => void): void {
  warnSink = sink
}

/** A config dir others can read or enter is narrowed to 0700, once, with a word: it holds keys. */
function guardDir(dir: string): void {
  let mode: number
  try {
    mode = statSync(dir).mode & 0o777
  } catch {
    return
  }
  if ((mode & 0o077) === 0) return
  tighten(dir, 0o700)
  warnSink(`the config directory ${dir} was open to other users (mode ${mode.toString(8)}); it holds API keys and is now 0700.`)
}

/**
 * Profiles hold keys: they are never written through a symbolic link that leads out of the
 * config dir or nowhere (a dangling link), where the file could land anywhere, readable by others
 * (private-file.ts's rule for every secret file, with the config dir as svc's own home).
 */
function refuseForeignLink(dir: string, file: string): void {
  try {
    assertSecretLink(file, dir)
  } catch (error) {
    if (!(error instanceof SecretLinkError)) throw error
    throw new CliError(`The config file ${file} is a symbolic link to ${error.target}, ${error.dangling ? 'which does not exist' : 'outside the config directory'}; svc does not write API keys through it.`, {
      exitCode: EXIT.unexpected,
      code: 'invalid_config',
      hint: `Remove the link (svc writes a new file, mode 0600), or point SVC_CONFIG_DIR at a directory of its own.`,
    })
  }
}

/**
 * conf over config.json: it reads the file through `parseConfig` (so a damaged file is refused
 * before conf could fill in or rewrite anything) and writes it atomically, mode 0600. `defaults`
 * only for a store being opened to write: conf writes them into a file that lacks them.
 */
async function confAt(dir: string, opts: { tolerate?: string; defaults?: boolean }): Promise<Conf<ConfigData>> {
  const file = join(dir, 'config.json')
  const { default: Conf } = await import('conf')
  try {
    return new Conf<ConfigData>({
      cwd: dir,
      configName: 'config',
      configFileMode: 0o600,
      ...(opts.defaults ? { defaults: { profiles: {} } } : {}),
      clearInvalidConfig: false,
      projectName: 'svc',
      deserialize: (text) => parseConfig(file, text, opts.tolerate) as ConfigData,
    })
  } catch (error) {
    if (error instanceof CliError) throw error
    throw unreadableConfig(file, error)
  }
}

/**
 * How a use-case gets the profiles to read and write: handed in by its door (the run's factory,
 * command-kit/factory.ts), so that it opens them only when it gets that far, once per run.
 */
export type OpenProfiles = (opts?: { tolerate?: string }) => Promise<ProfileStore>

export class ProfileStore {
  /** What a store that only reads saw, once (ProfileStore.read). */
  private readonly snapshot: ConfigData

  /**
   * `conf` only for a store that writes: every access reads the file again through it, so a change
   * is made to what is on disk now (another store of the same run may have written since).
   */
  private constructor(
    readonly path: string,
    seen: Partial<ConfigData> | undefined,
    private readonly conf?: Conf<ConfigData>,
  ) {
    this.snapshot = { profiles: {}, ...seen }
  }

  /**
   * The profiles for reading only (credential resolution on every API command). No file means no
   * profiles, and nothing is created (conf would make the directory, with the umask's mode).
   * Writing through it throws.
   */
  static read(env: NodeJS.ProcessEnv = process.env): ProfileStore {
    const dir = configDir(env)
    const path = join(dir, 'config.json')
    if (!existsSync(path)) return new ProfileStore(path, undefined)
    let text: string
    try {
      text = readFileSync(path, 'utf8')
    } catch (error) {
      throw unreadableConfig(path, error)
    }
    const store = new ProfileStore(path, parseConfig(path, text))
    tighten(path, 0o600)
    guardDir(dir)
    return store
  }

  /**
   * The profiles for reading and writing. A file of the wrong shape is refused before conf writes
   * anything. `tolerate` names the one profile whose bad fields may be ignored, so that
   * `svc profiles remove NAME` can drop a damaged profile.
   */
  static async open(env: NodeJS.ProcessEnv = process.env, opts: { tolerate?: string } = {}): Promise<ProfileStore> {
    const dir = configDir(env)
    refuseForeignLink(dir, join(dir, 'config.json'))
    if (!existsSync(dir)) {
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 })
      } catch (error) {
        throw configUnwritable(dir, error, env) ?? error
      }
      // mkdir's mode goes through the umask; an unusual umask must not widen a secrets directory.
      tighten(dir, 0o700)
    } else {
      guardDir(dir)
    }
    const conf = await confAt(dir, { tolerate: opts.tolerate, defaults: true })
    // A file written by an older version or copied around may be wider than 0600.
    if (existsSync(conf.path)) tighten(conf.path, 0o600)
    return new ProfileStore(conf.path, undefined, conf)
  }

  get data(): ConfigData {
    return this.conf ? this.conf.store : this.snapshot
  }

  /** The default profile's name, only when that profile still exists. */
  get defaultProfile(): string | undefined {
    const name = this.data.defaultProfile
    return name !== undefined && this.get(name) ? name : undefined
  }

  get(name: string): Profile | undefined {
    const profiles = this.data.profiles ?? {}
    if (!Object.hasOwn(profiles, name)) return undefined
    // Only a profile being removed despite a bad shape (open's `tolerate`) can be anything but an object.
    const profile = profiles[name] as unknown
    return profile !== null && typeof profile === 'object' ? (profile as Profile) : {}
  }

  names(): string[] {
    return Object.keys(this.data.profiles ?? {}).sort()
  }

  /** Gets a profile the user named, or fails with exit 3 and the known names. */
  require(name: string): Profile {
    const profile = this.get(name)
    if (!profile) throw unknownProfileError(name, this.names())
    return profile
  }

  /** Replaces a profile as a whole. */
  save(name: string, profile: Profile): void {
    assertProfileName(name)
    const profiles = { ...(this.data.profiles ?? {}), [name]: withoutEmpty(profile) }
    this.write({ ...this.data, profiles })
  }

  /** Merges fields into a profile (creating it); a field given as undefined is removed. */
  update(name: string, patch: Partial<Profile>): Profile {
    const next: Profile = { ...(this.get(name) ?? {}) }
    for (const [key, value] of Object.entries(patch) as Array<[keyof Profile, string | undefined]>) {
      if (value === undefined) delete next[key]
      else next[key] = value
    }
    this.save(name, next)
    return withoutEmpty(next)
  }

  remove(name: string): boolean {
    const profiles = { ...(this.data.profiles ?? {}) }
    if (!Object.hasOwn(profiles, name)) return false
    delete profiles[name]
    const next: ConfigData = { ...this.data, profiles }
    if (next.defaultProfile === name) delete next.defaultProfile
    this.write(next)
    return true
  }

  setDefault(name: string | undefined): void {
    const next: ConfigData = { ...this.data }
    if (name === undefined) delete next.defaultProfile
    else next.defaultProfile = name
    this.write(next)
  }

  private write(data: ConfigData): void {
    if (!this.conf) throw new Error('ProfileStore.read() is read-only: use ProfileStore.open() to change profiles')
    try {
      this.conf.store = data
    } catch (error) {
      throw configUnwritable(this.path, error) ?? error
    }
    // conf already writes with configFileMode; this also covers a file someone widened by hand.
    tighten(this.path, 0o600)
  }
}

/** Parses and checks the config file's text; throws invalid_config naming the file and the first bad field. */
function parseConfig(path: string, text: string, tolerate?: string): Partial<ConfigData> {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw unreadableConfig(path, error)
  }
  const issues = shapeIssues(json).filter((i) => !(tolerate !== undefined && i.path[0] === 'profiles' && i.path[1] === tolerate))
  if (issues.length === 0) return json as Partial<ConfigData>
  const issue = issues[0]!
  const field = issue.path.length ? issue.path.join('.') : '(the whole file)'
  const profile = issue.path[0] === 'profiles' && issue.path.length >= 2 ? String(issue.path[1]) : undefined
  const fix = profile && PROFILE_NAME.test(profile) ? `, or drop that profile with \`svc profiles remove ${profile}\`` : ''
  throw badShape(path, field, issue.message, fix)
}

/** A hand-edited file that no longer parses must not cost the user their other profiles: say where it is. */
function unreadableConfig(path: string, error: unknown): CliError {
  // A file that cannot be opened at all (the dir is a file, no permission) is no matter of JSON.
  const env = configUnwritable(path, error)
  if (env) return env
  return new CliError(`The config file ${path} cannot be read: ${(error as Error).message}`, {
    exitCode: EXIT.unexpected,
    code: 'invalid_config',
    hint: 'Fix the JSON by hand, or move the file away and log in again with `svc login`.',
    cause: error,
  })
}

/** Valid JSON of the wrong shape: the same error as a file that does not parse, naming the field. */
function badShape(path: string, field: string, problem: string, fix: string): CliError {
  return new CliError(`The config file ${path} is not valid at ${field}.`, {
    exitCode: EXIT.unexpected,
    code: 'invalid_config',
    details: [{ field, message: problem }],
    hint: `Edit the file to fix ${field}${fix}, or move the file away and log in again with \`svc login\`. It was left as it is.`,
  })
}

/** Drops unset and empty fields, so a profile never holds `"apiKey": ""`; other fields are kept as they are. */
function withoutEmpty(profile: Profile): Profile {
  return Object.fromEntries(Object.entries(profile).filter(([, value]) => value !== undefined && value !== '')) as Profile
}
