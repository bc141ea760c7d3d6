/**
 * The webhook faults a sandbox injects (`--webhook-faults duplicate=R,reorder=R,lose=R,
 * delay=DURATION,fail-first=R`, `startSandbox({ webhookFaults })`): parsed and checked here, with
 * no dependency on the sandbox itself, so the command checks a spec before anything starts.
 */
import { parseDuration } from '../../domain/time.js'

export interface WebhookFaultsSpec {
  /** Share (0 to 1) of events delivered a second time, signed afresh, after the first success. */
  duplicate?: number
  /** Share of events held back until the next event of the same resource went out. */
  reorder?: number
  /** Share of events never sent (the log marks them `lost (injected)`). */
  lose?: number
  /** Every first attempt postponed by this long on the sandbox clock: ms, or a duration such as `'2s'`. */
  delay?: number | string
  /** Share of events whose first attempt fails as a network error, so the retry schedule runs. */
  failFirst?: number
}

/** A checked spec: shares in [0, 1], the delay in ms. */
export interface WebhookFaultRates {
  duplicate: number
  reorder: number
  lose: number
  delayMs: number
  failFirst: number
}

const SHARES = ['duplicate', 'reorder', 'lose', 'failFirst'] as const
const PART_OF: Record<string, keyof WebhookFaultRates> = { duplicate: 'duplicate', reorder: 'reorder', lose: 'lose', delay: 'delayMs', 'fail-first': 'failFirst' }
/** The longest delay: past the 24 h retry window a delayed delivery would make no sense. */
const MAX_DELAY_MS = 24 * 3600 * 1000

/** A spec that does not hold; `part` names the part (`duplicate`, `fail-first`…). */
export class WebhookFaultsError extends Error {
  constructor(
    readonly part: string,
    message: string,
  ) {
    super(message)
    this.name = 'WebhookFaultsError'
  }
}

/** Parses `duplicate=0.1,lose=0.2,delay=2s`. Throws WebhookFaultsError naming the part. */
export function parseWebhookFaults(text: string): WebhookFaultRates {
  const spec: Record<string, string> = {}
  const parts = text.split(',').map((p) => p.trim())
  if (parts.every((p) => p === '')) throw new WebhookFaultsError('(spec)', 'give at least one part, e.g. duplicate=0.1,lose=0.05,delay=2s,fail-first=0.2')
  for (const part of parts) {
    if (part === '') continue
    const eq = part.indexOf('=')
    const name = (eq < 0 ? part : part.slice(0, eq)).trim()
    if (!(name in PART_OF)) throw new WebhookFaultsError(name, `unknown part "${name}": the parts are duplicate, reorder, lose, delay and fail-first`)
    if (eq < 0) throw new WebhookFaultsError(name, `${name} needs a value, e.g. ${name === 'delay' ? 'delay=2s' : `${name}=0.1`}`)
    if (name in spec) throw new WebhookFaultsError(name, `${name} is given twice`)
    spec[name] = part.slice(eq + 1).trim()
  }
  return checkWebhookFaults({
    duplicate: share(spec.duplicate, 'duplicate'),
    reorder: share(spec.reorder, 'reorder'),
    lose: share(spec.lose, 'lose'),
    failFirst: share(spec['fail-first'], 'fail-first'),
    delay: spec.delay === undefined ? undefined : delay(spec.delay),
  })
}

/** Checks a spec given as an object (the library's option). Throws WebhookFaultsError naming the part. */
export function checkWebhookFaults(spec: WebhookFaultsSpec): WebhookFaultRates {
  const out: WebhookFaultRates = { duplicate: 0, reorder: 0, lose: 0, delayMs: 0, failFirst: 0 }
  for (const key of SHARES) {
    const v = spec[key]
    if (v === undefined) continue
    const part = key === 'failFirst' ? 'fail-first' : key
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) throw new WebhookFaultsError(part, `${part} must be a share from 0 to 1`)
    out[key] = v
  }
  if (spec.delay !== undefined) {
    const ms = typeof spec.delay === 'number' ? spec.delay : parseDuration(spec.delay)
    if (ms === undefined || !Number.isFinite(ms) || ms < 0 || ms > MAX_DELAY_MS) throw new WebhookFaultsError('delay', 'delay must be a duration from 0 to 24h, e.g. 2s or 500ms')
    out.delayMs = Math.round(ms)
  }
  return out
}

/** Whether any fault is on (none: no layer is installed at all). */
export function faultsOn(r: WebhookFaultRates): boolean {
  return r.duplicate > 0 || r.reorder > 0 || r.lose > 0 || r.delayMs > 0 || r.failFirst > 0
}

/** `duplicate=0.1, delay=2s`: the parts that are on, as the flag spells them. */
export function describeWebhookFaults(r: WebhookFaultRates): string {
  const parts: string[] = []
  if (r.duplicate) parts.push(`duplicate=${r.duplicate}`)
  if (r.reorder) parts.push(`reorder=${r.reorder}`)
  if (r.lose) parts.push(`lose=${r.lose}`)
  if (r.delayMs) parts.push(`delay=${r.delayMs % 1000 === 0 ? `${r.delayMs / 1000}s` : `${r.delayMs}ms`}`)
  if (r.failFirst) parts.push(`fail-first=${r.failFirst}`)
  return parts.join(', ')
}

function share(raw: string | undefined, part: string): number | undefined {
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (raw === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new WebhookFaultsError(part, `${part} must be a share from 0 to 1`)
  return n
}

function delay(raw: string): number {
  const ms = /^\d+$/.test(raw) ? undefined : parseDuration(raw)
  if (ms === undefined) throw new WebhookFaultsError('delay', `delay must be a duration such as 2s or 500ms, not "${raw}"`)
  return ms
}
