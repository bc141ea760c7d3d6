/** Secrets are never printed in full: `svc_test_…a1b2`, `whsec_…9f3c`. */
export function maskSecret(secret: string | undefined): string {
  if (!secret) return ''
  const prefix = /^(svc_(?:live|test)_|whsec_)/.exec(secret)?.[1] ?? ''
  const rest = secret.slice(prefix.length)
  if (rest.length <= 8) return `${prefix}…`
  return `${prefix}…${rest.slice(-4)}`
}

/** Replaces every occurrence of the given secrets in a text by their masked form (for debug logs). */
export function redact(text: string, secrets: Array<string | undefined>): string {
  let out = text
  for (const s of secrets) if (s && s.length >= 8) out = out.split(s).join(maskSecret(s))
  // Any key- or secret-shaped string that slipped through (key alphabets are not specified: allow _ and -),
  // and whatever follows `Bearer ` (an Authorization header echoed back), whatever its shape.
  return out
    .replace(/\b(?:svc_(?:live|test)_|whsec_)[A-Za-z0-9_-]{9,}/g, (m) => maskSecret(m))
    .replace(/\b(Bearer\s+)(?!svc_(?:live|test)_…|whsec_…)([^\s"',;]{8,})/gi, (_, lead: string, token: string) => `${lead}${maskSecret(token)}`)
}

export type Environment = 'live' | 'test'

/** The key's prefix picks the environment (CLI.md); undefined for a key with neither prefix. */
export function environmentOfKey(key: string): Environment | undefined {
  if (key.startsWith('svc_live_')) return 'live'
  if (key.startsWith('svc_test_')) return 'test'
  return undefined
}
