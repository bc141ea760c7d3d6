/**
 * Telling the service where to deliver. Against the local sandbox the listener saves its own URL
 * as the webhook URL of both environments (which also reactivates a deactivated endpoint): the
 * key's, and the other one's, where product.paid and other live events go; a real service
 * cannot reach a loopback address, so the user is told what to expose and where to set it.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import type { Credentials } from '../config/resolve.js'
import { maskSecret } from '../config/mask.js'
import { configDir } from '../config/store.js'
import { isLoopbackHost } from '../net/loopback.js'
import { safeText } from '../output/safe-text.js'
import { writePrivateFile } from '../config/private-file.js'
import type { Environment } from '../contract/schemas.js'

export type Registration =
  | {
      kind: 'sandbox'
      url: string
      environment: Environment
      also?: Environment
      /** Each environment's URL before the listener took it (null: none), to put back when it stops. */
      previous?: Partial<Record<Environment, string | null>>
      /** Dead listeners' URLs found there and gone back past at registration, said when restoring. */
      skipped?: Partial<Record<Environment, string[]>>
    }
  | { kind: 'sandbox_failed'; url: string; message: string }
  | { kind: 'remote'; baseUrl: string; environment: Environment }
  | { kind: 'unreachable'; baseUrl: string; reason: string }
  | { kind: 'no_credentials'; reason: string }

export interface RegisterDeps {
  detectSandbox(baseUrl: string): Promise<boolean>
  /** Tells "nothing answers" from "not a sandbox"; without it, both read as a remote service. */
  probeSandbox?(baseUrl: string): Promise<{ kind: 'sandbox' } | { kind: 'other' } | { kind: 'unreachable'; reason: string }>
  setWebhookUrl(opts: { baseUrl: string; apiKey: string; url: string; env?: Environment }): Promise<unknown>
  /** The environment's URL now (undefined: none set); without it, nothing is restored at the end. */
  getWebhookUrl?(opts: { baseUrl: string; apiKey: string; env?: Environment }): Promise<string | undefined>
  /** Removes the environment's URL (where there was none before the listener). */
  removeWebhookUrl?(opts: { baseUrl: string; apiKey: string; env?: Environment }): Promise<unknown>
  /** Whether something accepts connections at a loopback URL (default: a TCP connect, 1 s at most). */
  answers?(url: string): Promise<boolean>
  /** Where listeners note what they replaced (default: listeners.json in the config dir). */
  ledgerFile?: string
}

/** The URL the service should call: an unspecified bind address (0.0.0.0, ::) becomes loopback. */
export function reachableUrl(listening: string): string {
  const u = new URL(listening)
  if (u.hostname === '0.0.0.0') u.hostname = '127.0.0.1'
  if (u.hostname === '[::]') u.hostname = '[::1]'
  return u.href
}

export async function registerListener(listening: string, credentials: Credentials | undefined, reason: string, deps?: RegisterDeps): Promise<Registration> {
  if (!credentials) return { kind: 'no_credentials', reason }
  const d = deps ?? (await import('../sandbox-client/panel-client.js'))
  const url = reachableUrl(listening)
  const probe = d.probeSandbox ? await d.probeSandbox(credentials.baseUrl) : { kind: (await d.detectSandbox(credentials.baseUrl)) ? 'sandbox' : 'other' }
  if (probe.kind === 'unreachable') return { kind: 'unreachable', baseUrl: credentials.baseUrl, reason: (probe as { reason: string }).reason }
  if (probe.kind !== 'sandbox') return { kind: 'remote', baseUrl: credentials.baseUrl, environment: credentials.environment }
  const target = { baseUrl: credentials.baseUrl, apiKey: credentials.apiKey }
  const ledger = ledgerPath(deps)
  // What was there before, so that a clean stop can put it back (see restoreWebhookUrls). Never
  // this listener's own URL, nor a dead listener's: a listener killed (kill -9) on this port or
  // another one left its URL there; what it replaced, noted in the ledger, is what was there.
  const skipped: Partial<Record<Environment, string[]>> = {}
  const before = async (env: Environment) => {
    if (!d.getWebhookUrl) return undefined
    const now = (await d.getWebhookUrl({ ...target, env }).catch(() => undefined)) ?? null
    const past = await pastDeadListeners(now, { baseUrl: credentials.baseUrl, env, own: url, ledger, alive: deps?.answers ?? answers })
    const others = past.dead.filter((u) => u !== url)
    if (others.length > 0) skipped[env] = others
    return past.url
  }
  const previous: Partial<Record<Environment, string | null>> = {}
  try {
    const mine = await before(credentials.environment)
    await d.setWebhookUrl({ ...target, url, env: credentials.environment })
    if (mine !== undefined) previous[credentials.environment] = mine
    // The other environment too: the local sandbox's live events (product.paid is live only) reach the same app.
    const other = credentials.environment === 'test' ? 'live' : 'test'
    const otherBefore = await before(other)
    const also = await d.setWebhookUrl({ ...target, url, env: other }).then(
      () => other,
      () => undefined,
    )
    if (also && otherBefore !== undefined) previous[other] = otherBefore
    // Noted outside this process too: if it dies without restoring (kill -9), the next
    // listener's clean stop can go back past its dead URL to the one it replaced.
    updateLedger(ledger, (l) => {
      for (const [env, before] of Object.entries(previous)) l[ledgerKey(credentials.baseUrl, env, url)] = before ?? null
    })
    return { kind: 'sandbox', url, environment: credentials.environment, ...(also ? { also } : {}), previous, ...(Object.keys(skipped).length > 0 ? { skipped } : {}) }
  } catch (err) {
    return { kind: 'sandbox_failed', url, message: (err as Error).message }
  }
}

/** Human lines (stderr or the live view's notices) about where deliveries will come from. */
export function registrationNotes(reg: Registration, listening: string, secrets: readonly string[], skipVerify = false): string[] {
  const port = new URL(listening).port
  const secretNote = skipVerify
    ? 'signatures are NOT verified (--skip-verify): anything sent to this port reaches your app'
    : secrets.length > 0
      ? `verifying with ${secrets.map((s) => maskSecret(s)).join(', ')}`
      : 'no webhook secret known'
  switch (reg.kind) {
    case 'sandbox':
      return [`Registered ${reg.url} as the sandbox's ${reg.environment}${reg.also ? ` and ${reg.also}` : ''} webhook URL; ${secretNote}.`]
    case 'sandbox_failed':
      return [`Could not register ${reg.url} in the sandbox (${safeText(reg.message)}). Set it with \`svc sandbox webhook set ${reg.url}\`.`]
    case 'remote':
      return [
        `${reg.baseUrl} is not a local sandbox: it cannot reach ${listening} on this machine.`,
        `Expose the listener with a tunnel (e.g. \`cloudflared tunnel --url http://127.0.0.1:${port}\` or \`ngrok http ${port}\`),`,
        `then set the tunnel's https URL as the ${reg.environment} webhook URL in the panel (API → Webhook). ${secretNote[0]!.toUpperCase()}${secretNote.slice(1)}.`,
      ]
    case 'unreachable':
      return [
        `Cannot reach ${reg.baseUrl} (${safeText(reg.reason)}): nothing answers there, so the listener is not registered and deliveries cannot be confirmed with the API.`,
        "Check --base-url (or the profile's); for the local sandbox, `svc sandbox status` says where it runs. The listener keeps receiving on its port meanwhile.",
      ]
    case 'no_credentials':
      return [
        `No API credentials (${reg.reason}): deliveries are ${skipVerify ? 'forwarded (NOT verified: --skip-verify)' : 'verified and forwarded'}, but not confirmed with the API and the URL is not registered anywhere.`,
      ]
  }
}

/** The same, in one line for the live view's header (the full notes are printed above the view). */
export function registrationSummary(reg: Registration, secrets: readonly string[], skipVerify = false): string {
  const verify = skipVerify ? 'signatures NOT verified' : secrets.length > 0 ? `verifying with ${secrets.map((s) => maskSecret(s)).join(', ')}` : 'no webhook secret known'
  switch (reg.kind) {
    case 'sandbox':
      return `registered as the sandbox's ${reg.environment}${reg.also ? ` and ${reg.also}` : ''} webhook URL · ${verify}`
    case 'sandbox_failed':
      return `NOT registered in the sandbox (see above) · ${verify}`
    case 'remote':
      return `expose this port with a tunnel and set it as the ${reg.environment} webhook URL (see above) · ${verify}`
    case 'unreachable':
      return `${reg.baseUrl} cannot be reached: not registered, not confirmed (see above) · ${verify}`
    case 'no_credentials':
      return `no API credentials: not confirmed with the API, not registered · ${verify}`
  }
}

/**
 * On the listener's stop: each sandbox environment whose webhook URL still is the listener's gets
 * back the URL it had before, so later events do not pile up as failures against a dead port.
 * An environment that had none gets none again. A URL someone changed meanwhile is left alone.
 * Never throws.
 */
export async function restoreWebhookUrls(reg: Registration, credentials: Credentials | undefined, deps?: RegisterDeps): Promise<string[]> {
  if (reg.kind !== 'sandbox' || !credentials || !reg.previous) return []
  const d = deps ?? (await import('../sandbox-client/panel-client.js'))
  if (!d.getWebhookUrl) return []
  const target = { baseUrl: credentials.baseUrl, apiKey: credentials.apiKey }
  const ledger = ledgerPath(deps)
  const notes: string[] = []
  for (const env of ['test', 'live'] as const) {
    if (!(env in reg.previous)) continue
    try {
      const now = await d.getWebhookUrl({ ...target, env })
      if (now !== reg.url) continue
      const { url: before, dead } = await pastDeadListeners(reg.previous[env] ?? null, { baseUrl: credentials.baseUrl, env, own: reg.url, ledger, alive: deps?.answers ?? answers })
      const others = [...(reg.skipped?.[env] ?? []), ...dead.filter((u) => u !== reg.url)]
      const past = others.length > 0 ? ` (not ${others.map((u) => safeText(u)).join(', ')}: a listener that no longer answers)` : ''
      if (before) {
        await d.setWebhookUrl({ ...target, url: before, env })
        notes.push(`Restored the sandbox's ${env} webhook URL to ${safeText(before)}${past}.`)
      } else if (d.removeWebhookUrl) {
        await d.removeWebhookUrl({ ...target, env })
        notes.push(`Removed the sandbox's ${env} webhook URL (there was none before the listener${others.length > 0 ? `s; not ${others.map((u) => safeText(u)).join(', ')}: a listener that no longer answers` : ''}).`)
      } else {
        notes.push(
          `The sandbox's ${env} webhook URL still points at ${reg.url} (there was none before): its events will fail until you run the listener again or set one with \`svc sandbox webhook set URL --env ${env}\`.`,
        )
      }
    } catch (err) {
      notes.push(`Could not restore the sandbox's ${env} webhook URL (${safeText((err as Error).message)}); it still points at ${reg.url}.`)
    }
  }
  updateLedger(ledger, (l) => {
    for (const env of Object.keys(reg.previous ?? {})) delete l[ledgerKey(credentials.baseUrl, env, reg.url)]
  })
  return notes
}

/**
 * The URL that was there before the listeners: `before`, unless it is this listener's own URL (a
 * listener killed on this same port) or another listener's loopback URL noted in the ledger that
 * no longer answers (killed before it could restore); then the one that listener replaced, and
 * so on. Never `own`: with nothing noted past it, null (no URL). Those dead entries leave the ledger.
 */
async function pastDeadListeners(before: string | null, at: { baseUrl: string; env: string; own: string; ledger: string; alive: (url: string) => Promise<boolean> }): Promise<{ url: string | null; dead: string[] }> {
  const dead: string[] = []
  let url = before
  const entries = readLedger(at.ledger)
  while (url) {
    const key = ledgerKey(at.baseUrl, at.env, url)
    const listener = url === at.own || (key in entries && isLoopbackHost(hostOf(url)) && !(await at.alive(url)))
    if (!listener) break
    // A loop in the ledger (an older svc noted a listener as what it replaced): nothing is known past it.
    if (dead.includes(url)) {
      url = null
      break
    }
    dead.push(url)
    url = entries[key] ?? null
  }
  if (dead.length > 0)
    updateLedger(at.ledger, (l) => {
      for (const u of dead) delete l[ledgerKey(at.baseUrl, at.env, u)]
    })
  return { url, dead }
}

type Ledger = Record<string, string | null>

function ledgerPath(deps: RegisterDeps | undefined): string {
  return deps?.ledgerFile ?? join(configDir(), 'listeners.json')
}

/** One sandbox environment's listener URL: `baseUrl env url`. */
function ledgerKey(baseUrl: string, env: string, url: string): string {
  return `${baseUrl} ${env} ${url}`
}

function readLedger(path: string): Ledger {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as unknown
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Ledger) : {}
  } catch {
    return {}
  }
}

/** Best effort: a ledger that cannot be written only means no going back past a dead listener. */
function updateLedger(path: string, change: (l: Ledger) => void): void {
  try {
    const l = readLedger(path)
    change(l)
    const keys = Object.keys(l)
    // Kept small: the oldest notes go first.
    for (const k of keys.slice(0, Math.max(0, keys.length - 100))) delete l[k]
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 })
    writePrivateFile(path, JSON.stringify(l))
  } catch {
    // nothing to do
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname
  } catch {
    return ''
  }
}

/** Whether something accepts a TCP connection at the URL's host and port, within 1 s. */
function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    let u: URL
    try {
      u = new URL(url)
    } catch {
      return resolve(false)
    }
    const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80))
    const socket = connect({ host: u.hostname.replace(/^\[|\]$/g, ''), port })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1000, () => done(true))
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
}
