/**
 * Profiles, stored with conf under the user's config dir (`svc/config.json`), or `SVC_CONFIG_DIR`.
 * The directory is created 0700, the file 0600 and kept so on every write, since it holds API keys
 * and webhook secrets. conf is loaded lazily (it pulls in ajv).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { EXIT } from '../contract/errors.js'
import { AuthError, CliError, UsageError } from '../errors.js'

export interface Profile {
  apiKey?: string
  baseUrl?: string
  webhookSecret?: string
}

export interface ConfigData {
  defaultProfile?: string
  profiles: Record<string, Profile>
}

/** Letters, digits, `.`, `_` and `-`, starting with a letter or digit: safe in a file, a shell and a table. */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

export function assertProfileName(name: string, field = 'profile'): void {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`Profile name "${name}" is not valid: use letters, digits, ".", "_" or "-" (at most 64, starting with a letter or digit).`, { field })
  }
}

/** The error for a profile that the user named but that does not exist: exit 3 with the way out. */
export function unknownProfileError(name: string, known: string[]): AuthError {
  const list = known.length ? ` Known profiles: ${known.join(', ')}.` : ' No profiles are stored yet.'
  return new AuthError(`No profile named "${name}".${list}`, `List profiles with \`svc profiles list\`, or create one with \`svc login --profile ${name}\`.`)
}

/** The directory holding config.json and the local databases (event log). */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SVC_CONFIG_DIR) return env.SVC_CONFIG_DIR
  const base = env.XDG_CONFIG_HOME || (process.platform === 'darwin' ? join(homedir(), 'Library', 'Preferences') : join(homedir(), '.config'))
  return join(base, 'svc')
}

interface ConfLike {
  store: ConfigData
  path: string
}

/** Best effort: on a file system without modes (or a file owned by someone else) there is nothing better to do. */
function tighten(path: string, mode: number): void {
  try {
    chmodSync(path, mode)
  } catch {
    // ignored on purpose, see above
  }
}

export class ProfileStore {
  private constructor(private readonly conf: ConfLike) {}

  /**
   * The profiles for reading only (credential resolution on every API command): the same file
   * parsed directly, without loading conf and ajv (~80 ms of start-up). Writing through it throws.
   */
  static read(env: NodeJS.ProcessEnv = process.env): ProfileStore {
    const path = join(configDir(env), 'config.json')
    let data: ConfigData = { profiles: {} }
    let text: string | undefined
    try {
      text = readFileSync(path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw unreadableConfig(path, error)
    }
    if (text !== undefined) {
      try {
        data = { profiles: {}, ...(JSON.parse(text) as Partial<ConfigData>) }
      } catch (error) {
        throw unreadableConfig(path, error)
      }
      tighten(path, 0o600)
    }
    return new ProfileStore({
      path,
      get store() {
        return data
      },
      set store(_: ConfigData) {
        throw new Error('ProfileStore.read() is read-only: use ProfileStore.open() to change profiles')
      },
    })
  }

  static async open(env: NodeJS.ProcessEnv = process.env): Promise<ProfileStore> {
    const dir = configDir(env)
    if (!existsSync(dir)) {
      mkdirSync(dir, { recursive: true, mode: 0o700 })
      // mkdir's mode goes through the umask; an unusual umask must not widen a secrets directory.
      tighten(dir, 0o700)
    }
    const { default: Conf } = await import('conf')
    let conf: ConfLike
    try {
      conf = new Conf<ConfigData>({
        cwd: dir,
        configName: 'config',
        configFileMode: 0o600,
        defaults: { profiles: {} },
        clearInvalidConfig: false,
        projectName: 'svc',
      }) as unknown as ConfLike
    } catch (error) {
      throw unreadableConfig(join(dir, 'config.json'), error)
    }
    // A file written by an older version or copied around may be wider than 0600.
    if (existsSync(conf.path)) tighten(conf.path, 0o600)
    return new ProfileStore(conf)
  }

  get path(): string {
    return this.conf.path
  }

  get data(): ConfigData {
    return this.conf.store
  }

  /** The default profile's name, only when that profile still exists. */
  get defaultProfile(): string | undefined {
    const name = this.conf.store.defaultProfile
    return name !== undefined && this.get(name) ? name : undefined
  }

  get(name: string): Profile | undefined {
    const profiles = this.conf.store.profiles ?? {}
    return Object.hasOwn(profiles, name) ? profiles[name] : undefined
  }

  names(): string[] {
    return Object.keys(this.conf.store.profiles ?? {}).sort()
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
    const profiles = { ...(this.conf.store.profiles ?? {}), [name]: withoutEmpty(profile) }
    this.write({ ...this.conf.store, profiles })
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
    const profiles = { ...(this.conf.store.profiles ?? {}) }
    if (!Object.hasOwn(profiles, name)) return false
    delete profiles[name]
    const next: ConfigData = { ...this.conf.store, profiles }
    if (next.defaultProfile === name) delete next.defaultProfile
    this.write(next)
    return true
  }

  setDefault(name: string | undefined): void {
    const next: ConfigData = { ...this.conf.store }
    if (name === undefined) delete next.defaultProfile
    else next.defaultProfile = name
    this.write(next)
  }

  private write(data: ConfigData): void {
    this.conf.store = data
    // conf already writes with configFileMode; this also covers a file someone widened by hand.
    tighten(this.conf.path, 0o600)
  }
}

/** A hand-edited file that no longer parses must not cost the user their other profiles: say where it is. */
function unreadableConfig(path: string, error: unknown): CliError {
  return new CliError(`The config file ${path} cannot be read: ${(error as Error).message}`, {
    exitCode: EXIT.unexpected,
    code: 'invalid_config',
    hint: 'Fix the JSON by hand, or move the file away and log in again with `svc login`.',
    cause: error,
  })
}

/** Drops unset and empty fields, so a profile never holds `"apiKey": ""`; other fields are kept as they are. */
function withoutEmpty(profile: Profile): Profile {
  return Object.fromEntries(Object.entries(profile).filter(([, value]) => value !== undefined && value !== '')) as Profile
}
