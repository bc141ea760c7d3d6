/**
 * The base of every command that talks to the API: credential flags, timeout, the environment
 * badge, and a lazily created client (undici is loaded only when a request is made).
 */
import { type Command, Flags, type Interfaces } from '@oclif/core'
import type { ApiClient } from '../api/types.js'
import { BaseCommand } from './base.js'
import type { Credentials } from '../config/resolve.js'
import { redact } from '../config/mask.js'
import { timeoutFlagMs } from './timeout.js'
import { isLoopbackHost } from '../net/loopback.js'
import { environmentBadge, painter } from '../output/color.js'

export const apiFlags = {
  'api-key': Flags.string({ description: 'API key (svc_live_… or svc_test_…). Visible to other processes: prefer SVC_API_KEY or a profile.', helpGroup: 'GLOBAL' }),
  'base-url': Flags.string({ description: 'Base URL of the service (or SVC_BASE_URL).', helpGroup: 'GLOBAL' }),
  profile: Flags.string({ char: 'p', description: 'Profile to use (or SVC_PROFILE; default: the default profile).', helpGroup: 'GLOBAL' }),
  timeout: Flags.string({ description: 'Timeout per request, e.g. 30s, 2m.', default: '30s', helpGroup: 'GLOBAL' }),
}

/** The warning for a base URL that would carry the key in clear, or undefined. */
export function plainHttpWarning(baseUrl: string): string | undefined {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return undefined
  return `the API key is sent unencrypted to ${url.origin}; use https`
}

/** The parsed flags of an API command: its own, the output flags and the credential flags. */
export type ApiFlags<T extends typeof Command> = Interfaces.InferredFlags<(typeof BaseCommand)['baseFlags'] & typeof apiFlags & T['flags']>

export abstract class ApiCommand<T extends typeof Command, R = void> extends BaseCommand<T, R> {
  static override baseFlags = { ...BaseCommand.baseFlags, ...apiFlags }

  declare protected flags: ApiFlags<T>

  private creds?: Credentials
  private apiClient?: ApiClient

  protected async credentials(): Promise<Credentials> {
    if (!this.creds) {
      const { flags } = this
      if (flags['api-key']) {
        this.warnUser('--api-key is visible to other processes on this machine. Prefer SVC_API_KEY, or store it with `svc login --with-key-stdin`.')
      }
      this.creds = await this.factory.resolveCredentials({ 'api-key': flags['api-key'], 'base-url': flags['base-url'], profile: flags.profile })
      if (this.creds.envOverride) this.warnUser(this.creds.envOverride)
    }
    return this.creds
  }

  protected timeoutMs(): number {
    return timeoutFlagMs(this.flags.timeout ?? '30s')
  }

  protected async client(): Promise<ApiClient> {
    if (!this.apiClient) {
      const creds = await this.credentials()
      // Anyone on the path can read a bearer key sent over plain http; loopback never leaves the machine.
      const clear = plainHttpWarning(creds.baseUrl)
      if (clear) this.warnUser(clear)
      this.apiClient = await this.newApiClient(creds.apiKey, creds.baseUrl)
    }
    return this.apiClient
  }

  /** An API client as the CLI makes them: --timeout, its user agent, SVC_DEBUG lines with the key masked. */
  protected async newApiClient(apiKey: string, baseUrl: string): Promise<ApiClient> {
    return this.factory.newApiClient({ apiKey, baseUrl, timeoutMs: this.timeoutMs(), debug: this.debugLog(apiKey), userAgent: `svc/${this.config.version}` })
  }

  /** With SVC_DEBUG=1, where a client logs each request and answer (stderr, `apiKey` masked; CLI.md, Network). */
  protected debugLog(apiKey: string): ((line: string) => void) | undefined {
    return this.io.env.SVC_DEBUG === '1' ? (line) => this.io.err(`${redact(line, [apiKey])}\n`) : undefined
  }

  /**
   * `TEST` / `LIVE` badge for human output (never in machine output) of the environment acted on
   * (the key's unless given), painted with the colour setting of the stream it is written to.
   */
  protected async badge(stream: 'out' | 'err', environment?: string): Promise<string> {
    const env = environment ?? (await this.credentials()).environment
    return environmentBadge(painter(stream === 'out' ? this.io.color : this.io.colorErr), env)
  }

  protected override async finally(err: Error | undefined): Promise<void> {
    await this.apiClient?.close().catch(() => {})
    await super.finally(err)
  }
}
