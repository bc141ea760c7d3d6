/**
 * Listener tokens and the names of channels and tokens. A token is `svcrelay_` and 32 random
 * bytes (base64url): the prefix lets the masker and secret scanners find one in any text. The
 * relay keeps only its SHA-256 (hex) and looks a presented token up by that hash, so a database
 * dump holds no usable token and no comparison leaks timing about a stored token's bytes.
 */
import { createHash, randomBytes } from 'node:crypto'

export const RELAY_TOKEN_PREFIX = 'svcrelay_'
/** `svcrelay_` + 43 base64url characters. */
const TOKEN_SHAPE = /^svcrelay_[A-Za-z0-9_-]{43}$/

/** Channel and token names: they appear in URLs, logs and metrics labels, so nothing else. */
export const RELAY_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/

export function newRelayToken(): string {
  return `${RELAY_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`
}

export function hashRelayToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/** Whether a string has the shape of a token (checked before any store lookup). */
export function isRelayTokenShaped(token: string): boolean {
  return TOKEN_SHAPE.test(token)
}

/** The token of an `Authorization: Bearer …` header, or undefined. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)
  return m?.[1]
}
