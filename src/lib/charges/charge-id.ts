/**
 * Charge ids are 24 hexadecimal characters (spec 2.2). Checking them before a request keeps a
 * typo (or a stray path such as `../account`) from ever reaching the URL.
 */
import { UsageError } from '../errors.js'

export const CHARGE_ID = /^[0-9a-f]{24}$/

export const CHARGE_ID_HINT = 'Charge ids are the 24-hex-character ids returned at creation (see `svc charges list -q`).'

export function assertChargeId(id: string): string {
  const trimmed = id.trim()
  if (!CHARGE_ID.test(trimmed)) {
    throw new UsageError(`"${id}" is not a charge id; nothing was sent.`, {
      details: [{ field: 'ID', message: 'must be 24 hexadecimal characters' }],
      hint: CHARGE_ID_HINT,
    })
  }
  return trimmed
}
