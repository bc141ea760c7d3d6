import { Args, Flags } from '@oclif/core'
import { BaseCommand } from '../../lib/command-kit/base.js'
import { EXIT } from '../../lib/errors.js'
import { resolveWebhookSecrets, SECRET_FLAG_WARNING } from '../../lib/config/resolve.js'
import { safeText } from '../../lib/output/safe-text.js'
import { Forwarder, parseForwardHeaders, parseForwardUrl } from '../../lib/webhooks/forward.js'
import { replayEvent } from '../../lib/webhooks/replay.js'
import type { IO } from '../../lib/output/io.js'

/** What `--json` prints for a replay. */
interface ReplayOutcome {
  eventId: string
  url: string
  ok: boolean
  status: number | null
  latencyMs: number
  resigned: boolean
  error?: string
}

export default class WebhooksReplay extends BaseCommand<typeof WebhooksReplay, ReplayOutcome> {
  static override summary = 'Resend an event from the local event log to your app: the same bytes, freshly signed.'
  static override description =
    'Takes the delivery `svc webhooks listen` recorded for EVENT_ID and sends the identical raw body with its content-type and ' +
    'X-SVC-* headers to the app (by default where it was forwarded before: the target `webhooks listen` routed it to), plus any --header. When a known secret signed the original, the ' +
    'delivery is re-signed with it and a fresh timestamp; otherwise the original headers go as they were, with a warning. ' +
    'Exit 0 when the app answered 2xx, 1 when it answered another status, 7 when it could not be reached in time, 4 when ' +
    'the event is not in the log.'

  static override examples = [
    '<%= config.bin %> webhooks replay evt_3f9a1c0d2b7e4a5f6c8d9e0a',
    '<%= config.bin %> webhooks replay evt_3f9a1c0d2b7e4a5f6c8d9e0a --forward localhost:3001/webhooks --json',
    "<%= config.bin %> webhooks replay evt_3f9a1c0d2b7e4a5f6c8d9e0a --header 'Authorization: Bearer dev'",
  ]

  static override args = {
    eventId: Args.string({ description: 'Id of the event (X-SVC-Event-Id), as `svc webhooks events` shows it.', required: true }),
  }

  static override flags = {
    forward: Flags.string({ description: 'Send to this URL instead (scheme optional).' }),
    header: Flags.string({
      description: "Add this header to the request, 'Name: value' (repeatable; not content-type, X-SVC-*, framing or hop-by-hop headers such as Expect; the value in tab, printable ASCII and Latin-1).",
      multiple: true,
    }),
    secret: Flags.string({
      description: "Webhook secret to re-sign with (repeatable; or SVC_WEBHOOK_SECRET, or the profile's). Visible to other processes: prefer SVC_WEBHOOK_SECRET or the profile.",
      multiple: true,
    }),
    profile: Flags.string({ char: 'p', description: 'Profile whose webhook secret to use.' }),
  }

  async run(): Promise<ReplayOutcome> {
    if (this.flags.secret?.length) this.warnUser(SECRET_FLAG_WARNING)
    const forward = this.flags.forward ? parseForwardUrl(this.flags.forward) : undefined
    const headers = parseForwardHeaders(this.flags.header)
    const secrets = await resolveWebhookSecrets({ secret: this.flags.secret, profile: this.flags.profile }, this.io.env)
    const store = await this.factory.openEventStore()
    try {
      const r = await replayEvent({ store, eventId: this.args.eventId, forward, forwarder: new Forwarder({ headers }), secrets })
      if (!r.resigned) this.warnUser('No known secret signed the original delivery: sent with its original signature and timestamp, which the app may reject as stale.')
      if (!r.result.ok) this.failAfterOutput(r.result.status === undefined ? EXIT.network : EXIT.unexpected)
      return {
        eventId: this.args.eventId,
        url: r.url.href,
        ok: r.result.ok,
        status: r.result.status ?? null,
        latencyMs: r.result.latencyMs,
        resigned: r.resigned,
        ...(r.result.message ? { error: r.result.message } : {}),
      }
    } finally {
      store.close()
    }
  }

  protected override render(r: ReplayOutcome, io: IO): void {
    if (r.ok) io.out(`${r.eventId} → ${r.url}: ${r.status} in ${r.latencyMs} ms\n`)
    else io.out(`${r.eventId} → ${r.url}: not delivered: ${safeText(r.error ?? '')}\n`)
  }
}
