/**
 * The base of the `svc sandbox …` panel commands. They find the running sandbox like every API
 * command (`--api-key` > `SVC_API_KEY` > profile), except that the profile they fall back to is
 * `sandbox` (written by `svc sandbox start`) rather than the default one, which may point at the
 * real service. They talk to the panel API through PanelClient, never through the API client.
 */
import { type Command, Flags } from '@oclif/core'
import { ApiCommand } from './api.js'
import type { Credentials } from '../config/resolve.js'
import { SANDBOX_PROFILE } from '../config/profiles.js'
import { CliError, EXIT } from '../errors.js'
import type { PanelClient } from '../sandbox-client/panel-client.js'
import type { Environment } from '../contract/schemas.js'

export const envFlag = Flags.string({
  description: 'Environment to act on (default: the one of the key used).',
  options: ['test', 'live'],
})

export abstract class PanelCommand<T extends typeof Command, R = void> extends ApiCommand<T, R> {
  private panelCreds?: Credentials
  private panelClient?: PanelClient

  protected override async credentials(): Promise<Credentials> {
    if (this.panelCreds) return this.panelCreds
    const { flags } = this
    const env = this.io.env
    if (flags['api-key']) {
      this.warnUser('--api-key is visible to other processes on this machine. The sandbox profile already holds the key; otherwise prefer SVC_API_KEY, or store it with `svc login --with-key-stdin`.')
    }
    let profile = flags.profile ?? env.SVC_PROFILE
    const explicit = Boolean((flags['api-key'] ?? env.SVC_API_KEY) && (flags['base-url'] ?? env.SVC_BASE_URL))
    if (!profile) {
      const store = await this.factory.openProfiles()
      if (store.get(SANDBOX_PROFILE)) profile = SANDBOX_PROFILE
      else if (!explicit) {
        throw new CliError('No `sandbox` profile: is the local sandbox running?', {
          exitCode: EXIT.auth,
          code: 'profile_not_found',
          hint: 'Start it with `svc sandbox start` (it writes the `sandbox` profile), or pass --base-url and --api-key of a running sandbox.',
        })
      }
    }
    this.panelCreds = await this.factory.resolveCredentials({ 'api-key': flags['api-key'], 'base-url': flags['base-url'], profile, profileNotFromFlag: !flags.profile })
    if (this.panelCreds.envOverride) this.warnUser(this.panelCreds.envOverride)
    return this.panelCreds
  }

  protected async panel(): Promise<PanelClient> {
    if (!this.panelClient) {
      const { apiKey, baseUrl } = await this.credentials()
      // SVC_DEBUG=1 logs the panel's requests like the API client's, key masked (CLI.md, Network).
      this.panelClient = await this.factory.newPanelClient({ apiKey, baseUrl, timeoutMs: this.timeoutMs(), debug: this.debugLog(apiKey) })
    }
    return this.panelClient
  }

  /** The `--env` flag, when the command has one. */
  protected envChoice(): Environment | undefined {
    return (this.flags as { env?: Environment }).env
  }
}
