/**
 * The Pix copy-and-paste string of a charge: a dynamic EMV BR Code built by
 * @brazilian-utils (the library of record, never hand-written TLVs or CRCs), and its QR PNG.
 *
 * A dynamic BR Code carries no amount and no txid: the payer's bank reads both from the PSP
 * location in field 26-25 (the library refuses an amount next to a URL, as the Bacen manual
 * wants). The location names a fictitious PSP host with the charge id in the path; the host
 * has no port, because the BR Code's URL rule forbids one.
 */
import { generatePixPayload } from '@brazilian-utils/brazilian-utils/generate-pix-payload'

export const PIX_LOCATION_HOST = 'pix.sandbox.svc.local'
export const MERCHANT_NAME = 'Loja Sandbox SVC'
export const MERCHANT_CITY = 'Sao Paulo'

export function pixLocation(chargeId: string): string {
  return `${PIX_LOCATION_HOST}/qr/v2/${chargeId}`
}

export function brCodeFor(chargeId: string): string {
  const payload = generatePixPayload({ url: pixLocation(chargeId), merchantName: MERCHANT_NAME, merchantCity: MERCHANT_CITY })
  // Only a bug (a location over 77 characters, an empty name) makes the library refuse.
  if (!payload) throw new Error(`could not build the BR Code of charge ${chargeId}`)
  return payload
}

export function qrImagePath(chargeId: string): string {
  return `/qr/${chargeId}.png`
}

/** PNG bytes of the QR of `text`; `qrcode` is loaded on first use so the sandbox starts fast. */
export async function qrPng(text: string): Promise<Buffer> {
  const { default: QRCode } = await import('qrcode')
  return QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 6 })
}
