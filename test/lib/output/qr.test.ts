import jsqrModule from 'jsqr'
import { describe, expect, it } from 'vitest'
import { stripAnsi } from '../../../src/lib/output/color.js'
import { renderQr } from '../../../src/lib/output/qr.js'

// jsqr is CommonJS with a default export: typed as the module under NodeNext, the function at run time.
const jsQR = ((jsqrModule as unknown as { default?: typeof jsqrModule }).default ?? jsqrModule) as unknown as typeof jsqrModule.default

const PIX = '00020101021226830014br.gov.bcb.pix2561pix.example/qr/v2/65a1f0c2b3d4e5f60718293a520400005303986540515.005802BR5909LOJA TESTE6009SAO PAULO62070503***6304ABCD'

/** Reads half-block terminal art back into pixels (each character is two modules, top and bottom) and scans it. */
function scan(art: string, isDark: (ch: string, half: 'top' | 'bottom') => boolean): string | undefined {
  const lines = art.split('\n').filter((l) => l.length > 0)
  const width = Math.max(...lines.map((l) => [...l].length))
  const rows: boolean[][] = []
  for (const line of lines) {
    const chars = [...line.padEnd(width, ' ')]
    rows.push(chars.map((c) => isDark(c, 'top')))
    rows.push(chars.map((c) => isDark(c, 'bottom')))
  }
  const scale = 4
  const quiet = 8
  const w = (width + 2 * quiet) * scale
  const h = (rows.length + 2 * quiet) * scale
  const data = new Uint8ClampedArray(w * h * 4).fill(255)
  rows.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (!dark) return
      for (let dy = 0; dy < scale; dy++)
        for (let dx = 0; dx < scale; dx++) {
          const i = (((y + quiet) * scale + dy) * w + (x + quiet) * scale + dx) * 4
          data[i] = data[i + 1] = data[i + 2] = 0
        }
    })
  })
  return jsQR(data, w, h)?.data
}

describe('renderQr', () => {
  it('without colour: block characters only, and the drawing scans back to the copy-and-paste string', async () => {
    const art = await renderQr(PIX, { color: false })
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes
    expect(art).not.toMatch(/\u001B\[/)
    // Drawn for a light-on-dark terminal: blocks are the light modules.
    const light = (ch: string, half: 'top' | 'bottom') => ch === '█' || (half === 'top' ? ch === '▀' : ch === '▄')
    expect(scan(art, (ch, half) => !light(ch, half))).toBe(PIX)
  })

  it('with colour: explicit black-on-white that scans back to the same string', async () => {
    const art = await renderQr(PIX, { color: true })
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes
    expect(art).toMatch(/\u001B\[47m/)
    // Drop the last line: it is the white border drawn in the foreground colour.
    const lines = stripAnsi(art)
      .split('\n')
      .filter((l) => l.length > 0)
    const body = lines.slice(0, -1).join('\n')
    const dark = (ch: string, half: 'top' | 'bottom') => ch === '█' || (half === 'top' ? ch === '▀' : ch === '▄')
    expect(scan(body, dark)).toBe(PIX)
  })
})
