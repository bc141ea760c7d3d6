import type { Environment } from '../contract/schemas.js'

/**
 * The prefixes of every secret svc handles: API keys and webhook secrets. A string that starts
 * with one is masked wherever it appears, known or not (`svcrelay_` is a relay listener's token).
 * The hook for a new kind of secret: add its prefix here.
 */
export const SECRET_PREFIXES: readonly string[] = ['svc_live_', 'svc_test_', 'whsec_', 'svcrelay_']

const PREFIX_ALTERNATIVES = SECRET_PREFIXES.map((p) => p.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')).join('|')
const LEADING_PREFIX = new RegExp(`^(?:${PREFIX_ALTERNATIVES})`, 'i')
const TRAILING_PREFIX = new RegExp(`(?:${PREFIX_ALTERNATIVES})$`, 'i')
// Key alphabets are not specified: allow _ and -.
const SECRET_SHAPED = new RegExp(`\\b(?:${PREFIX_ALTERNATIVES})[A-Za-z0-9_-]{9,}`, 'gi')
const MASKED_FORM = `(?:${PREFIX_ALTERNATIVES})?…`
const BEARER = new RegExp(`\\b(Bearer\\s+)(?!${MASKED_FORM})([^\\s"',;]{8,})`, 'gi')

/** The shortest run of a secret's characters masked on its own (issue 36.7). */
const MIN_RUN = 8
/** Characters a server may put between the characters of an echoed secret (one at a time): `-`, `:`, `_`, `.`, space; by char code. */
const SEPARATOR = new Uint8Array(128)
for (const c of '-:_. ') SEPARATOR[c.charCodeAt(0)] = 1
const isSeparator = (code: number) => code < 128 && SEPARATOR[code] === 1
/** `i & RING` is `i % MIN_RUN` (a power of two): the ring buffer of the last MIN_RUN characters. */
const RING = MIN_RUN - 1
const HASH_BASE = 0x01000193
/** HASH_BASE ** (MIN_RUN - 1), mod 2^32: what the oldest character weighs in a window's hash. */
const HASH_TOP = (() => {
  let p = 1
  for (let i = 1; i < MIN_RUN; i++) p = Math.imul(p, HASH_BASE)
  return p
})()

/** Secrets are never printed in full: `svc_test_…a1b2`, `whsec_…9f3c`, `svcrelay_…x9Q_` (a relay listener token). */
export function maskSecret(secret: string | undefined): string {
  if (!secret) return ''
  const prefix = LEADING_PREFIX.exec(secret)?.[0] ?? ''
  const rest = secret.slice(prefix.length)
  if (rest.length <= 8) return `${prefix}…`
  return `${prefix}…${rest.slice(-4)}`
}

/**
 * The secrets this process holds (the API key in use, webhook secrets, a relay token): every
 * text `redact` masks is masked against them too, so the one error printer, which knows no key,
 * masks the key a command used. Filled where a secret enters the process (config/resolve.ts,
 * login); `rememberSecret` is the hook for any new one.
 */
const remembered = new Set<string>()

export function rememberSecret(...secrets: Array<string | undefined>): void {
  for (const s of secrets) if (s && s.length >= MIN_RUN) remembered.add(s)
}

const lower = (code: number) => (code >= 0x41 && code <= 0x5a ? code + 32 : code)

/** A secret as it is looked for: its secret part (no prefix), without separators, lower-cased, as char codes. */
interface Needle {
  secret: string
  codes: number[]
}

function needleOf(secret: string): Needle | undefined {
  const core = secret.slice(LEADING_PREFIX.exec(secret)?.[0].length ?? 0)
  const codes: number[] = []
  for (let i = 0; i < core.length; i++) {
    const c = core.charCodeAt(i)
    if (!isSeparator(c)) codes.push(lower(c))
  }
  return codes.length >= MIN_RUN ? { secret, codes } : undefined
}

/** Every MIN_RUN-character window of every needle, by its rolling hash; `filter` marks the low 16 bits of each hash, so most positions of a text are passed over without a Map lookup. */
interface WindowTable {
  windows: Map<number, Array<[Needle, number]>>
  filter: Uint8Array
}

function windowTable(needles: Needle[]): WindowTable {
  const windows = new Map<number, Array<[Needle, number]>>()
  const filter = new Uint8Array(0x10000)
  for (const n of needles) {
    for (let start = 0; start + MIN_RUN <= n.codes.length; start++) {
      let h = 0
      for (let i = start; i < start + MIN_RUN; i++) h = (Math.imul(h, HASH_BASE) + n.codes[i]!) | 0
      const list = windows.get(h)
      if (list) list.push([n, start])
      else windows.set(h, [[n, start]])
      filter[h & 0xffff] = 1
    }
  }
  return { windows, filter }
}

/** The tables of the last few sets of secrets: a process masks against the same one or two each time. */
const tables = new Map<string, { needles: Needle[]; table: WindowTable }>()

function tableFor(secrets: string[]): { needles: Needle[]; table: WindowTable } {
  const key = secrets.join('\n')
  let entry = tables.get(key)
  if (!entry) {
    const needles = secrets.map(needleOf).filter((n): n is Needle => n !== undefined)
    entry = { needles, table: windowTable(needles) }
    if (tables.size >= 8) tables.clear()
    tables.set(key, entry)
  }
  return entry
}

/**
 * The spans of `text` (start inclusive, end exclusive) that hold a run of MIN_RUN or more
 * consecutive characters of one of the needles, in any case, with at most one separator between
 * two characters. One pass with a rolling hash over the text's non-separator characters: no
 * allocation per character, so masking a large answer costs about as much as reading it.
 */
function echoSpans(text: string, { windows, filter }: WindowTable): Array<{ start: number; end: number; needle: Needle }> {
  const spans: Array<{ start: number; end: number; needle: Needle }> = []
  const ringCode = new Int32Array(MIN_RUN)
  const ringPos = new Int32Array(MIN_RUN)
  let count = 0 // characters in the current chain (no double separator since)
  let h = 0
  let seps = 0 // separators since the last character
  for (let i = 0; i < text.length; i++) {
    const raw = text.charCodeAt(i)
    if (isSeparator(raw)) {
      seps++
      if (seps === 2) {
        count = 0
        h = 0
      }
      continue
    }
    seps = 0
    const c = lower(raw)
    const slot = count & RING
    if (count >= MIN_RUN) h = (h - Math.imul(ringCode[slot]!, HASH_TOP)) | 0
    h = (Math.imul(h, HASH_BASE) + c) | 0
    ringCode[slot] = c
    ringPos[slot] = i
    count++
    if (count < MIN_RUN || filter[h & 0xffff] === 0) continue
    const candidates = windows.get(h)
    if (!candidates) continue
    const first = count & RING // the ring slot of the window's oldest character
    for (const [needle, offset] of candidates) {
      let same = true
      for (let k = 0; k < MIN_RUN && same; k++) same = ringCode[(first + k) & RING] === needle.codes[offset + k]
      if (!same) continue
      const start = ringPos[first]!
      const last = spans.at(-1)
      if (last && start < last.end) last.end = i + 1
      else spans.push({ start, end: i + 1, needle })
      break
    }
  }
  return spans
}

/**
 * Masks every echo of the given secrets, and of the secrets this process remembers
 * (`rememberSecret`), in a text: any run of 8 or more consecutive characters of a secret's secret
 * part (what follows `svc_live_`, `svc_test_`, `whsec_`), in any case, with single `-`, `:`,
 * `_`, `.` or spaces between them, becomes the secret's masked form (`svc_test_…a1b2`), the
 * prefix before it included. A server that echoes the key cut, upper-cased, grouped or spaced
 * leaks nothing of it (issue 36.7). Then any key- or secret-shaped string that slipped through,
 * and whatever follows `Bearer ` (an Authorization header echoed back).
 * The one masking function for text that leaves the process on the error and api paths: error
 * messages, details, request ids, debug lines, `svc api` answers and MCP results.
 */
export function redact(text: string, secrets: Array<string | undefined>): string {
  let out = text
  if (out.length >= MIN_RUN) {
    const all: string[] = []
    for (const s of [...secrets, ...remembered]) if (s && s.length >= MIN_RUN && !all.includes(s)) all.push(s)
    const { needles, table } = tableFor(all)
    for (const s of all) {
      // Too short to look for in part: masked only whole.
      if (!needles.some((n) => n.secret === s)) out = out.replace(new RegExp(s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'), 'gi'), () => maskSecret(s))
    }
    const spans = needles.length > 0 ? echoSpans(out, table) : []
    if (spans.length > 0) {
      let masked = ''
      let from = 0
      for (const { start, end, needle } of spans) {
        const prefix = TRAILING_PREFIX.exec(out.slice(Math.max(from, start - 16), start))?.[0].length ?? 0
        masked += out.slice(from, start - prefix) + maskSecret(needle.secret)
        from = end
      }
      out = masked + out.slice(from)
    }
  }
  return out.replace(SECRET_SHAPED, (m) => maskSecret(m)).replace(BEARER, (_, lead: string, token: string) => `${lead}${maskSecret(token)}`)
}

/** The key's prefix picks the environment (CLI.md); undefined for a key with neither prefix. */
export function environmentOfKey(key: string): Environment | undefined {
  if (key.startsWith('svc_live_')) return 'live'
  if (key.startsWith('svc_test_')) return 'test'
  return undefined
}
