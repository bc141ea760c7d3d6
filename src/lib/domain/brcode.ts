/**
 * The CRC of a Pix copy-and-paste string (EMV BR Code). Reading a code is pix-decode.ts's one
 * decoder, which `svc pix decode` and the sandbox bank both use. Pure.
 */
/** CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF), as four upper-case hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc.toString(16).toUpperCase().padStart(4, '0')
}
