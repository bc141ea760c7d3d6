/**
 * Telling the service where to deliver. Against the local sandbox the listener saves its own URL
 * as the webhook URL of both environments (which also reactivates a deactivated endpoint): the
 * key's, and the other one's, where product.paid and other live events go; a real service
 * cannot reach a loopback address, so the user is told what to expose and where to set it.
 */
import type { Credentials } from '../config/resolve.js'
import { maskSecret } from '../config/mask.js'
import { safeText } from '../output/safe-text.js'

export type Registration =
  | { kind: 'sandbox'; url: string; environment: 'live' | 'test'; also?: 'live' | 'test' }
  | { kind: 'sandbox_failed'; url: string; message: string }
  | { kind: 'remote'; baseUrl: string; environment: 'live' | 'test' }
  | { kind: 'unreachable'; baseUrl: string; reason: string }
  | { kind: 'no_credentials'; reason: string }

export interface RegisterDeps {
  detectSandbox(baseUrl: string): Promise<boolean>
  /** Tells "nothing answers" from "not a sandbox"; without it, both read as a remote service. */
  probeSandbox?(baseUrl: string): Promise<{ kind: 'sandbox' } | { kind: 'other' } | { kind: 'unreachable'; reason: string }>
  setWebhookUrl(opts: { baseUrl: string; apiKey: string; url: string; env?: 'live' | 'test' }): Promise<unknown>
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
  const d = deps ?? (await import('../sandbox-client/client.js'))
  const url = reachableUrl(listening)
  const probe = d.probeSandbox ? await d.probeSandbox(credentials.baseUrl) : { kind: (await d.detectSandbox(credentials.baseUrl)) ? 'sandbox' : 'other' }
  if (probe.kind === 'unreachable') return { kind: 'unreachable', baseUrl: credentials.baseUrl, reason: (probe as { reason: string }).reason }
  if (probe.kind !== 'sandbox') return { kind: 'remote', baseUrl: credentials.baseUrl, environment: credentials.environment }
  try {
    await d.setWebhookUrl({ baseUrl: credentials.baseUrl, apiKey: credentials.apiKey, url, env: credentials.environment })
    // The other environment too: the local sandbox's live events (product.paid is live only) reach the same app.
    const other = credentials.environment === 'test' ? 'live' : 'test'
    const also = await d.setWebhookUrl({ baseUrl: credentials.baseUrl, apiKey: credentials.apiKey, url, env: other }).then(
      () => other,
      () => undefined,
    )
    return { kind: 'sandbox', url, environment: credentials.environment, ...(also ? { also } : {}) }
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
        'Check --base-url (or the profile\'s); for the local sandbox, `svc sandbox status` says where it runs. The listener keeps receiving on its port meanwhile.',
      ]
    case 'no_credentials':
      return [`No API credentials (${reg.reason}): deliveries are ${skipVerify ? 'forwarded (NOT verified: --skip-verify)' : 'verified and forwarded'}, but not confirmed with the API and the URL is not registered anywhere.`]
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
