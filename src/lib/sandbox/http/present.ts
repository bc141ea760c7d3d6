import type { Charge } from '../../contract/schemas.js'
import { qrImagePath } from '../engine/brcode.js'

/** A charge as answered: its QR image at this sandbox's current address (the port may change on restart). */
export function presentCharge(deps: { baseUrl: () => string }, charge: Charge): Charge {
  return { ...charge, pix: { ...charge.pix, qrCodeImageUrl: `${deps.baseUrl()}${qrImagePath(charge.id)}` } }
}
