/**
 * The output flags of every command that lists (charges list, webhooks events, sandbox
 * deliveries): --ndjson, -q, and --csv with --separator and --bom (csv-flags.ts), declared once
 * and excluding one another; `--json` is the base command's. What each prints is the command's
 * own words; the format they choose is output/list-printer.ts `listFormat`.
 */
import { Flags } from '@oclif/core'
import { listFormat, type ListOutput } from '../output/list-printer.js'
import type { IO } from '../output/io.js'
import { csvFlags, csvOptions } from './csv-flags.js'

/** Each flag's help line; the rest (exclusions, group, -q) is the same for every list. */
export function listFlags(say: { ndjson: string; quiet: string; csv: string }) {
  return {
    ndjson: Flags.boolean({ description: say.ndjson, exclusive: ['json', 'quiet', 'csv'], helpGroup: 'OUTPUT' }),
    quiet: Flags.boolean({ char: 'q', description: say.quiet, exclusive: ['json', 'ndjson', 'csv'], helpGroup: 'OUTPUT' }),
    ...csvFlags({ description: say.csv, exclusive: ['json', 'ndjson', 'quiet'] }),
  }
}

/** What the list flags (and the base's --json) parse to. */
export interface ListFlagValues {
  json?: boolean
  ndjson?: boolean
  quiet?: boolean
  csv?: boolean
  separator?: string
  bom?: boolean
}

/** The format and CSV options, read once from the flags; a bad --separator is exit 2 here, before anything is sent. */
export function listOutput(flags: ListFlagValues, io: Pick<IO, 'isStdoutTTY'>): ListOutput {
  return { format: listFormat(flags, io), csv: csvOptions(flags) }
}
