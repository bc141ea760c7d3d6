/**
 * Profiles, stored with conf under the user's config dir (`svc/config.json`), or `SVC_CONFIG_DIR`.
 * The file is created 0600 and kept so on every write. conf is loaded lazily (it pulls in ajv).
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

export interface Profile {
  apiKey?: string
  baseUrl?: string
  webhookSecret?: string
}

export interface ConfigData {
  defaultProfile?: string
  profiles: Record<string, Profile>
}

/** The directory holding config.json and the local databases (event log). */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SVC_CONFIG_DIR) return env.SVC_CONFIG_DIR
  const base = env.XDG_CONFIG_HOME || (process.platform === 'darwin' ? join(homedir(), 'Library', 'Preferences') : join(homedir(), '.config'))
  return join(base, 'svc')
}

export class ProfileStore {
  private constructor(
    private readonly conf: { store: ConfigData; path: string; set(key: string, value: unknown): void },
  ) {}

  static async open(env: NodeJS.ProcessEnv = process.env): Promise<ProfileStore> {
    const dir = configDir(env)
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 })
    const { default: Conf } = await import('conf')
    const conf = new Conf<ConfigData>({
      cwd: dir,
      configName: 'config',
      configFileMode: 0o600,
      defaults: { profiles: {} },
      clearInvalidConfig: false,
      projectName: 'svc',
    })
    if (existsSync(conf.path)) chmodSync(conf.path, 0o600)
    return new ProfileStore(conf as never)
  }

  get path(): string {
    return this.conf.path
  }

  get data(): ConfigData {
    return this.conf.store
  }

  get defaultProfile(): string | undefined {
    return this.conf.store.defaultProfile
  }

  get(name: string): Profile | undefined {
    return this.conf.store.profiles?.[name]
  }

  names(): string[] {
    return Object.keys(this.conf.store.profiles ?? {}).sort()
  }

  save(name: string, profile: Profile): void {
    const profiles = { ...(this.conf.store.profiles ?? {}), [name]: profile }
    this.write({ ...this.conf.store, profiles })
  }

  remove(name: string): boolean {
    const profiles = { ...(this.conf.store.profiles ?? {}) }
    if (!(name in profiles)) return false
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
    ;(this.conf as unknown as { store: ConfigData }).store = data
    chmodSync(this.conf.path, 0o600)
  }
}
