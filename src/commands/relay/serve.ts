import { Flags } from '@oclif/core'
import { BaseCommand } from '../../lib/command-kit/base.js'
import { relayStoreFlags } from '../../lib/command-kit/relay-flags.js'
import { UsageError } from '../../lib/errors.js'
import { checkPublicUrl, parseRetention } from '../../lib/services/relay-admin.js'
import { runRelayServe } from '../../lib/services/relay-serve.js'
import { untilStopSignal } from '../../lib/input/shutdown.js'

export default class RelayServe extends BaseCommand<typeof RelayServe> {
  static override summary = "Run a webhook relay: it stores the service's deliveries until each listener acks them."
  static override description =
    'A small server on a host the service can reach. The service posts to `<public-url>/hooks/NAME` (a channel: `svc relay channel add`); ' +
    "each delivery is verified with the channel's secret exactly as `svc webhooks listen` verifies (300 s from arrival), committed to the store, " +
    'and only then answered 2xx (503 when the store cannot commit, so the service retries). Listeners connect out with a token ' +
    '(`svc relay token create`, then `svc webhooks listen --relay URL --token T`) and receive what they have not acked, in arrival order, ' +
    'then live. Retention (--retention, or per channel) prunes old deliveries; a listener that loses unacked ones is told (a gap).\n\n' +
    'Listens on 127.0.0.1 unless --host; any other address needs --tls-cert/--tls-key (HTTPS) or --behind-proxy (a TLS proxy on this ' +
    'host; X-Forwarded-For is then trusted from loopback peers only). GET /healthz answers 200 only when the store can commit; ' +
    'GET /metrics (Prometheus text) answers loopback clients only unless --metrics-public. Logs are JSON lines on stderr, never a token, ' +
    'secret or body. Not on a terminal, the first stdout line is {"listening": URL}. SIGTERM or Ctrl+C: no new deliveries, commits ' +
    'in flight finish, streams are told `shutdown`, exit 0.\n\n' +
    '--durability normal (default): a commit survives the process being killed; full: it survives a power cut too (fsync per commit, slower ingest).\n\n' +
    'Several instances for a team: --store postgres://… (or SVC_RELAY_STORE) keeps everything in PostgreSQL, so two or more serve processes behind ' +
    'a load balancer share channels, tokens, deliveries and cursors; an event taken by one reaches a listener on another, and a second stream of a ' +
    'token on any instance replaces the first. Run `svc relay migrate --store URL` first: serve refuses a schema it does not know (exit 2). ' +
    "PostgreSQL unreachable: ingress 503 and /healthz 503 until it is back (no restart needed). The URL's password is never printed or logged."

  static override examples = [
    '<%= config.bin %> relay serve',
    '<%= config.bin %> relay serve --port 0 --data ./relay-data   # a free port; stdout: {"listening": URL}',
    '<%= config.bin %> relay serve --host 0.0.0.0 --port 443 --tls-cert /etc/relay/cert.pem --tls-key /etc/relay/key.pem --public-url https://relay.example.com',
    '<%= config.bin %> relay serve --behind-proxy --public-url https://relay.example.com --retention 3d --durability full',
    'SVC_RELAY_STORE=postgres://relay:$PGPASSWORD@db.internal/relay <%= config.bin %> relay serve --behind-proxy --public-url https://relay.example.com   # one of several instances',
  ]

  static override flags = {
    port: Flags.integer({ description: 'Port to listen on (0: any free port).', default: 8080, min: 0, max: 65_535 }),
    host: Flags.string({ description: 'Address to listen on; anything but loopback needs --tls-cert/--tls-key or --behind-proxy.', default: '127.0.0.1' }),
    ...relayStoreFlags,
    'tls-cert': Flags.string({ description: 'PEM certificate (chain) to serve HTTPS with.', helpValue: 'FILE', dependsOn: ['tls-key'] }),
    'tls-key': Flags.string({ description: 'PEM private key of --tls-cert.', helpValue: 'FILE', dependsOn: ['tls-cert'] }),
    'behind-proxy': Flags.boolean({ description: 'A TLS proxy on this host (Caddy, nginx) forwards to the relay: trust its X-Forwarded-For from loopback peers.' }),
    'public-url': Flags.string({ description: 'The URL the service reaches the relay at (shown in the log).', helpValue: 'URL' }),
    retention: Flags.string({ description: 'Keep deliveries this long by default (channels may set their own).', default: '7d', helpValue: 'DURATION' }),
    durability: Flags.string({ description: 'normal: commits survive a killed process; full: a power cut too (fsync per commit).', options: ['normal', 'full'], default: 'normal' }),
    'metrics-public': Flags.boolean({ description: 'Serve GET /metrics to any address (default: loopback clients only).' }),
    'max-streams-per-address': Flags.integer({
      description: 'Open listener streams allowed from one client address (a team behind one NAT address needs one per developer); loopback clients are not counted.',
      default: 20,
      min: 1,
      max: 100_000,
    }),
  }

  async run(): Promise<void> {
    const { flags, io } = this
    const retentionMs = parseRetention(flags.retention)!
    const publicUrl = flags['public-url'] !== undefined ? checkPublicUrl(flags['public-url']) : undefined
    if (flags['tls-cert'] && flags['behind-proxy']) throw new UsageError('--behind-proxy and --tls-cert are exclusive: the proxy terminates TLS.', { field: 'behind-proxy' })
    const relay = await runRelayServe({
      port: flags.port,
      host: flags.host,
      data: flags.data,
      store: flags.store,
      tlsCert: flags['tls-cert'],
      tlsKey: flags['tls-key'],
      behindProxy: flags['behind-proxy'],
      metricsPublic: flags['metrics-public'],
      maxStreamsPerAddress: flags['max-streams-per-address'],
      publicUrl,
      retentionMs,
      durability: flags.durability as 'normal' | 'full',
      env: io.env,
      writeLog: (line) => io.err(`${line}\n`),
    })
    if (!io.isStdoutTTY || flags.json) this.printJsonLine({ listening: relay.url })
    else io.out(`Relay listening on ${relay.url}${publicUrl ? ` (public: ${publicUrl})` : ''}. Add a channel: svc relay channel add NAME --secret whsec_…\n`)
    const signal = await untilStopSignal()
    this.printJsonLine({ time: this.now().toISOString(), level: 'info', msg: 'stopping', signal }, 'err')
    await relay.stop()
  }
}
