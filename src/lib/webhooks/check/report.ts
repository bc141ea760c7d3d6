/** The outcome of `svc webhooks check`: one row per delivery of the battery. */

export interface CheckRow {
  id: string
  name: string
  expected: string
  observed: string
  /** HTTP status of the answer; null when there was none. */
  status: number | null
  /** Milliseconds from sending to the answer; null when the row did not run. */
  ms: number | null
  pass: boolean
  note: string | null
}

export interface CheckReport {
  url: string
  passed: number
  failed: number
  /** False when no delivery reached the endpoint at all (connection refused, DNS, TLS). */
  reachable: boolean
  rows: CheckRow[]
}

export function formatLimit(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
