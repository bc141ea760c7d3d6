import { Args, Flags } from '@oclif/core'
import { BaseCommand } from '../../../lib/command-kit/base.js'
import { DEFAULT_RELAY_URL, publicUrlFlag, relayStoreFlags } from '../../../lib/command-kit/relay-flags.js'
import type { IO } from '../../../lib/output/io.js'
import { addRelayChannel, checkPublicUrl, checkRelayName, checkSecrets, parseMaxBytes, parseRetention, withRelayStore } from '../../../lib/services/relay-admin.js'

export default class RelayChannelAdd extends BaseCommand<typeof RelayChannelAdd, { name: string; url: string }> {
  static override summary = "Add a channel: one environment's webhooks, verified with its secret; prints the URL to save in the panel."
  static override description =
    "A channel holds the environment's webhook secret(s) (repeat --secret during a rotation) and gets the ingress URL `<public-url>/hooks/NAME`: " +
    "save that URL as the environment's webhook URL in the panel. Runs on the relay's host (it opens the store). " +
    'NAME: lower-case letters, digits, - and _ (at most 63). Secrets may also come from SVC_WEBHOOK_SECRET (comma-separated): --secret is visible to other processes. ' +
    '--retention and --max-bytes bound what the channel keeps; a listener whose unacked deliveries are pruned is told how many it lost.'

  static override examples = [
    '<%= config.bin %> relay channel add team-test --secret whsec_… --public-url https://relay.example.com',
    'SVC_WEBHOOK_SECRET=whsec_… <%= config.bin %> relay channel add team-live --retention 3d --max-bytes 2GiB --json',
  ]

  static override args = { name: Args.string({ description: 'Channel name.', required: true }) }

  static override flags = {
    secret: Flags.string({ description: "The environment's webhook secret (repeat for rotation; or SVC_WEBHOOK_SECRET).", multiple: true, helpValue: 'WHSEC' }),
    retention: Flags.string({ description: "Keep this channel's deliveries this long (default: serve's --retention).", helpValue: 'DURATION' }),
    'max-bytes': Flags.string({ description: 'Cap on the bytes this channel keeps (oldest pruned first), e.g. 500MiB.', helpValue: 'SIZE' }),
    'public-url': publicUrlFlag,
    ...relayStoreFlags,
  }

  async run(): Promise<{ name: string; url: string }> {
    const { flags, args, io } = this
    const name = checkRelayName(args.name, 'name')
    const raw = flags.secret ?? (io.env.SVC_WEBHOOK_SECRET ?? '').split(',')
    const secrets = checkSecrets(raw)
    const retentionMs = parseRetention(flags.retention)
    const maxBytes = parseMaxBytes(flags['max-bytes'])
    const publicUrl = checkPublicUrl(flags['public-url'] ?? io.env.SVC_RELAY_PUBLIC_URL ?? DEFAULT_RELAY_URL)
    if (flags.secret?.length) this.warnUser('--secret is visible to other processes on this machine (ps, /proc). Prefer SVC_WEBHOOK_SECRET (comma-separated for rotation).')
    return withRelayStore({ data: flags.data, store: flags.store, env: io.env }, (store) => addRelayChannel(store, { name, secrets, retentionMs, maxBytes, publicUrl, now: this.now() }))
  }

  protected override render(result: { name: string; url: string }, io: IO): void {
    io.out(`${result.url}\n`)
    if (io.isStdoutTTY) this.note(`Channel ${result.name} added. Save that URL as the webhook URL in the panel; then: svc relay token create NAME --channel ${result.name}`)
  }
}
