/**
 * `svc pix decode [BRCODE|-] [--json]` (CLI.md 0.3): the fields of a valid code on a terminal,
 * piped and as JSON; an invalid one exits 2 naming its first fault ({valid:false} on stdout with
 * --json); stdin with `-`.
 */
import { generatePixPayload } from '@brazilian-utils/brazilian-utils/generate-pix-payload'
import { describe, expect, it } from 'vitest'
import PixDecode from '../../../src/commands/pix/decode.js'
import { crc16 } from '../../../src/lib/domain/brcode.js'
import { stripAnsi } from '../../../src/lib/output/color.js'
import { decodePix } from '../../../src/lib/domain/pix-decode.js'
import { brCodeFor } from '../../../src/lib/sandbox/engine/brcode.js'
import { runCommand } from '../../helpers/run-command.js'
import { svc } from '../../helpers/cli.js'

/** The library's own example of a static code with an amount and a txid. */
const STATIC = generatePixPayload({ key: 'pix@example.com', merchantName: 'Loja', merchantCity: 'Sao Paulo', amount: 15, txid: 'ABC123' })!
const DYNAMIC = brCodeFor('0123456789abcdef01234567')

/** `body` (everything before the CRC value) with a correct CRC. */
const withCrc = (body: string) => body + crc16(body)

describe('svc pix decode', () => {
  it('--json: a static code with its key, amount in centavos, txid and CRC', async () => {
    const r = await runCommand(PixDecode, [STATIC, '--json'])
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({ valid: true, kind: 'static', merchantName: 'Loja', merchantCity: 'Sao Paulo', key: 'pix@example.com', amountInCents: 1500, txid: 'ABC123', crc: STATIC.slice(-4) })
  })

  it('piped: field<TAB>value lines; a dynamic code has its URL and no amount', async () => {
    const r = await runCommand(PixDecode, [DYNAMIC])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe(`kind\tdynamic\nmerchantName\tLoja Sandbox SVC\nmerchantCity\tSao Paulo\nurl\tpix.sandbox.svc.local/qr/v2/0123456789abcdef01234567\ncrc\t${DYNAMIC.slice(-4)}\n`)
  })

  it('on a terminal: a labelled view', async () => {
    const r = await runCommand(PixDecode, [STATIC], { tty: true })
    expect(r.exitCode).toBe(0)
    const out = stripAnsi(r.stdout)
    expect(out).toMatch(/Pix code\s+valid, static/)
    expect(out).toMatch(/Merchant\s+Loja/)
    expect(out).toMatch(/Pix key\s+pix@example.com/)
    expect(out).toMatch(/Amount\s+R\$ 15,00/)
    expect(out).toMatch(/Txid\s+ABC123/)
  })

  it('- reads stdin, ignoring the trailing newline', async () => {
    const r = await runCommand(PixDecode, ['-', '--json'], { stdin: `${DYNAMIC}\r\n` })
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: true, kind: 'dynamic' })
    const none = await runCommand(PixDecode, ['--json'], { stdin: `${STATIC}\n` })
    expect(JSON.parse(none.stdout)).toMatchObject({ valid: true, kind: 'static' })
  })

  it('- on a terminal says how to end the paste on stderr, instead of waiting silently (issue 29 item 22)', async () => {
    const r = await runCommand(PixDecode, ['-'], { tty: true, stdin: `${STATIC}\n`, stdinTty: true, env: { NO_COLOR: '1' } })
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('Paste the code, then press Enter and Ctrl-D.')
    expect(r.stdout).toMatch(/Pix code\s+valid, static/)
    const piped = await runCommand(PixDecode, ['-'], { stdin: `${STATIC}\n` })
    expect(piped.stderr).toBe('')
  })

  it('two codes on two lines: "one code at a time", not a bad character at the line break (issue 29 item 22)', async () => {
    const r = await runCommand(PixDecode, ['-', '--json'], { stdin: `${STATIC}\n${DYNAMIC}\n` })
    expect(r.exitCode).toBe(2)
    const verdict = JSON.parse(r.stdout) as { reason: string; message: string }
    expect(verdict.reason).toBe('malformed')
    expect(verdict.message).toContain('it holds 2 lines, and a BR Code is one line: decode one code at a time')
    const plain = await runCommand(PixDecode, [`${STATIC}\r\n\r\n${STATIC}`])
    expect(plain.exitCode).toBe(2)
    expect(plain.stderr).toContain('one code at a time')
    expect(plain.stderr).not.toContain('U+000')
  })

  it('stdin over 64 KiB is refused without reading on', async () => {
    const r = await runCommand(PixDecode, ['-'], { stdin: 'x'.repeat(70 * 1024) })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('more than 64 KiB')
  })

  it('stdin over 64 KiB with --json: the too_long verdict on stdout, exit 2 (trial report item 5)', async () => {
    const r = await runCommand(PixDecode, ['-', '--json'], { stdin: 'x'.repeat(70 * 1024) })
    expect(r.exitCode).toBe(2)
    expect(JSON.parse(r.stdout)).toEqual({ valid: false, reason: 'too_long', message: 'stdin holds more than 64 KiB; a BR Code has at most 512 characters' })
    expect(r.stderr).toBe('')
  })

  it('--help says the verdict goes to stdout with --json, not "errors too, on stderr"', async () => {
    const r = await svc(['pix', 'decode', '--help'])
    const help = r.stdout.replace(/\s+/g, ' ')
    expect(help).not.toContain('errors too, on stderr')
    expect(help).toContain('Print the verdict as one JSON object on stdout')
  })

  it('no argument on a terminal: exit 2 saying how to give one', async () => {
    const r = await runCommand(PixDecode, [], { tty: true })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('No BR Code given')
  })

  const changed = STATIC.replace('Loja', 'Lojb')
  const longName = generatePixPayload({ key: 'pix@example.com', merchantName: 'Loja', merchantCity: 'Sao Paulo' })!.slice(0, -4)
  const invalid: Array<[string, string, string, RegExp]> = [
    ['a changed character', changed, 'crc_mismatch', /its CRC is \w{4} but its content gives \w{4}/],
    ['a lower-case CRC', STATIC.slice(0, -4) + STATIC.slice(-4).toLowerCase(), 'crc_mismatch', /upper case/],
    ['a cut code', STATIC.slice(0, -6), 'missing_field', /CRC \(field 63/],
    ['an accent', STATIC.replace('Sao', 'São'), 'bad_character', /character \d+ is U\+00E3/],
    ['no 000201', `x${STATIC}`, 'malformed', /000201/],
    ['another GUI', withCrc(STATIC.slice(0, -4).replace('br.gov.bcb.pix', 'br.gov.bcb.pux')), 'bad_gui', /br\.gov\.bcb\.pix/],
    ['a length past the end', withCrc(STATIC.slice(0, -4).replace('5904Loja', '5999Loja')), 'malformed', /do not form a Pix BR Code/],
    ['a merchant name of 26', withCrc(longName.replace('5904Loja', `5926${'L'.repeat(26)}`)), 'field_too_long', /merchant name \(59\) has 26 characters; at most 25/],
    ['a city of 16', withCrc(longName.replace('6009Sao Paulo', `6016${'C'.repeat(16)}`)), 'field_too_long', /city \(60\) has 16/],
    ['a txid with a hyphen', withCrc(STATIC.slice(0, -4).replace('62100506ABC123', '62110507ABC-123')), 'bad_txid', /letters and digits/],
    // Issue 29 item 10: what the library's parser lets through (it keeps the last of two ids, takes an empty field).
    ['a duplicate top-level field', withCrc(STATIC.slice(0, -4).replace('5802BR', '5802BR5802BR')), 'malformed', /field 58 appears twice/],
    ['a duplicate field inside 26', withCrc(DYNAMIC.slice(0, -4).replace('26740014br.gov.bcb.pix', '26920014br.gov.bcb.pix0014br.gov.bcb.pix')), 'malformed', /field 26-00 appears twice/],
    ['an empty field 62', withCrc(DYNAMIC.slice(0, -4).replace('62070503***', '6200')), 'malformed', /field 62 is empty \(length 00\)/],
    ['an empty txid inside 62', withCrc(DYNAMIC.slice(0, -4).replace('62070503***', '62040500')), 'malformed', /field 62-05 is empty/],
    ['fields 52, 53 and 58 removed', withCrc(DYNAMIC.slice(0, -4).replace('52040000', '').replace('5303986', '').replace('5802BR', '')), 'malformed', /do not form a Pix BR Code/],
    ['a txid of 26', withCrc(STATIC.slice(0, -4).replace('62100506ABC123', `62300526${'T'.repeat(26)}`)), 'field_too_long', /txid \(62-05\) has 26/],
  ]
  for (const [what, code, reason, message] of invalid) {
    it(`${what}: exit 2, reason ${reason}`, async () => {
      expect(decodePix(code)).toMatchObject({ valid: false, reason })
      const json = await runCommand(PixDecode, [code, '--json'])
      expect(json.exitCode).toBe(2)
      const verdict = JSON.parse(json.stdout) as { valid: boolean; reason: string; message: string }
      expect(verdict).toMatchObject({ valid: false, reason })
      expect(verdict.message).toMatch(message)
      expect(json.stderr).toBe('')
      const human = await runCommand(PixDecode, [code])
      expect(human.exitCode).toBe(2)
      expect(human.stdout).toBe('')
      expect(human.stderr).toMatch(message)
    })
  }

  it('has help with examples, and the pix topic', async () => {
    expect(PixDecode.examples.length).toBeGreaterThanOrEqual(2)
    expect(PixDecode.description).toContain('{"valid": false, "reason", "message"} on stdout')
    const pkg = (await import('../../../package.json', { with: { type: 'json' } })).default as { oclif: { topics: Record<string, unknown> } }
    expect(pkg.oclif.topics.pix).toBeDefined()
  })
})
