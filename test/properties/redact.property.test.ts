/**
 * redact (config/mask.ts) against a server that echoes part of a secret (issue 36.7): any run of
 * 8 or more consecutive characters of a key's or webhook secret's secret part, re-cased
 * character by character and re-separated by single `-`, `:`, `_`, `.` or spaces, is masked;
 * the text around it is kept.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { redact } from '../../src/lib/config/mask.js'

const HEX = '0123456789abcdef'
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const secretOf = (alphabet: string, length: number) => fc.array(fc.constantFrom(...alphabet), { minLength: length, maxLength: length }).map((cs) => cs.join(''))
const secrets = fc.oneof(
  fc.tuple(fc.constantFrom('svc_test_', 'svc_live_'), secretOf(ALNUM, 32)).map(([p, s]) => p + s),
  secretOf(HEX, 32).map((s) => `whsec_${s}`),
)
const SEPARATORS = ['', '', '', '-', ':', '_', '.', ' ']

/** The secret part without separators, lower-cased: what must not survive in 8 consecutive characters. */
function leaksRun(text: string, secret: string): boolean {
  const part = secret.replace(/^(svc_(test|live)_|whsec_)/, '').toLowerCase()
  const flat = text.toLowerCase().replace(/[-:_. ]/g, '')
  for (let i = 0; i + 8 <= part.length; i++) if (flat.includes(part.slice(i, i + 8))) return true
  return false
}

describe('redact (properties)', () => {
  it('masks any window of 8 or more characters of a secret, re-cased and re-separated, and keeps the text around it', () => {
    fc.assert(
      fc.property(secrets, fc.nat(), fc.nat(), fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }), fc.array(fc.constantFrom(...SEPARATORS), { minLength: 40, maxLength: 40 }), (secret, a, b, upper, seps) => {
        const part = secret.replace(/^(svc_(test|live)_|whsec_)/, '')
        const length = 8 + (a % (part.length - 7))
        const start = b % (part.length - length + 1)
        const echo = [...part.slice(start, start + length)].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join('')
        const spaced = [...echo].map((c, i) => (i === 0 ? c : `${seps[i]}${c}`)).join('')
        const out = redact(`Erro «${spaced}» (requestId req=${spaced})`, [secret])
        expect(leaksRun(out, secret), out).toBe(false)
        expect(out.startsWith('Erro «')).toBe(true)
        expect(out).toContain('» (requestId req=')
        expect(out).toContain('…')
      }),
      { numRuns: 3000 },
    )
  })

  it('leaves a text that holds no 8 consecutive characters of the secret as it was', () => {
    fc.assert(
      fc.property(secrets, fc.string({ maxLength: 200 }), (secret, text) => {
        fc.pre(!leaksRun(text, secret) && !/svc_|whsec_|bearer/i.test(text))
        expect(redact(text, [secret])).toBe(text)
      }),
      { numRuns: 2000 },
    )
  })
})
