import { Flags } from '@oclif/core'
import { ApiCommand } from '../../lib/command-kit/api.js'
import { resolveWebhookSecrets, SECRET_FLAG_WARNING } from '../../lib/config/resolve.js'
import { AuthError, UsageError } from '../../lib/errors.js'
import { isLoopbackHost } from '../../lib/net/loopback.js'
import type { Durability } from '../../lib/services/listen.js'
import { parseEventFilter } from '../../lib/webhooks/event-filter.js'
import { parseForwardHeaders, parseForwardTargets } from '../../lib/webhooks/forward.js'

export default class WebhooksListen extends ApiCommand<typeof WebhooksListen> {
  static override summary = 'Receive webhook deliveries, verify them, and forward each event once to your local app.'
  static override description =
    'A local HTTP server that receives deliveries exactly as the service sends them, checks X-SVC-Signature over the raw body ' +
    '(constant time, every --secret, 300 s tolerance), and forwards the same bytes with content-type and the X-SVC-* headers to ' +
    '--forward. The service gets a 2xx only when your app answered 2xx, so a failure is retried and nothing is lost. An event ' +
    'forwarded once is never forwarded again, also after a restart. Every delivery is kept in a local event log ' +
    '(`svc webhooks events`, `svc webhooks replay`). On a terminal a live view shows each charge moving through its states, ' +
    'confirmed with GET /v1/charges/{id}; otherwise one JSON object per delivery per line. Against the local sandbox the ' +
    'listener registers itself as the webhook URL of both environments, and on a clean stop (Ctrl+C, SIGTERM, SIGHUP, q) puts back the URL each had before. With --events, the other events are acknowledged (2xx) without being ' +
    'forwarded, so the service does not retry them. ' +
    'Several apps: repeat --forward; PATTERN=URL (an exact type, prefix.*, or a comma-separated list, as --events) takes the events it matches ' +
    '(the first pattern that matches, in flag order), a bare URL takes the rest, and with no bare URL the rest are acknowledged (2xx) and not ' +
    'forwarded. Each app gets each of its events once, also after a restart, and the service gets a 2xx only when that app answered 2xx. ' +
    'Each JSON line names its target (the URL, as `webhooks events --json` does) and its route (the PATTERN that chose it, null for the bare URL). --header adds a header to every forwarded request (not content-type or X-SVC-*). ' +
    "Through a relay (--relay URL --token T, or SVC_RELAY_URL and SVC_RELAY_TOKEN, or the profile's, stored by `svc login --relay`; see `svc relay serve`): no local HTTP server is started (--port and --host are not used); " +
    'the listener connects out to the relay, receives what the service delivered to it (also while this listener was offline), verifies each against the ' +
    "service's original signature with its age counted at the relay's arrival time, forwards the original bytes with a fresh X-SVC-Timestamp and X-SVC-Signature made " +
    "with the same secret (so your app's own 300 s check passes for an event held for hours), and acks it to the relay only after your app answered 2xx (or it is filtered " +
    'out, has no target, or was already delivered); a failed forward or a failed verification is not acked, so the relay sends it again. It reconnects by itself (at most 5 s between ' +
    'tries, through each comma-separated URL in turn), says when it is disconnected, and is ready only once the relay said so. Not on a terminal, the first line (after the ' +
    'first ready) is {"relay": URL, "forward": URL, "token", "channel", "backlog"}; delivery lines carry "via": "relay"; status lines carry "status": ready, disconnected, gap (events the ' +
    'relay pruned before they were acked: they will not come), closing or warning. A revoked or unknown token exits 3; another listener taking the same token exits 1.'

  static override examples = [
    '<%= config.bin %> webhooks listen --forward localhost:3000/webhooks',
    "<%= config.bin %> webhooks listen --forward localhost:3000 --port 0 --no-tui | jq -r 'select(.outcome) | .outcome'",
    'SVC_WEBHOOK_SECRET="$OLD_SECRET,$NEW_SECRET" <%= config.bin %> webhooks listen --forward http://127.0.0.1:8080/hooks --events charge.settled,charge.refunded',
    "<%= config.bin %> webhooks listen --forward localhost:3000 --events 'charge.*'",
    "<%= config.bin %> webhooks listen --forward localhost:3000 --forward 'charge.split.*=localhost:4000/split' --header 'Authorization: Bearer dev'",
    "<%= config.bin %> webhooks listen --forward 'charge.settled,charge.refunded=localhost:3000/money' --forward 'withdrawal.*=localhost:4000/payouts'",
    'SVC_RELAY_TOKEN="$TOKEN" <%= config.bin %> webhooks listen --relay https://relay.example.com --forward localhost:3000/webhooks',
    '<%= config.bin %> webhooks listen --relay https://relay-a.example.com,https://relay-b.example.com --forward localhost:3000 --no-tui',
    '<%= config.bin %> webhooks listen --forward localhost:3000 --durability full',
  ]

  static override flags = {
    forward: Flags.string({
      description:
        "Your app's webhook URL; the scheme is optional (localhost:3000/webhooks). Repeat to route by type: PATTERN=URL (charge.split.*=localhost:4000/split) " +
        'takes the events it matches, the first matching pattern in flag order wins; one bare URL takes the rest.',
      required: true,
      multiple: true,
    }),
    header: Flags.string({
      description: "Add this header to every forwarded request, 'Name: value' (repeatable; not content-type, X-SVC-*, framing or hop-by-hop headers such as Expect; the value in tab, printable ASCII and Latin-1).",
      multiple: true,
    }),
    port: Flags.integer({ description: 'Port to listen on (0: any free port).', default: 4242, min: 0, max: 65_535 }),
    host: Flags.string({ description: 'Address to listen on.', default: '127.0.0.1' }),
    secret: Flags.string({
      description:
        "Webhook secret to verify with (repeat for rotation; or SVC_WEBHOOK_SECRET, or the profile's when the key comes from that profile, not from --api-key or SVC_API_KEY). Visible to other processes: prefer SVC_WEBHOOK_SECRET or the profile.",
      multiple: true,
    }),
    events: Flags.string({
      description:
        'Forward only these event types, comma-separated; a trailing * matches a prefix (charge.*, withdrawal.*). Unknown types exit 2. ' +
        'Events filtered out are acknowledged with a 2xx and NOT retried: the service considers them delivered and your app never gets them.',
    }),
    'skip-verify': Flags.boolean({ description: 'Forward without checking signatures (loudly flagged; for debugging only).' }),
    'no-tui': Flags.boolean({ description: 'One JSON object per delivery per line, even on a terminal.' }),
    relay: Flags.string({
      description:
        "Receive through this relay (`svc relay serve`) instead of a local server; comma-separated URLs are tried in turn. Or SVC_RELAY_URL, or the profile's (`svc login --relay URL --relay-token-stdin`).",
    }),
    token: Flags.string({
      description: "The relay token (`svc relay token create`). Visible to other processes: prefer SVC_RELAY_TOKEN or the profile's (`svc login --relay`).",
    }),
    durability: Flags.string({
      description:
        "What the event log's record of a delivery survives before the service gets its 2xx: normal, a killed process (the record is appended to the log's journal before the 2xx and committed within 25 ms; a power cut can forget that an event was forwarded, so a resend may reach your app twice); " +
        'full, a power cut too (the log is synced to disk after each commit, before the 2xx; deliveries arriving together share one sync, and the listener keeps receiving while it runs).',
      options: ['normal', 'full'],
      default: 'normal',
    }),
  }

  async run(): Promise<void> {
    const { flags, io } = this
    if (flags.secret?.length) this.warnUser(SECRET_FLAG_WARNING)
    const targets = parseForwardTargets(flags.forward)
    const headers = parseForwardHeaders(flags.header)
    const events = flags.events === undefined ? undefined : parseEventFilter(flags.events)
    const { resolveRelayListen } = await import('../../lib/services/listen-relay.js')
    const relay = await resolveRelayListen({ relay: flags.relay, token: flags.token, apiKey: flags['api-key'], profile: flags.profile, env: io.env, warn: (m) => this.warnUser(m) })
    let credentials
    let noCredentialsReason: string | undefined
    try {
      credentials = await this.credentials()
    } catch (err) {
      // Through a relay the key is not needed (a profile may hold only the relay and the secret).
      if (!(err instanceof AuthError) || ((flags['api-key'] || flags.profile) && !relay)) throw err
      noCredentialsReason = err.message.replace(/\.$/, '')
    }
    const secrets = await resolveWebhookSecrets({ secret: flags.secret, profile: flags.profile }, io.env, credentials?.source)
    if (secrets.length === 0 && !flags['skip-verify']) {
      const keyElsewhere = credentials && !credentials.source.startsWith('profile ')
      throw new UsageError('No webhook secret to verify deliveries with.', {
        field: 'secret',
        hint: keyElsewhere
          ? `The API key comes from ${credentials?.source}, so no profile's secret is used: pass --secret (the panel's webhook secret) or set SVC_WEBHOOK_SECRET.`
          : "Pass --secret (the panel's webhook secret), set SVC_WEBHOOK_SECRET, or store it with `svc login`. `svc sandbox start` stores the sandbox's.",
      })
    }
    if (!isLoopbackHost(flags.host) && !relay) {
      this.warnUser(`listening on ${flags.host}: anyone who can reach this address can send deliveries to this listener. Keep --host 127.0.0.1 and expose it through a tunnel unless you mean it.`)
    }
    const { runListen } = await import('../../lib/services/listen.js')
    await runListen({
      targets,
      headers,
      host: flags.host,
      port: flags.port,
      secrets,
      skipVerify: flags['skip-verify'],
      durability: flags.durability as Durability,
      events,
      tui: io.isStdoutTTY && io.isStdinTTY && !flags['no-tui'] && !flags.json,
      io,
      credentials,
      noCredentialsReason,
      client: credentials ? () => this.client() : undefined,
      relay,
    })
  }
}
