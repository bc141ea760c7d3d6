/**
 * The relay's counters, in the Prometheus text format (version 0.0.4) that every scraper reads.
 * Label values are channel and token names (RELAY_NAME: no quotes or backslashes) and fixed
 * reasons, so no escaping is needed beyond what the names already forbid.
 */

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] as const

export class RelayMetrics {
  readonly ingested = new Map<string, number>()
  readonly refused = new Map<string, number>()
  readonly delivered = new Map<string, number>()
  readonly redelivered = new Map<string, number>()
  readonly acked = new Map<string, number>()
  readonly filtered = new Map<string, number>()
  readonly authFailures = { count: 0 }
  private readonly commitBuckets = BUCKETS.map(() => 0)
  private commitCount = 0
  private commitSum = 0

  add(map: Map<string, number>, key: string, n = 1): void {
    map.set(key, (map.get(key) ?? 0) + n)
  }

  observeCommit(seconds: number): void {
    this.commitCount++
    this.commitSum += seconds
    BUCKETS.forEach((b, i) => {
      if (seconds <= b) this.commitBuckets[i]!++
    })
  }

  render(gauges: { streams: number; tokens: Array<{ name: string; channel: string; backlog: number; oldestAgeSeconds: number; connected: boolean }> }): string {
    const out: string[] = []
    const counter = (name: string, help: string, label: string, map: Map<string, number>) => {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`)
      for (const [k, v] of [...map].sort()) out.push(`${name}{${label}="${k}"} ${v}`)
    }
    counter('svc_relay_ingested_total', 'Deliveries verified and committed, by channel.', 'channel', this.ingested)
    counter('svc_relay_refused_total', 'Ingress posts refused, by reason.', 'reason', this.refused)
    counter('svc_relay_delivered_total', 'Deliveries sent on a stream (first sends), by token.', 'token', this.delivered)
    counter('svc_relay_redelivered_total', 'Deliveries sent again (unacked after the backoff, or on a new stream), by token.', 'token', this.redelivered)
    counter('svc_relay_acked_total', 'Deliveries acked by the listener, by token.', 'token', this.acked)
    counter('svc_relay_filtered_total', "Deliveries a token's --only/--match excluded (acked by the relay), by token.", 'token', this.filtered)
    out.push('# HELP svc_relay_auth_failures_total Requests with a missing, unknown or revoked token.', '# TYPE svc_relay_auth_failures_total counter', `svc_relay_auth_failures_total ${this.authFailures.count}`)
    out.push('# HELP svc_relay_streams Open listener streams.', '# TYPE svc_relay_streams gauge', `svc_relay_streams ${gauges.streams}`)
    out.push('# HELP svc_relay_backlog Unacked deliveries waiting for a token.', '# TYPE svc_relay_backlog gauge')
    for (const t of gauges.tokens) out.push(`svc_relay_backlog{token="${t.name}",channel="${t.channel}"} ${t.backlog}`)
    out.push('# HELP svc_relay_oldest_unacked_age_seconds Age of the oldest unacked delivery of a token (0: none).', '# TYPE svc_relay_oldest_unacked_age_seconds gauge')
    for (const t of gauges.tokens) out.push(`svc_relay_oldest_unacked_age_seconds{token="${t.name}",channel="${t.channel}"} ${t.oldestAgeSeconds}`)
    out.push('# HELP svc_relay_connected Whether a token has an open stream on this instance.', '# TYPE svc_relay_connected gauge')
    for (const t of gauges.tokens) out.push(`svc_relay_connected{token="${t.name}",channel="${t.channel}"} ${t.connected ? 1 : 0}`)
    out.push('# HELP svc_relay_commit_seconds Time from a verified post to its durable commit.', '# TYPE svc_relay_commit_seconds histogram')
    for (const [i, b] of BUCKETS.entries()) out.push(`svc_relay_commit_seconds_bucket{le="${b}"} ${this.commitBuckets[i]}`)
    out.push(`svc_relay_commit_seconds_bucket{le="+Inf"} ${this.commitCount}`, `svc_relay_commit_seconds_sum ${this.commitSum}`, `svc_relay_commit_seconds_count ${this.commitCount}`)
    return `${out.join('\n')}\n`
  }
}
