/**
 * packaging/patches.js, unicode-fast-path (issue 39.1): the bundle's string-width and the
 * segmenters of Ink's text modules make ICU's grapheme segmenter and the RGI_Emoji regex only
 * when a text needs them. These hold the bundled code to the published code: the same widths and
 * the same grapheme segments for any text (the table's characters, ASCII, escapes, and everything
 * the table leaves out: emoji, marks, joiners, Hangul, CJK, CR LF), and no segmenter made for the
 * text of the first frame.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { spawnSync } from 'node:child_process'
import { build } from 'esbuild'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain JavaScript build script, no types
import { common as bundleOptions } from '../../packaging/build-bundle.js'
// @ts-expect-error plain JavaScript build script, no types
import { PATCHES, patchDir, patchesPlugin, unicodeModule } from '../../packaging/patches.js'
import { ROOT } from '../helpers/run-command.js'

type Width = (text: string, options?: { ambiguousIsNarrow?: boolean; countAnsiEscapeCodes?: boolean }) => number
interface Segments extends Iterable<{ segment: string; index: number; input: string }> {
  containing(index?: number): { segment: string; index: number; input: string } | undefined
}
interface Unicode {
  NARROW_TEXT: RegExp
  FastSegmenter: new (locales?: string, options?: { granularity?: string }) => { segment(text: string): Segments }
}

const STRING_WIDTH = join(patchDir((PATCHES as { id: string }[]).find((p) => p.id === 'unicode-fast-path/string-width')), 'index.js')
let unicode: Unicode
let published: Width
let bundled: Width
let tableChars: string[]

/** Everything the table leaves out, to mix in: emoji (with VS16, ZWJ, skin tone, flags, keycaps), marks, Hangul jamo, CJK, fullwidth forms, CR LF, tab, ESC, soft hyphen. */
const TRICKY = [
  '😀',
  '❤️',
  '👨‍👩‍👧',
  '👍🏽',
  '🇧🇷',
  '1️⃣',
  '#⃣',
  '\u0301',
  '\u0308',
  '\u200d',
  '\ufe0f',
  '\u1100\u1161\u11a8',
  '\u1100',
  '한',
  '中',
  '文',
  'ｱ',
  'ﾞ',
  '\r\n',
  '\r',
  '\t',
  '\u001b[31m',
  '\u00ad',
  'क्ष',
  '\u0e01\u0e33',
  '\u2764',
  '\u2713',
  '\u25b6',
]

beforeAll(async () => {
  unicode = (await import(`data:text/javascript,${encodeURIComponent(await unicodeModule())}`)) as Unicode
  published = (await import(pathToFileURL(STRING_WIDTH).href)).default as Width
  const out = await build({
    ...(bundleOptions as object),
    stdin: { contents: `export { default } from ${JSON.stringify(STRING_WIDTH)}`, resolveDir: ROOT },
    format: 'esm',
    write: false,
    logLevel: 'silent',
    plugins: [patchesPlugin({ dist: join(ROOT, 'dist') })],
  })
  const file = join(mkdtempSync(join(tmpdir(), 'svc-unicode-')), 'string-width.mjs')
  writeFileSync(file, out.outputFiles[0]!.text)
  bundled = (await import(pathToFileURL(file).href)).default as Width
  tableChars = []
  for (let cp = 0xa0; cp <= 0xffff; cp++) if (unicode.NARROW_TEXT.test(String.fromCharCode(cp))) tableChars.push(String.fromCharCode(cp))
})

const segmentsOf = (segments: Iterable<{ segment: string; index: number; input: string }>) => [...segments].map(({ segment, index, input }) => ({ segment, index, input }))

describe('unicode-fast-path', () => {
  it("the table holds the first frame's characters and none that a terminal draws wide or joins to another", () => {
    expect(tableChars.length).toBeGreaterThan(1000)
    for (const ch of '─│┌┐└┘├┤•·…●○◌›↯↑↓→✓éãçÉ€£°±×÷—–“”‘’') expect(tableChars, ch).toContain(ch)
    for (const ch of ['😀', '❤', '✔', '⌚', '⭐', '中', '한', '\u0301', '\u200d', '\ufe0f', '\u00ad', '\u2764', '\u25b6']) expect(tableChars, ch).not.toContain(ch)
  })

  it('string-width in the bundle measures every character of the table, alone and in text, as the published one does', () => {
    for (const ch of tableChars) expect(bundled(ch), `U+${ch.codePointAt(0)!.toString(16)}`).toBe(published(ch))
    expect(bundled(tableChars.join(''))).toBe(published(tableChars.join('')))
    expect(bundled(tableChars.join(''), { ambiguousIsNarrow: false })).toBe(published(tableChars.join(''), { ambiguousIsNarrow: false }))
  })

  it('string-width in the bundle and the published one agree on any text of table characters, ASCII and what the table leaves out, with either option', () => {
    const piece = fc.oneof(fc.constantFrom(...tableChars.slice(0, 400), ...tableChars.slice(-400)), fc.constantFrom(...TRICKY), fc.string({ maxLength: 3 }), fc.string({ unit: 'grapheme', maxLength: 3 }))
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.boolean(), fc.boolean(), (pieces, narrow, ansi) => {
        const text = pieces.join('')
        const options = { ambiguousIsNarrow: narrow, countAnsiEscapeCodes: ansi }
        expect(bundled(text, options)).toBe(published(text, options))
      }),
      { numRuns: 3000 },
    )
  })

  it('its segmenter gives the grapheme segments of Intl.Segmenter for any text, iterated and by position', () => {
    const piece = fc.oneof(fc.constantFrom(...tableChars.slice(0, 300), ...tableChars.slice(-300), '\t', '\n', '\u001b', 'a', ' '), fc.constantFrom(...TRICKY), fc.string({ unit: 'grapheme', maxLength: 2 }))
    const fast = new unicode.FastSegmenter(undefined, { granularity: 'grapheme' })
    const intl = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
        const text = pieces.join('')
        expect(segmentsOf(fast.segment(text))).toEqual(segmentsOf(intl.segment(text)))
        for (let i = -1; i <= text.length; i++) expect(fast.segment(text).containing(i)).toEqual(intl.segment(text).containing(i))
      }),
      { numRuns: 2000 },
    )
    expect(segmentsOf(new unicode.FastSegmenter().segment('─ a…'))).toEqual(segmentsOf(new Intl.Segmenter().segment('─ a…')))
    expect(segmentsOf(new unicode.FastSegmenter(undefined, { granularity: 'word' }).segment('a b'))).toEqual(segmentsOf(new Intl.Segmenter(undefined, { granularity: 'word' }).segment('a b')))
  })

  it("the bundled string-width makes no Intl.Segmenter for a first frame's text, and one when a text needs it", () => {
    // A fresh process: count the segmenters Node is asked for.
    const file = join(mkdtempSync(join(tmpdir(), 'svc-unicode-count-')), 'count.mjs')
    const script = `let made = 0
const Real = Intl.Segmenter
Intl.Segmenter = class extends Real { constructor(...a) { super(...a); made++ } }
const { default: stringWidth } = await import(${JSON.stringify(pathToFileURL(join(tmpdir(), 'svc-unicode-sw.mjs')).href)})
const frame = [stringWidth('\\u001b[2m─ watching · 1 charge · poll #1 at 05:38:11\\u001b[22m'), stringWidth('●created ○paid ↑/↓ select · q quit …')]
const before = made
const emoji = stringWidth('paid 👍🏽')
process.stdout.write(JSON.stringify({ frame, before, emoji, after: made }))
`
    writeFileSync(file, script)
    return build({
      ...(bundleOptions as object),
      stdin: { contents: `export { default } from ${JSON.stringify(STRING_WIDTH)}`, resolveDir: ROOT },
      format: 'esm',
      outfile: join(tmpdir(), 'svc-unicode-sw.mjs'),
      logLevel: 'silent',
      plugins: [patchesPlugin({ dist: join(ROOT, 'dist') })],
    }).then(() => {
      const run = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 20_000 })
      expect(run.stderr).toBe('')
      expect(JSON.parse(run.stdout)).toEqual({ frame: [43, 36], before: 0, emoji: 7, after: 1 })
    })
  })
})
