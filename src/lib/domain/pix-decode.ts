/**
 * `svc pix decode`: reads and checks a Pix copy-and-paste string (EMV BR Code). The parsing is
 * @brazilian-utils' `getPixPayloadInfo` (the library the sandbox generates its codes with): the
 * TLV structure, the mandatory fields, the `br.gov.bcb.pix` template with a key or a location,
 * the CRC. It answers only "valid or not", so the faults a user can fix are named first by
 * checks on the whole string (characters, start, CRC trailer and value, GUI), and the limits the
 * Bacen manual sets for generators, which the library leaves out on purpose, are applied to the
 * fields it returns (merchant name ≤ 25, city ≤ 15, txid ≤ 25 of [A-Za-z0-9], key and location
 * ≤ 77). Pure: no I/O.
 */
import { getPixPayloadInfo } from '@brazilian-utils/brazilian-utils/get-pix-payload-info'
import { crc16 } from './brcode.js'

/** A valid code, as `svc pix decode --json` prints it (CLI.md 0.3). */
export interface DecodedPix {
  valid: true
  /** `dynamic`: a PSP location URL in 26-25 (the amount and txid live there); `static`: a Pix key in 26-01. */
  kind: 'static' | 'dynamic'
  merchantName: string
  merchantCity: string
  key?: string
  url?: string
  amountInCents?: number
  txid?: string
  /** The four hex digits of field 63. */
  crc: string
}

export const PIX_FAULTS = ['empty', 'too_long', 'bad_character', 'malformed', 'missing_field', 'crc_mismatch', 'bad_gui', 'field_too_long', 'bad_txid'] as const
export type PixFault = (typeof PIX_FAULTS)[number]

/** An invalid code: the first fault found, in the order of PIX_FAULTS' checks. */
export interface PixRefusal {
  valid: false
  reason: PixFault
  message: string
}

/** EMV® QRCPS: a payload is at most 512 characters. */
export const MAX_BRCODE_LENGTH = 512

/** The Bacen manual's limits for the fields a generator writes. */
const LIMITS = { merchantName: 25, merchantCity: 15, txid: 25, key: 77, url: 77 } as const

const GUI = 'br.gov.bcb.pix'

function refuse(reason: PixFault, message: string): PixRefusal {
  return { valid: false, reason, message }
}

/** Printable ASCII, the BR Code's character set; a character outside it, named with its position. */
function badCharacter(text: string): PixRefusal | undefined {
  let at = 0
  for (const ch of text) {
    at++
    const cp = ch.codePointAt(0)!
    if (cp < 0x20 || cp > 0x7e) {
      const shown = cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp < 0xa0) ? '' : ` "${ch}"`
      return refuse('bad_character', `character ${at} is U+${cp.toString(16).toUpperCase().padStart(4, '0')}${shown}: a BR Code holds only printable ASCII (a pasted space or quote of another kind, or an accent?)`)
    }
  }
  return undefined
}

/** Templates whose value is itself a list of fields: the merchant accounts (26 to 51) and the additional data (62). */
const isTemplate = (id: number) => (id >= 26 && id <= 51) || id === 62

/**
 * The TLV rules the library leaves to whoever reads it (it keeps the last of two fields with one
 * id, and takes an empty field): each id at most once at its level, and no field of length 00
 * (EMV QRCPS: lengths run 01 to 99), at the top and inside the templates. A length running past
 * the end is left to the library's verdict.
 */
function structureFault(text: string, where = ''): PixRefusal | undefined {
  const seen = new Set<string>()
  let i = 0
  while (i + 4 <= text.length) {
    const id = text.slice(i, i + 2)
    const len = text.slice(i + 2, i + 4)
    if (!/^\d\d$/.test(id) || !/^\d\d$/.test(len) || i + 4 + Number(len) > text.length) return undefined
    const name = where ? `${where}-${id}` : id
    if (seen.has(id)) return refuse('malformed', `field ${name} appears twice: each field may appear once`)
    seen.add(id)
    if (len === '00') return refuse('malformed', `field ${name} is empty (length 00): a field holds 1 to 99 characters`)
    const value = text.slice(i + 4, i + 4 + Number(len))
    if (!where && isTemplate(Number(id))) {
      const inner = structureFault(value, id)
      if (inner) return inner
    }
    i += 4 + Number(len)
  }
  return undefined
}

/** Decodes `input` (surrounding whitespace ignored): the fields of a valid code, or its first fault. */
export function decodePix(input: string): DecodedPix | PixRefusal {
  const text = input.trim()
  if (text === '') return refuse('empty', 'no BR Code was given')
  if (text.length > MAX_BRCODE_LENGTH) return refuse('too_long', `it has ${text.length} characters; a BR Code has at most ${MAX_BRCODE_LENGTH}`)
  const bad = badCharacter(text)
  if (bad) return bad
  if (!text.startsWith('000201')) return refuse('malformed', 'it does not start with 000201 (payload format indicator 01): not a BR Code')
  const trailer = text.slice(-8)
  if (text.length < 8 + 6 || !trailer.startsWith('6304')) return refuse('missing_field', 'it does not end with its CRC (field 63: 6304 and four hex digits): it was cut or changed')
  const given = trailer.slice(4)
  const expected = crc16(text.slice(0, -4))
  if (given !== expected) {
    const how = /^[0-9a-fA-F]{4}$/.test(given) && given.toUpperCase() === expected ? ' (the CRC must be written in upper case)' : ': a character was changed, added or lost'
    return refuse('crc_mismatch', `its CRC is ${given} but its content gives ${expected}${how}`)
  }
  if (!text.toLowerCase().includes(GUI)) return refuse('bad_gui', `it names no ${GUI} template (fields 26 to 51): not a Pix code`)

  const shape = structureFault(text)
  if (shape) return shape

  const info = getPixPayloadInfo(text)
  if (!info) {
    return refuse(
      'malformed',
      `its fields do not form a Pix BR Code: a length runs past its end, or a mandatory field is missing or wrong (00 = 01, 52 category, 53 = 986, 58 = BR, 59 name, 60 city, ${GUI} with exactly one of a key 01 or a location 25, an amount above zero)`,
    )
  }
  const long = (field: keyof typeof LIMITS, label: string, value: string | undefined): PixRefusal | undefined =>
    value !== undefined && value.length > LIMITS[field] ? refuse('field_too_long', `the ${label} has ${value.length} characters; at most ${LIMITS[field]}`) : undefined
  const tooLong =
    long('merchantName', 'merchant name (59)', info.merchantName) ??
    long('merchantCity', 'merchant city (60)', info.merchantCity) ??
    long('key', 'Pix key (26-01)', info.key) ??
    long('url', 'location URL (26-25)', info.url) ??
    long('txid', 'txid (62-05)', info.txid)
  if (tooLong) return tooLong
  if (info.txid !== undefined && !/^[A-Za-z0-9]+$/.test(info.txid)) return refuse('bad_txid', `the txid (62-05) "${info.txid}" may hold only letters and digits [A-Za-z0-9], or be *** (none)`)

  return {
    valid: true,
    kind: info.url !== undefined ? 'dynamic' : 'static',
    merchantName: info.merchantName,
    merchantCity: info.merchantCity,
    ...(info.key !== undefined ? { key: info.key } : {}),
    ...(info.url !== undefined ? { url: info.url } : {}),
    ...(info.amount !== undefined ? { amountInCents: Math.round(info.amount * 100) } : {}),
    ...(info.txid !== undefined ? { txid: info.txid } : {}),
    crc: given,
  }
}
