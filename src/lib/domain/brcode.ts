/**
 * Reading a Pix copy-and-paste string (EMV BR Code, as the sandbox bank does): its TLV fields and
 * its CRC16-CCITT-FALSE, checked before anything is believed. Pure.
 */
export interface BrCode {
  merchantName?: string
  merchantCity?: string
  /** The PSP location of a dynamic code (field 26, sub-field 25), where the amount lives. */
  location?: string
  /** A static code's Pix key (field 26, sub-field 01). */
  key?: string
  /** Field 54, in centavos, when the code carries an amount. */
  amountInCents?: number
  /** `12`: dynamic (one payment), `11`: static. */
  initiation?: string
}

export type BrCodeResult = { ok: true; code: BrCode } | { ok: false; reason: string }

/** CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF), as four upper-case hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc.toString(16).toUpperCase().padStart(4, '0')
}

function tlv(text: string): Map<string, string> | undefined {
  const out = new Map<string, string>()
  let i = 0
  while (i < text.length) {
    const id = text.slice(i, i + 2)
    const len = Number(text.slice(i + 2, i + 4))
    if (!/^\d\d$/.test(id) || !/^\d\d$/.test(text.slice(i + 2, i + 4)) || i + 4 + len > text.length) return undefined
    out.set(id, text.slice(i + 4, i + 4 + len))
    i += 4 + len
  }
  return out
}

export function parseBrCode(input: string): BrCodeResult {
  const text = input.trim()
  if (!text.startsWith('000201')) return { ok: false, reason: 'it is not a Pix copy-and-paste string (it must start with 000201)' }
  const crcAt = text.length - 8
  if (crcAt < 0 || text.slice(crcAt, crcAt + 4) !== '6304') return { ok: false, reason: 'it has no CRC at its end (6304 and four hex digits): it was cut or changed' }
  const expected = crc16(text.slice(0, crcAt + 4))
  if (text.slice(crcAt + 4).toUpperCase() !== expected)
    return { ok: false, reason: `its CRC does not match (the string says ${text.slice(crcAt + 4)}, its content gives ${expected}): a character was changed or lost` }
  const fields = tlv(text.slice(0, crcAt))
  if (!fields) return { ok: false, reason: 'its fields are malformed (a length runs past the end)' }
  const account = tlv(fields.get('26') ?? '') ?? new Map<string, string>()
  if ((account.get('00') ?? '').toLowerCase() !== 'br.gov.bcb.pix') return { ok: false, reason: 'field 26 does not name br.gov.bcb.pix: not a Pix code' }
  const amount = fields.get('54')
  return {
    ok: true,
    code: {
      merchantName: fields.get('59'),
      merchantCity: fields.get('60'),
      location: account.get('25'),
      key: account.get('01'),
      amountInCents: amount !== undefined && /^\d+(\.\d{1,2})?$/.test(amount) ? Math.round(Number(amount) * 100) : undefined,
      initiation: fields.get('01'),
    },
  }
}
