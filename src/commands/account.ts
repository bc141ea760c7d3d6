import type { Account as AccountData } from '../lib/contract/schemas.js'
import { ApiCommand } from '../lib/command-kit/api.js'
import { accountView, accountLines } from '../lib/output/account-view.js'
import { painter } from '../lib/output/color.js'
import type { IO } from '../lib/output/io.js'
import { isLoopbackUrl } from '../lib/net/loopback.js'
import { reactivationInCliWords } from '../lib/command-kit/next-step-words.js'

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
    const hint = account.webhook && !account.webhook.active ? reactivationInCliWords(account.webhook.url, account.environment, (await this.isSandbox()) ? 'sandbox' : 'service') : undefined
    io.out(io.isStdoutTTY ? accountView(account, painter(io.color), hint) : accountLines(account))
    // Piped, stdout keeps its stable key/value lines: the hint goes to stderr.
    if (hint && !io.isStdoutTTY) this.note(`The webhook endpoint is inactive. ${hint}`)
  }

  private async isSandbox(): Promise<boolean> {
    const { baseUrl } = await this.credentials()
    return isLoopbackUrl(baseUrl)
  }
}
