import type { Environment } from '../contract/schemas.js'

/** Secrets are never printed in full: `svc_test_…a1b2`, `whsec_…9f3c`, `svcrelay_…x9Q_` (a relay listener token). */
export function maskSecret(secret: string | undefined): string {
  if (!secret) return ''
  const prefix = /^(svc_(?:live|test)_|whsec_|svcrelay_)/.exec(secret)?.[1] ?? ''
  const rest = secret.slice(prefix.length)
  if (rest.length <= 8) return `${prefix}…`
  return `${prefix}…${rest.slice(-4)}`
}

const SECRET_PREFIX = /^(?:svc_(?:live|test)_|whsec_|svcrelay_)/i
/** The shortest secret part matched on its own (without its prefix): shorter ones are masked only whole. */
const MIN_BARE_SECRET = 8

/**
 * Every echo of `secret` in a text, as a global, case-insensitive pattern: the secret whole, or
 * its secret part (what follows `svc_live_`/`svc_test_`/`whsec_`) with or without a prefix, in
 * any case (a server that upper-cases or strips what it echoes must not leak it either).
 * Undefined for a secret too short to look for.
 */
function echoPattern(secret: string): RegExp | undefined {
  if (secret.length < MIN_BARE_SECRET) return undefined
  const prefix = SECRET_PREFIX.exec(secret)?.[0] ?? ''
  const rest = secret.slice(prefix.length)
  const literal = (t: string) => t.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')
  const body = rest.length >= MIN_BARE_SECRET ? `(?:svc_(?:live|test)_|whsec_|svcrelay_)?${literal(rest)}` : literal(secret)
  return new RegExp(body, 'gi')
}

/**
 * Replaces every echo of the given secrets in a text by their masked form (`svc_test_…a1b2`):
 * whole or without its prefix, in any case (echoPattern). Then any key- or secret-shaped string
 * that slipped through, and whatever follows `Bearer ` (an Authorization header echoed back).
 * The one masking function for text that may hold a secret: error messages, details, request
 * ids and debug lines, in the CLI and in the library.
 */
export function redact(text: string, secrets: Array<string | undefined>): string {
  let out = text
  for (const s of secrets) {
    const pattern = s ? echoPattern(s) : undefined
    if (pattern) out = out.replace(pattern, () => maskSecret(s))
  }
  // Key alphabets are not specified: allow _ and -.
  return out
    .replace(/\b(?:svc_(?:live|test)_|whsec_|svcrelay_)[A-Za-z0-9_-]{9,}/gi, (m) => maskSecret(m))
    .replace(/\b(Bearer\s+)(?!svc_(?:live|test)_…|whsec_…|svcrelay_…)([^\s"',;]{8,})/gi, (_, lead: string, token: string) => `${lead}${maskSecret(token)}`)
}

/** The key's prefix picks the environment (CLI.md); undefined for a key with neither prefix. */
export function environmentOfKey(key: string): Environment | undefined {
  if (key.startsWith('svc_live_')) return 'live'
  if (key.startsWith('svc_test_')) return 'test'
  return undefined
}
