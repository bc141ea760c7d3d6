/**
 * The flags `svc report settlements` and `svc report charges` share (CLI.md 0.4), and reading
 * their range: checked locally first (exit 2 naming the flag, nothing sent), then, when a date
 * counts back from now (`7d`, `yesterday`), read again on the service's clock.
 */
import { Flags } from '@oclif/core'
import type { ApiClient } from '../api/types.js'
import { anyRelative, type ReportFlags, type ReportRangeFlags, parseReportFlags } from '../charges/operator-flags.js'
import { PERIOD_UNITS } from '../domain/calendar.js'
import { readOnServiceClock } from '../charges/service-clock.js'
import { csvFlags } from './csv-flags.js'

export const reportFlags = {
  from: Flags.string({ description: 'First day (or instant) of the range.', helpValue: 'DATE', required: true }),
  to: Flags.string({ description: 'Last day of the range, included (or an instant, excluded).', helpValue: 'DATE', required: true }),
  by: Flags.string({ description: 'One row per day, week (Monday first) or month.', options: [...PERIOD_UNITS], default: 'day' }),
  tz: Flags.string({ description: "Zone of the days (default the machine's), e.g. America/Sao_Paulo.", helpValue: 'ZONE' }),
  ...csvFlags({ description: 'RFC 4180 CSV with a header row, one row per period.', exclusive: ['json'] }),
}

export function readReportRange(flags: ReportFlags, client: () => Promise<ApiClient>, hint: string): Promise<ReportRangeFlags> {
  return readOnServiceClock(client, anyRelative(flags.from, flags.to), (now, decides) => parseReportFlags(flags, now, hint, decides))
}
