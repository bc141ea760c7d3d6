/**
 * The flags `svc report settlements` and `svc report charges` share (CLI.md 0.4); their range is
 * the operations' typed input (services/operator-operations.ts), its fields named as these flags.
 */
import { Flags } from '@oclif/core'
import { PERIOD_UNITS } from '../domain/calendar.js'
import { csvFlags } from './csv-flags.js'

export const reportFlags = {
  from: Flags.string({ description: 'First day (or instant) of the range.', helpValue: 'DATE', required: true }),
  to: Flags.string({ description: 'Last day of the range, included (or an instant, excluded).', helpValue: 'DATE', required: true }),
  by: Flags.string({ description: 'One row per day, week (Monday first) or month.', options: [...PERIOD_UNITS], default: 'day' }),
  tz: Flags.string({ description: "Zone of the days (default the machine's), e.g. America/Sao_Paulo.", helpValue: 'ZONE' }),
  ...csvFlags({ description: 'RFC 4180 CSV with a header row, one row per period.', exclusive: ['json'] }),
}
