/**
 * The Pix QR drawn in the terminal with the `qrcode` library (loaded only when a QR is shown).
 * With colour on, the library's small terminal renderer sets black-on-white explicitly, so the
 * code scans on dark and light themes alike. With colour off (NO_COLOR) only block characters
 * are used, drawn for the usual light-text-on-dark terminal (light modules as blocks).
 */
import { stripAnsi } from './color.js'

export async function renderQr(text: string, opts: { color: boolean }): Promise<string> {
  const { default: QRCode } = await import('qrcode')
  const art = opts.color
    ? await QRCode.toString(text, { type: 'terminal', small: true, errorCorrectionLevel: 'M' })
    : await QRCode.toString(text, { type: 'utf8', margin: 2, errorCorrectionLevel: 'M', color: { dark: '#ffffff', light: '#000000' } })
  // The terminal renderer ends with a line of colour codes only: drop it (each line resets itself).
  const lines = art.split('\n')
  while (lines.length > 0 && stripAnsi(lines.at(-1)!).length === 0) lines.pop()
  return `${lines.join('\n')}\n`
}
