import { existsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { Flags } from '@oclif/core'
import { PanelCommand } from '../../lib/command-kit/sandbox-panel.js'
import type { SandboxState } from '../../lib/contract/sandbox-state.js'
import { assertReplaceable, NotARegularFileError, writePrivateFile } from '../../lib/config/private-file.js'
import { UsageError } from '../../lib/errors.js'

/** What `-o FILE --json` prints. */
interface ExportSummary {
  file: string
  format: string
  exportedAt: string
  clock: string
  counts: ReturnType<typeof counts>
}

export default class SandboxExport extends PanelCommand<typeof SandboxExport, ExportSummary | undefined> {
  static override summary = "Write the running sandbox's whole state as JSON, to start another sandbox from it (`sandbox start --seed FILE`)."
  static override description =
    'Account, plan, test API keys, webhook URLs, clock, charges (split charges included), withdrawals, product ' +
    'sales, events and their deliveries, as the rows of the sandbox\'s tables under a "format" version (svc-sandbox-state/1). ' +
    'The live API keys and the webhook secret (it signs live deliveries too) are left out unless --include-live-secrets: a ' +
    'sandbox started from an export without them makes a new live key and a new webhook secret (its banner and profiles show them). ' +
    'To stdout, or with -o to FILE, created with mode 0600 (it holds the test keys in full) and replaced whole. ' +
    '-o replaces only a regular file: when FILE is a symlink, a directory, a FIFO or a device (/dev/null), it exits 2 and ' +
    'leaves it as it is (a symlink is not followed: give the path it points to). ' +
    '`svc sandbox start --seed FILE` (into an empty data dir or --in-memory) starts from it with the same ids, keys, secret ' +
    '(with --include-live-secrets) and clock. With -o and --json: a summary {"file","format","exportedAt","clock","counts"} on stdout.'

  static override examples = [
    '<%= config.bin %> sandbox export -o state.json',
    '<%= config.bin %> sandbox export --profile sandbox -o state.json && <%= config.bin %> sandbox start --in-memory --port 0 --seed state.json',
    "<%= config.bin %> sandbox export | jq '.tables.charges | length'",
    '<%= config.bin %> sandbox export --include-live-secrets -o state.json   # the copy keeps the live key and webhook secret',
    '<%= config.bin %> sandbox export -o state.json --json | jq .counts',
  ]

  static override flags = {
    output: Flags.string({
      char: 'o',
      description: 'Write it to FILE (mode 0600, replaced whole) instead of stdout; FILE must be a regular file or not exist (a symlink, directory, FIFO or device is refused).',
      helpValue: 'FILE',
    }),
    'include-live-secrets': Flags.boolean({
      description: 'Also export the live API keys and the webhook secret in full (left out by default; a sandbox seeded without them makes new ones).',
    }),
  }

  /** With -o, a summary of what was written; without, the state itself is the output (and there is no result). */
  async run(): Promise<ExportSummary | undefined> {
    // Refused before asking the sandbox for its keys, so nothing is fetched for nowhere to go.
    if (this.flags.output !== undefined) checkOutput(this.flags.output)
    const includeLiveSecrets = this.flags['include-live-secrets']
    const state = await (await this.panel()).exportState({ includeLiveSecrets })
    const text = `${JSON.stringify(state, null, 2)}\n`
    const file = this.flags.output
    if (file === undefined) {
      const what = includeLiveSecrets ? 'API keys (live included) and webhook secret' : 'test API keys'
      if (this.io.isStdoutTTY) this.warnUser(`this output holds the sandbox's ${what} in full; write it to a file with -o FILE (mode 0600) instead.`)
      this.io.out(text)
      return undefined
    }
    writeOutput(file, text)
    return { file: resolve(file), format: state.format, exportedAt: state.exportedAt, clock: state.clock.now, counts: counts(state) }
  }

  protected override render(summary: ExportSummary | undefined): void {
    if (!summary) return
    const c = summary.counts
    const file = this.flags.output
    this.note(
      `Wrote ${file} (mode 0600): ${n(c.charges, 'charge')}, ${n(c.withdrawals, 'withdrawal')}, ${n(c.productSales, 'product sale')}, ${n(c.events, 'event')}, ${n(c.deliveries, 'delivery', 'deliveries')}; clock at ${summary.clock}. Start from it with \`svc sandbox start --in-memory --seed ${file}\`.`,
    )
  }
}

/** `1 product sale`, `2 product sales`. */
function n(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`
}

function counts(state: SandboxState): Record<'keys' | 'charges' | 'withdrawals' | 'productSales' | 'events' | 'deliveries', number> {
  const t = state.tables
  return { keys: t.api_keys.length, charges: t.charges.length, withdrawals: t.withdrawals.length, productSales: t.product_sales.length, events: t.events.length, deliveries: t.webhook_deliveries.length }
}

function refusal(err: NotARegularFileError): UsageError {
  const what = err.kind === 'symlink' ? 'a symlink (not followed)' : err.kind === 'device' ? 'a device' : err.kind === 'fifo' ? 'a FIFO' : `a ${err.kind === 'other' ? 'special file' : err.kind}`
  return new UsageError(`Cannot write ${err.path}: it is ${what}, and -o replaces only a regular file.`, {
    field: 'output',
    hint: err.kind === 'symlink' ? 'Pass -o the path of the file the link points to, or a new file name.' : 'Pass -o a new file name or an existing regular file.',
  })
}

function checkOutput(path: string): void {
  try {
    assertReplaceable(path)
  } catch (err) {
    if (err instanceof NotARegularFileError) throw refusal(err)
    // Anything else (a permission) is worded by writeOutput when it fails for real.
  }
}

/** writePrivateFile (0600, whole or not at all, never over a non-regular file), its failure worded for -o. */
function writeOutput(path: string, text: string): void {
  try {
    writePrivateFile(path, text)
  } catch (err) {
    if (err instanceof NotARegularFileError) throw refusal(err)
    const code = (err as { code?: string }).code
    const dir = dirname(resolve(path))
    if (code === 'ENOENT' && !existsSync(dir)) {
      throw new UsageError(`Cannot write ${path}: the directory ${dir} does not exist.`, { field: 'output', hint: `Create it first (mkdir -p ${dir}), or pass -o with a path in an existing directory.` })
    }
    throw new UsageError(`Cannot write ${path}: ${code ?? String(err)}.`, { field: 'output', hint: 'Pass -o with a path in a writable directory.' })
  }
}
