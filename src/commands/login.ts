import { Flags } from '@oclif/core'
import { BaseCommand } from '../lib/command-kit/base.js'
import { type LoginResult, login, loginRelay, type RelayLoginResult } from '../lib/services/login.js'
import { maskSecret } from '../lib/config/mask.js'
import { summarizeProfile } from '../lib/config/profiles.js'
import { timeoutFlagMs } from '../lib/command-kit/timeout.js'
import { painter } from '../lib/output/color.js'
import type { IO } from '../lib/output/io.js'

export default class Login extends BaseCommand<typeof Login, LoginResult | RelayLoginResult> {
  static override summary = 'Check an API key against the service and store it in a profile.'
  static override description =
    'Reads the key at a hidden prompt (or the first line of stdin with --with-key-stdin; never as an argument), ' +
    'checks it with GET /v1/account, and stores the key, the base URL and optionally a webhook secret in the profile ' +
    "(the secret's shape is checked first: one word of printable ASCII, 16 to 256 characters, no shell syntax; a bad one is asked again at the prompt, exit 2 from stdin) " +
    '(--profile, else SVC_PROFILE, else "default"). The first profile becomes the default. A key that starts with ' +
    'neither svc_live_ nor svc_test_ is refused before any request (exit 3); a key the service refuses is not stored (exit 3). ' +
    'The base URL comes from --base-url, SVC_BASE_URL or the profile already stored. ' +
    'With --relay URL (comma-separated for several), login stores only the relay that `svc webhooks listen` receives through and its token ' +
    '(read from stdin with --relay-token-stdin, else at a hidden prompt; never an argument, shown masked from then on), in the profile, created if needed; the API key is not asked for nor changed.'

  static override examples = [
    '<%= config.bin %> login --base-url https://api.example.com',
    'printenv SVC_KEY | <%= config.bin %> login --with-key-stdin --profile ci --base-url https://api.example.com',
    'printf "%s\\n%s\\n" "$KEY" "$WEBHOOK_SECRET" | <%= config.bin %> login --with-key-stdin --with-webhook-secret-stdin --profile staging',
    'printenv RELAY_TOKEN | <%= config.bin %> login --relay https://relay.example.com --relay-token-stdin --profile staging',
  ]

  static override flags = {
    profile: Flags.string({ char: 'p', description: 'Profile to store the key in (or SVC_PROFILE; default: "default").' }),
    'base-url': Flags.string({ description: "Base URL of the service (or SVC_BASE_URL; default: the profile's)." }),
    'with-key-stdin': Flags.boolean({ description: 'Read the API key from the first line of stdin instead of a prompt.' }),
    'with-webhook-secret-stdin': Flags.boolean({
      description: 'Also read a webhook secret from stdin, on the line after the key.',
      dependsOn: ['with-key-stdin'],
    }),
    timeout: Flags.string({ description: 'Timeout of the check request, e.g. 30s, 2m.', default: '30s' }),
    relay: Flags.string({
      description: 'Store this relay (`svc relay serve`) and its token for `webhooks listen`, instead of an API key.',
      // relationships, not exclusive: oclif's usage line can only draw groups whose flags all exclude one another (issue 36.22).
      relationships: [{ type: 'none', flags: ['with-key-stdin', 'with-webhook-secret-stdin', 'base-url'] }],
    }),
    'relay-token-stdin': Flags.boolean({
      description: 'Read the relay token from the first line of stdin instead of a prompt.',
      relationships: [{ type: 'all', flags: ['relay'] }],
    }),
  }

  async run(): Promise<LoginResult | RelayLoginResult> {
    if (this.flags.relay !== undefined) {
      return loginRelay(
        { profile: this.flags.profile, relay: this.flags.relay, withTokenStdin: this.flags['relay-token-stdin'] },
        { io: this.io, openProfiles: this.factory.openProfiles, warn: (text) => this.warnUser(text) },
      )
    }
    const timeoutMs = timeoutFlagMs(this.flags.timeout)
    return login(
      {
        profile: this.flags.profile,
        baseUrl: this.flags['base-url'],
        withKeyStdin: this.flags['with-key-stdin'],
        withWebhookSecretStdin: this.flags['with-webhook-secret-stdin'],
        timeoutMs,
      },
      { io: this.io, openProfiles: this.factory.openProfiles, newApiClient: this.factory.newApiClient, userAgent: `svc/${this.config.version}`, warn: (text) => this.warnUser(text) },
    )
  }

  protected override toJson(result: LoginResult | RelayLoginResult): unknown {
    if (!('account' in result)) return { profile: summarizeProfile(result.name, result.profile, result.isDefault) }
    return { profile: summarizeProfile(result.name, result.profile, result.isDefault), account: result.account }
  }

  protected override render(result: LoginResult | RelayLoginResult, io: IO): void {
    if (!('account' in result)) {
      const paint = painter(io.colorErr)
      this.note(`${paint('green', '✓')} Relay stored in profile ${paint('bold', result.name)}: ${result.relayUrl}, token ${maskSecret(result.profile.relayToken)}`)
      this.note(`  \`svc webhooks listen --forward URL${result.name === 'default' ? '' : ` --profile ${result.name}`}\` now receives through it.`)
      return
    }
    const summary = summarizeProfile(result.name, result.profile, result.isDefault)
    const paint = painter(io.colorErr)
    const env = paint(['bold', result.environment === 'test' ? 'yellow' : 'red'], result.environment)
    this.note(`${paint('green', '✓')} Logged in to ${env} as ${result.account.email} (merchant ${result.account.merchantId}) — profile ${paint('bold', result.name)}, key ${maskSecret(result.profile.apiKey)}`)
    if (result.secret === 'new') this.note(`  Webhook secret stored: ${summary.webhookSecret}`)
    if (result.secret === 'kept') this.note(`  Webhook secret kept: ${summary.webhookSecret}`)
    if (result.becameDefault) this.note(`  ${result.name} is now the default profile.`)
    else if (!result.isDefault) this.note(`  Use it with --profile ${result.name}, or make it the default: svc profiles use ${result.name}`)
  }
}
