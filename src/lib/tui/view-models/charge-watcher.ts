/**
 * The model behind `svc charges watch`: polls the API (the named charges, or the newest ones)
 * and moves each charge's lane when its status changes. An external store for the live view,
 * and a stream of changes for the plain output. Sleep is injected so tests never wait on the
 * wall clock.
 */
import type { ApiClient } from '../../api/types.js'
import type { Charge } from '../../contract/schemas.js'
import { type ChargeStatus, isFinal } from '../../domain/charge-states.js'
import { ApiError } from '../../errors.js'
import { type Lane, LaneBook } from './lanes.js'

export interface WatchChange {
  charge: Charge
  /** The status before, undefined the first time the charge is seen. */
  from?: ChargeStatus
}

export interface WatchState {
  lanes: Lane[]
  charges: Record<string, Charge>
  polls: number
  /** On the service's clock (what the lanes' times are on), from the Date header of its answers. */
  lastPollAt?: string
  /** The service's clock is off the local one (a sandbox whose clock moved): the header says whose time it shows. */
  serviceClock?: boolean
  error?: string
  missing: string[]
}

export interface ChargeWatcherOptions {
  client: Pick<ApiClient, 'getCharge' | 'listCharges'> & Partial<Pick<ApiClient, 'serverNow'>>
  /** Charges to follow; none: the `recent` newest. */
  ids?: string[]
  recent?: number
  intervalMs?: number
  maxLanes?: number
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
  /** The local clock (tests inject one); the poll's time is read on the service's clock when the client knows it. */
  now?: () => Date
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}

export class ChargeWatcher {
  private readonly opts: ChargeWatcherOptions
  private readonly lanes: LaneBook
  private readonly listeners = new Set<() => void>()
  private state: WatchState = { lanes: [], charges: {}, polls: 0, missing: [] }
  /** The API's 404 for each named charge that does not exist (its requestId is worth quoting). */
  readonly notFound = new Map<string, ApiError>()

  constructor(opts: ChargeWatcherOptions) {
    this.opts = opts
    this.lanes = new LaneBook(opts.maxLanes ?? (opts.ids?.length ? opts.ids.length : (opts.recent ?? 10)), { polled: true })
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  getSnapshot = (): WatchState => this.state

  /** Whether every named charge has reached a state it normally stays in. */
  allFinal(): boolean {
    const ids = this.opts.ids ?? []
    return ids.length > 0 && ids.every((id) => this.state.missing.includes(id) || (this.state.charges[id] && isFinal(this.state.charges[id].status)))
  }

  /** One round of polling; returns the charges whose status changed (or that appeared). */
  async poll(): Promise<WatchChange[]> {
    let fetched: Charge[] = []
    const missing = new Set(this.state.missing)
    let error: string | undefined
    try {
      if (this.opts.ids?.length) {
        const results = await Promise.all(
          this.opts.ids.map(async (id) => {
            try {
              return await this.opts.client.getCharge(id)
            } catch (err) {
              if (err instanceof ApiError && err.status === 404) {
                missing.add(id)
                this.notFound.set(id, err)
                return undefined
              }
              throw err
            }
          }),
        )
        fetched = results.filter((c): c is Charge => c !== undefined)
      } else {
        fetched = (await this.opts.client.listCharges({ limit: this.opts.recent ?? 10 })).data
      }
    } catch (err) {
      error = (err as Error).message
    }
    // One clock in the view: the lanes show the service's times (a sandbox's clock may have been
    // moved), so the poll's time is on the service's clock too, read after its answer.
    const local = (this.opts.now ?? (() => new Date()))()
    const service = this.opts.client.serverNow?.() ?? local
    const now = service.toISOString()
    const serviceClock = Math.abs(service.getTime() - local.getTime()) > 5000
    const changes: WatchChange[] = []
    const charges = { ...this.state.charges }
    // Oldest first, so that the lanes' recency matches the charges' order.
    for (const charge of [...fetched].reverse()) {
      const before = charges[charge.id]
      charges[charge.id] = charge
      // A split charge's division shows under its lane once it ran (the charge stays settled).
      const split = (charge as { split?: { status?: string; destinations?: unknown[] } }).split
      const splitDone = split?.status === 'completed' || split?.status === 'failed'
      const splitBefore = (before as { split?: { status?: string } } | undefined)?.split?.status
      if (splitDone && splitBefore !== split.status) {
        this.lanes.setSplit(charge.id, { status: split.status as 'completed' | 'failed', parts: split.destinations?.length ?? 0 }, charge.updatedAt, charge.amount.grossInCents)
        if (before?.status === charge.status) changes.push({ charge, from: before.status })
      }
      if (before?.status === charge.status) continue
      this.lanes.apply(charge.id, { status: charge.status, at: charge.updatedAt, grossInCents: charge.amount.grossInCents })
      changes.push({ charge, from: before?.status })
    }
    // The newest `recent` charges: a charge pushed out of the list leaves the view (a failed poll keeps what was there).
    if (!this.opts.ids?.length && error === undefined) this.lanes.retain(new Set(fetched.map((c) => c.id)))
    const lanes = this.lanes.list()
    // Only the charges that still have a lane are kept: memory stays flat however long it runs.
    const kept = new Set(lanes.map((l) => l.chargeId))
    for (const id of Object.keys(charges)) if (!kept.has(id)) delete charges[id]
    this.set({ lanes, charges, polls: this.state.polls + 1, lastPollAt: now, serviceClock, error, missing: [...missing] })
    return changes
  }

  /** Polls until `signal` aborts (or, with `untilFinal`, every named charge is final); `sleepFirst` when a poll was just made. */
  async run(signal: AbortSignal, onChanges: (changes: WatchChange[]) => void = () => {}, untilFinal = false, sleepFirst = false): Promise<void> {
    const sleep = this.opts.sleep ?? abortableSleep
    let first = true
    while (!signal.aborted) {
      if (!(first && sleepFirst)) {
        onChanges(await this.poll())
        if (untilFinal && this.allFinal()) return
        if (signal.aborted) return
      }
      first = false
      await sleep(this.opts.intervalMs ?? 2000, signal)
    }
  }

  private set(state: WatchState): void {
    this.state = state
    for (const l of this.listeners) l()
  }
}
