/**
 * What the tools of one `svc mcp` run share: the resolved credentials, one API client per key
 * (made on first use, closed at the end), the panel client of a local sandbox, and the webhook
 * secrets. The credentials are resolved by the command like every command's; this knows no flag
 * and no terminal.
 */
import type { ApiClient } from '../api/types.js'
import { redact } from '../config/mask.js'
import { type Credentials, resolveWebhookSecrets } from '../config/resolve.js'
import { ProfileStore } from '../config/store.js'
import type { Environment } from '../contract/schemas.js'
import { UsageError } from '../errors.js'
import type { PanelClient } from '../sandbox-client/panel-client.js'

export interface SessionOptions {
  credentials: Credentials
  /** The --profile given, for the webhook secret of that profile. */
  profile?: string
  env: NodeJS.ProcessEnv
  timeoutMs: number
  userAgent: string
  /** --allow-live-writes: without it, nothing writes to a live environment, whatever the key. */
  allowLiveWrites?: boolean
  /** Where diagnostics go (stderr); SVC_DEBUG=1 adds one line per request. Never stdout. */
  log: (line: string) => void
}

export class McpSession {
  readonly credentials: Credentials
  readonly env: NodeJS.ProcessEnv
  readonly allowLiveWrites: boolean
  private readonly clients = new Map<string, Promise<ApiClient>>()
  private panelClient?: PanelClient

  constructor(private readonly opts: SessionOptions) {
    this.credentials = opts.credentials
    this.env = opts.env
    this.allowLiveWrites = opts.allowLiveWrites ?? false
  }

  /**
   * Refuses (nothing sent) a write to the live environment unless the user started svc mcp with
   * --allow-live-writes: a test key of the sandbox can reach its live environment too (trigger_event
   * env "live", product.paid, set_webhook env "live"), and live is where the flag is the guard.
   */
  requireLiveWrites(env: Environment, what: string): void {
    if (env !== 'live' || this.allowLiveWrites) return
    throw new UsageError(`${what} would write to the live environment, and svc mcp was started without --allow-live-writes. Nothing was sent.`, {
      code: 'live_writes_not_allowed',
      field: 'env',
      hint: 'Use the test environment, or ask the user to restart svc mcp with --allow-live-writes if live is really meant.',
    })
  }

  /** The secrets no result or log may show in full. */
  get secrets(): string[] {
    return [this.credentials.apiKey]
  }

  /** The API client of the session's key (or of another key of the same sandbox, for trigger_event). */
  client(apiKey = this.credentials.apiKey): Promise<ApiClient> {
    let c = this.clients.get(apiKey)
    if (!c) {
      c = import('../api/client.js').then(({ createClient }) => createClient({ apiKey, baseUrl: this.credentials.baseUrl, timeoutMs: this.opts.timeoutMs, debug: this.debug(apiKey), userAgent: this.opts.userAgent }))
      this.clients.set(apiKey, c)
    }
    return c
  }

  async panel(): Promise<PanelClient> {
    const { apiKey, baseUrl } = this.credentials
    const { PanelClient } = await import('../sandbox-client/panel-client.js')
    this.panelClient ??= new PanelClient({ apiKey, baseUrl, timeoutMs: this.opts.timeoutMs, debug: this.debug(apiKey) })
    return this.panelClient
  }

  /** The stored profiles, for reading only (nothing is created): trigger_event's other sandbox key. */
  readProfiles(): ProfileStore {
    return ProfileStore.read(this.env)
  }

  /** The secrets to verify deliveries with when the call gives none: SVC_WEBHOOK_SECRET, else the profile's (with the profile's key only). */
  webhookSecrets(): Promise<string[]> {
    return resolveWebhookSecrets({ profile: this.opts.profile }, this.env, this.credentials.source)
  }

  log(line: string): void {
    this.opts.log(redact(line, this.secrets))
  }

  async close(): Promise<void> {
    const clients = await Promise.all(this.clients.values())
    await Promise.all(clients.map((c) => c.close().catch(() => {})))
  }

  private debug(apiKey: string): ((line: string) => void) | undefined {
    return this.env.SVC_DEBUG === '1' ? (line) => this.opts.log(redact(line, [apiKey, ...this.secrets])) : undefined
  }
}
