import { Args, Flags } from '@oclif/core'
import { BaseCommand } from '../../lib/command-kit/base.js'
import { formatBRL } from '../../lib/domain/money.js'
import { UsageError, EXIT } from '../../lib/errors.js'
import { painter } from '../../lib/output/color.js'
import { safeText } from '../../lib/output/safe-text.js'
import { readAllStdin } from '../../lib/input/stdin.js'
import { type DecodedPix, decodePix, MAX_BRCODE_LENGTH, type PixRefusal } from '../../lib/domain/pix-decode.js'
import type { IO } from '../../lib/output/io.js'

type PixVerdict = ReturnType<typeof decodePix>

/** The most of stdin read: a BR Code is at most 512 characters, so anything this big is not one. */
const MAX_STDIN_BYTES = 64 * 1024

export default class PixDecode extends BaseCommand<typeof PixDecode, PixVerdict> {
  static override summary = 'Decode and check a Pix copy-and-paste string (EMV BR Code).'
  static override description =
    "Checks the code as a payer's bank would: printable ASCII only, at most 512 characters, the CRC16 (field 63) over its UTF-8 bytes, " +
    'the br.gov.bcb.pix template with a Pix key (static code) or a location URL (dynamic code), the mandatory fields, and the ' +
    'lengths the Bacen manual sets (merchant name ≤ 25, city ≤ 15, txid ≤ 25 of [A-Za-z0-9] or ***, key and URL ≤ 77). ' +
    'Prints the merchant name, city, Pix key or location URL, amount and txid: labelled on a terminal, `field<TAB>value` lines ' +
    'when piped, one JSON object with --json: {"valid": true, "kind": "static"|"dynamic", "merchantName", "merchantCity", "key"?, ' +
    '"url"?, "amountInCents"?, "txid"?, "crc"}. A dynamic code carries no amount or txid: the payer\'s bank reads them at its URL. ' +
    'An invalid code exits 2 naming the first fault; with --json that is {"valid": false, "reason", "message"} on stdout ' +
    '(reason: empty, too_long, bad_character, malformed, missing_field, crc_mismatch, bad_gui, field_too_long or bad_txid). ' +
    'With - or no argument and a pipe, the code is read from stdin (surrounding whitespace and the trailing newline ignored); ' +
    'on a terminal, - asks on stderr to paste the code, then press Enter and Ctrl-D. One code at a time: text of several lines is refused (malformed), saying so.'

  static override examples = [
    "<%= config.bin %> pix decode '00020126370014br.gov.bcb.pix0115pix@example.com520400005303986540515.005802BR5904Loja6009Sao Paulo62100506ABC1236304851E'",
    '<%= config.bin %> charges get 65a1f0c2b3d4e5f60718293a --json | jq -r .pix.qrCode | <%= config.bin %> pix decode -',
    '<%= config.bin %> pix decode "$CODE" --json | jq -r \'.reason // .kind\'   # exit 2 and the reason when invalid',
    '<%= config.bin %> pix decode "$CODE" | cut -f2   # piped: one field<TAB>value line per field',
  ]

  // Its --json differs from the other commands': an invalid code's verdict goes to stdout too.
  static override baseFlags = {
    ...BaseCommand.baseFlags,
    json: Flags.boolean({
      description: 'Print the verdict as one JSON object on stdout, an invalid code\'s {"valid": false, "reason", "message"} included (exit 2); only other errors go to stderr.',
      helpGroup: 'OUTPUT',
    }),
  }

  static override args = {
    brcode: Args.string({ description: 'The copy-and-paste string, or - to read it from stdin (quote it: it may contain spaces).', required: false, ignoreStdin: true }),
  }

  async run(): Promise<PixVerdict> {
    const code = await this.readCode()
    const result = typeof code === 'string' ? (oneCodeAtATime(code) ?? decodePix(code)) : code
    if (!result.valid) {
      if (!this.flags.json) throw new UsageError(`Invalid Pix code: ${result.message}.`, { code: result.reason, field: 'brcode' })
      // The 0.3 contract: the verdict object on stdout (as `webhooks verify` does), exit 2.
      this.failAfterOutput(EXIT.usage)
    }
    return result
  }

  protected override render(result: PixVerdict, io: IO): void {
    if (!result.valid) return
    io.out(io.isStdoutTTY ? this.view(result) : lines(result))
  }

  /** The code, or the verdict on stdin too big to be one. */
  private async readCode(): Promise<string | PixRefusal> {
    const given = this.args.brcode
    if (given !== undefined && given !== '-') return given
    if (given === undefined && this.io.isStdinTTY) {
      throw new UsageError('No BR Code given.', { field: 'brcode', hint: 'Pass it as an argument (quoted), or - to read it from stdin: `svc pix decode -`.' })
    }
    // On a terminal, `-` waits for what is typed or pasted: say how to end it, not wait silently.
    if (this.io.isStdinTTY) this.note('Paste the code, then press Enter and Ctrl-D.')
    // Reading stops past the cap (its only error); the verdict says so like any other refusal.
    const bytes = await readAllStdin(this.io.stdin, { bytes: MAX_STDIN_BYTES, what: 'stdin', field: 'brcode' }).catch(() => undefined)
    if (bytes === undefined) {
      return { valid: false, reason: 'too_long', message: `stdin holds more than ${MAX_STDIN_BYTES / 1024} KiB; a BR Code has at most ${MAX_BRCODE_LENGTH} characters` }
    }
    return bytes.toString('utf8')
  }

  private view(d: DecodedPix): string {
    const paint = painter(this.io.color)
    const text = (v: string | undefined) => (v === undefined ? undefined : safeText(v))
    const fields: Array<[string, string | undefined]> = [
      ['Pix code', `${paint('green', 'valid')}, ${d.kind === 'dynamic' ? 'dynamic (one payment; amount and txid at the URL)' : 'static'}`],
      ['Merchant', text(d.merchantName)],
      ['City', text(d.merchantCity)],
      ['Pix key', text(d.key)],
      ['Location', text(d.url)],
      ['Amount', d.amountInCents === undefined ? (d.kind === 'static' ? 'none (the payer types it)' : undefined) : formatBRL(d.amountInCents)],
      ['Txid', text(d.txid) ?? (d.kind === 'static' ? 'none (***)' : undefined)],
      ['CRC', d.crc],
    ]
    const shown = fields.filter((f): f is [string, string] => f[1] !== undefined)
    const width = Math.max(...shown.map(([k]) => k.length))
    return `${shown.map(([k, v]) => `  ${paint('dim', k.padEnd(width))}  ${v}`).join('\n')}\n`
  }
}

/**
 * Several lines (two codes pasted or piped at once): not a bad character at the line break but
 * what it is, with the way to decode each. Blank lines and the surrounding whitespace are ignored.
 */
function oneCodeAtATime(text: string): PixRefusal | undefined {
  const lines = text.split(/\r\n|\r|\n/).filter((l) => l.trim() !== '')
  if (lines.length < 2) return undefined
  return {
    valid: false,
    reason: 'malformed',
    message: `it holds ${lines.length} lines, and a BR Code is one line: decode one code at a time (e.g. \`while read -r code; do svc pix decode "$code"; done < codes.txt\`)`,
  }
}

/** Piped: `field<TAB>value`, the JSON names, in a fixed order; absent fields are left out. */
function lines(d: DecodedPix): string {
  const order: Array<keyof DecodedPix> = ['kind', 'merchantName', 'merchantCity', 'key', 'url', 'amountInCents', 'txid', 'crc']
  return order
    .filter((k) => d[k] !== undefined)
    .map((k) => `${k}\t${safeText(String(d[k]))}\n`)
    .join('')
}
