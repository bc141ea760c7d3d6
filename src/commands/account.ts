import type { Account as AccountData } from '../lib/contract/schemas.js'
import { ApiCommand } from '../lib/command-kit/api.js'
import { formatBps, formatBRL } from '../lib/domain/money.js'
import { environmentBadge, type Paint, painter } from '../lib/output/color.js'
import type { IO } from '../lib/output/io.js'
import { safeText } from '../lib/output/safe-text.js'
import { isLoopbackUrl } from '../lib/net/loopback.js'
import { reactivationHint } from '../lib/services/test-webhook.js'

export default class Account extends ApiCommand<typeof Account, AccountData> {
  static override summary = 'Show the merchant account: plan and fees, charge limits, settlement hold and webhook.'
  static override description =
    'Reads GET /v1/account. The fee shown comes from the plan the merchant subscribes to (never hard-coded): ' +
    'a percentage (feeBps, 100 bps = 1%) plus a fixed part per charge. The environment is the one of the key used. ' +
    'On a terminal a labelled view; piped, `key<TAB>value` lines with the API values; --json prints the Account object. ' +
    'A webhook endpoint the service deactivated (24 h without a successful delivery) is shown `(inactive)` with how to ' +
    'reactivate it: save the URL again (in the panel, or `svc sandbox webhook set URL --env ENV` for the sandbox); piped, that hint goes to stderr.'

  static override examples = ['<%= config.bin %> account', '<%= config.bin %> account --profile sandbox-live', '<%= config.bin %> account --json | jq .plan.feeBps']

  async run(): Promise<AccountData> {
    return (await this.client()).getAccount()
  }

  protected override async render(account: AccountData, io: IO): Promise<void> {
    const hint = account.webhook && !account.webhook.active ? reactivationHint(account.webhook.url, account.environment, { sandbox: await this.isSandbox() }) : undefined
    io.out(io.isStdoutTTY ? humanView(account, painter(io.color), hint) : fieldLines(account))
    // Piped, stdout keeps its stable key/value lines: the hint goes to stderr.
    if (hint && !io.isStdoutTTY) this.note(`The webhook endpoint is inactive. ${hint}`)
  }

  private async isSandbox(): Promise<boolean> {
    const { baseUrl } = await this.credentials()
    return isLoopbackUrl(baseUrl)
  }
}

function humanView(a: AccountData, paint: Paint, reactivate?: string): string {
  const badge = environmentBadge(paint, a.environment)
  const fixed = formatBRL(a.feeFixedInCents)
  const rows: Array<[string, string]> = [
    // The account's texts come from the server: shown with their control characters escaped.
    ['Merchant', `${safeText(a.merchantId)} (${safeText(a.email)})`],
    ['Environment', a.environment],
    ['Plan', `${safeText(a.plan.name)}: ${formatBps(a.plan.feeBps)} + ${fixed} per charge`],
    ['Fixed fee', `${fixed} per charge`],
    ['Limits', `${formatBRL(a.limits.minChargeInCents)} to ${formatBRL(a.limits.maxChargeInCents)} per charge`],
    ['Settlement', `${a.settlementDelayHours} h hold after payment`],
    ['Webhook', a.webhook ? `${safeText(a.webhook.url)} ${a.webhook.active ? paint('green', '(active)') : paint('red', '(inactive)')}` : paint('dim', 'not configured')],
  ]
  // Next to "(inactive)": how to reactivate it (the service sends nothing to it until then).
  if (reactivate) rows.push(['', paint('dim', safeText(reactivate))])
  const width = Math.max(...rows.map(([k]) => k.length))
  const lines = rows.map(([k, v]) => `  ${paint('dim', k.padEnd(width))}  ${v}`)
  return `${badge} ${paint('bold', `Account ${safeText(a.merchantId)}`)}\n\n${lines.join('\n')}\n`
}

/** The piped form: one `key<TAB>value` per line, raw API values, stable order. */
function fieldLines(a: AccountData): string {
  const rows: Array<[string, string | number | boolean | undefined]> = [
    ['merchantId', a.merchantId],
    ['email', a.email],
    ['environment', a.environment],
    ['plan.id', a.plan.id],
    ['plan.name', a.plan.name],
    ['plan.feeBps', a.plan.feeBps],
    ['feeFixedInCents', a.feeFixedInCents],
    ['limits.minChargeInCents', a.limits.minChargeInCents],
    ['limits.maxChargeInCents', a.limits.maxChargeInCents],
    ['settlementDelayHours', a.settlementDelayHours],
    ['webhook.url', a.webhook?.url],
    ['webhook.active', a.webhook?.active],
  ]
  return rows
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}\t${safeText(String(v), 'tsv')}\n`)
    .join('')
}
