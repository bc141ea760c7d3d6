import { Flags } from '@oclif/core'
import { ApiCommand } from '../../lib/command-kit/api.js'
import { waitFlags, waitInputFromFlags } from '../../lib/command-kit/wait-flags.js'
import { asCreateFlagsError, createInputFromFlags } from '../../lib/command-kit/create-flags.js'
import { renderChargeView } from '../../lib/output/charge-view.js'
import { painter } from '../../lib/output/color.js'
import { promptText } from '../../lib/input/prompt.js'
import { renderQr } from '../../lib/output/qr.js'
import { afterCreate, type CreatedCharge, createCharge } from '../../lib/services/create-charge.js'
import type { Charge } from '../../lib/contract/schemas.js'

export default class ChargesCreate extends ApiCommand<typeof ChargesCreate, Charge> {
  static override summary = 'Create a Pix charge and show its QR code.'
  static override description =
    'Every flag is checked locally before anything is sent (exit 2 names the bad flag). The request always carries an ' +
    'Idempotency-Key (yours, or one generated for this run), so a retried request never creates a second charge; an ' +
    'existing charge returned by a replay is said so; when that charge is no longer payable (canceled, expired, failed, ' +
    'paid, settled or refunded) its QR is not shown, stderr says why and the exit code is 5 (unless it already is in the ' +
    '--wait state). On a terminal the QR, the copy-and-paste string, gross/fee/net and ' +
    'the expiry are shown; piped, only the id is printed. Without --payer-tax-number you are asked on a terminal (a number whose check digits do not match is asked again, up to 3 times; Enter stops); with a ' +
    'svc_test_ key and no terminal a generated test CPF is used, derived from --external-id (else the Idempotency-Key), so a rerun with the same flags sends the same body and gets the same charge.'

  static override examples = [
    '<%= config.bin %> charges create --amount 1500 --payer-tax-number 123.456.789-09 --external-id order-1042',
    '<%= config.bin %> charges create --amount 2990 --payer-tax-number 12345678909 --metadata sku=XPTO-1 --metadata cart=77 --json',
    'id=$(<%= config.bin %> charges create --amount 1500 -q) && <%= config.bin %> test advance "$id" --status settled',
    '<%= config.bin %> charges create --amount 1500 --external-id order-3001   # test key: safe to rerun, the generated CPF follows order-3001',
    '<%= config.bin %> charges create --amount 5000 --payer-tax-number 12345678909 --wait settled --wait-timeout 30m',
    '<%= config.bin %> charges create --amount 1500 --payer-tax-number 12345678909 --external-id order-1042   # exit 5, no QR: order-1042 is already canceled, expired or paid',
    '<%= config.bin %> charges create --amount 10000 --payer-tax-number 12345678909 --split wallet-shop=7000 --split wallet-partner=3000   # a split charge: 70 % / 30 % of the net',
  ]

  static override flags = {
    amount: Flags.string({ description: 'Gross amount in integer centavos: 1500 = R$ 15,00 (1000 to 500000).', required: true }),
    'payer-tax-number': Flags.string({ description: "Payer's CPF or CNPJ, with or without punctuation (required by the provider)." }),
    'payer-name': Flags.string({ description: "Payer's name (up to 120 characters; not verified)." }),
    'external-id': Flags.string({ description: 'Your order id (up to 128 characters); the same value never becomes two charges.' }),
    description: Flags.string({ description: 'Shown in responses and events, not on the payer statement (up to 200 characters).' }),
    metadata: Flags.string({ description: 'key=value to attach (repeatable; up to 20 entries, values up to 500 characters).', multiple: true, multipleNonGreedy: true }),
    'idempotency-key': Flags.string({ description: 'Idempotency-Key for a safe retry (up to 128 characters; default: generated per run).' }),
    split: Flags.string({
      description:
        'WALLET=BPS: make a split charge (POST /v1/split-charges) whose net amount is divided between 2 to 10 wallets; BPS is the integer share in basis points, 1 to 10000 (10000 = 100 %), the shares adding up to 10000 (repeatable). ' +
        'WALLET is the wallet address, 1 to 128 characters, each wallet once, with no =, whitespace or control characters.',
      multiple: true,
      multipleNonGreedy: true,
    }),
    quiet: Flags.boolean({ char: 'q', description: 'Print only the charge id.', exclusive: ['json'] }),
    ...waitFlags,
  }

  async run(): Promise<Charge> {
    const input = createInputFromFlags(this.flags)
    const wait = waitInputFromFlags(this.flags)
    const { environment } = await this.credentials()
    const client = await this.client()
    const outcome = await createCharge({ input, environment }, { client, canPrompt: this.io.canPrompt, ask: (q) => promptText(this.io, q), note: (text) => this.note(text) }).catch((e: unknown) => {
      throw asCreateFlagsError(e)
    })
    // The human view comes at once, not with the result: the payer needs the QR while --wait polls.
    if (!this.flags.json) await this.showCreated(outcome, client.serverNow())
    const { charge, failure } = await afterCreate(outcome, wait, { io: this.io, clock: this.factory.clock, getCharge: (id) => client.getCharge(id), note: (text) => this.note(text) })
    if (failure !== undefined) this.failAfterOutput(failure)
    return charge
  }

  /** -q and piped: the id; on a terminal: the QR, the copy-and-paste string and the amounts. */
  private async showCreated({ charge, created, notPayable }: CreatedCharge, now: Date): Promise<void> {
    const { io } = this
    if (this.flags.quiet || !io.isStdoutTTY) return io.out(`${charge.id}\n`)
    const paint = painter(io.color)
    const headline = created ? 'Charge created' : paint('yellow', `Existing charge returned (idempotent replay)${notPayable ? `: ${charge.status}, not payable` : ''}`)
    const qr = notPayable ? undefined : await renderQr(charge.pix.qrCode, { color: io.color })
    io.out(renderChargeView(charge, { paint, headline, now, qr }))
  }
}
