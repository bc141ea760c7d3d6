/**
 * The lanes of what is not a charge: a withdrawal's path (processing → paid with its end-to-end
 * id, or failed) and each product sale (one step, paid). Kept like the charge lanes (lanes.ts):
 * the ones updated last, at most `max`.
 */
import { WITHDRAWAL_LANE, type WithdrawalStatus } from '../../domain/withdrawal-states.js'

export interface ActivityLane {
  kind: 'withdrawal' | 'product'
  id: string
  /** The states seen, in the order drawn. */
  steps: Array<{ status: string; at: string }>
  current: string
  amountInCents?: number
  /** The end-to-end id of a paid withdrawal; the product and buyer of a sale. */
  detail?: string
  touched: number
}

export interface ActivityUpdate {
  status: string
  at: string
  amountInCents?: number
  detail?: string
}

/** The columns of a withdrawal lane: processing, then paid or failed (whichever it reached). */
export function withdrawalColumns(lane: Pick<ActivityLane, 'steps'>): string[] {
  const failed = lane.steps.some((s) => s.status === 'failed')
  return failed ? ['processing', 'failed'] : [...WITHDRAWAL_LANE]
}

export class ActivityBook {
  private readonly lanes = new Map<string, ActivityLane>()
  private clock = 0

  constructor(private readonly max = 20) {}

  apply(kind: ActivityLane['kind'], id: string, u: ActivityUpdate): void {
    const key = `${kind}:${id}`
    const lane = this.lanes.get(key)
    const steps = lane ? lane.steps.filter((s) => s.status !== u.status) : []
    steps.push({ status: u.status, at: u.at })
    const order = (s: string) => (WITHDRAWAL_LANE as readonly string[]).indexOf(s as WithdrawalStatus)
    if (kind === 'withdrawal') steps.sort((a, b) => (order(a.status) < 0 ? 9 : order(a.status)) - (order(b.status) < 0 ? 9 : order(b.status)))
    const ended = lane && lane.current !== 'processing' && u.status === 'processing'
    this.lanes.set(key, {
      kind,
      id,
      steps,
      current: ended ? lane.current : u.status,
      amountInCents: u.amountInCents ?? lane?.amountInCents,
      detail: u.detail ?? lane?.detail,
      touched: ++this.clock,
    })
    while (this.lanes.size > this.max) {
      const oldest = [...this.lanes.entries()].reduce((a, b) => (a[1].touched <= b[1].touched ? a : b))
      this.lanes.delete(oldest[0])
    }
  }

  /** Most recently updated first. */
  list(): ActivityLane[] {
    return [...this.lanes.values()].sort((a, b) => b.touched - a.touched)
  }
}
