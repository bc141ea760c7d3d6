/**
 * The Pix QR drawn in the terminal with the `qrcode` library (loaded only when a QR is shown).
 * With colour on, the library's small terminal renderer sets black-on-white explicitly, so the
 * code scans on dark and light themes alike. With colour off (NO_COLOR) only block characters
 * are used, drawn for the usual light-text-on-dark terminal (light modules as blocks).
 */
export async function renderQr(text: string, opts: { color: boolean }): Promise<string> {
  const { default: QRCode } = await import('qrcode')
  if (opts.color) return QRCode.toString(text, { type: 'terminal', small: true, errorCorrectionLevel: 'M' })
  return QRCode.toString(text, { type: 'utf8', margin: 2, errorCorrectionLevel: 'M', color: { dark: '#ffffff', light: '#000000' } })
}
