/**
 * A door's local validation error: every issue named in the door's own words (the CLI names the
 * flag and the API field it feeds, `--amount (amountInCents): must be at least 1000`; `svc mcp`
 * the tool's argument), reported at once, with nothing sent. The inputs themselves name their
 * fields by path (operator-input.ts InputError); each door maps them here at its edge.
 */
import type { ErrorDetail } from '../contract/schemas.js'
import { UsageError } from '../errors.js'

export interface FlagIssue {
  /** `--amount (amountInCents)` */
  field: string
  /** `must be at least 1000 (R$ 10,00)` */
  message: string
}

/** `--amount (amountInCents)`: the flag and the API field, even when they share a name; just the flag when no field. */
export function flagLabel(flag: string, apiField?: string): string {
  return apiField ? `--${flag} (${apiField})` : `--${flag}`
}

/** Drops the API field's name from the front of a schema message: the label already says it. */
export function stripFieldName(message: string, apiField: string): string {
  const head = apiField.split('.')[0]!
  for (const prefix of [apiField, head]) {
    if (message.startsWith(`${prefix} `)) return message.slice(prefix.length + 1)
  }
  return message
}

/** The user's value quoted in a message, cut to its first 40 characters: a 100 000-character --tz is not echoed whole. */
export function echoed(raw: string, max = 40): string {
  const chars = [...raw]
  return chars.length <= max ? `"${raw}"` : `"${chars.slice(0, max).join('')}…" (${chars.length.toLocaleString('en-US')} characters)`
}

/** One UsageError (exit 2) carrying every issue as a detail line; `noun` is what the door calls its fields. */
export function flagsError(issues: FlagIssue[], hint: string, noun = 'flags'): UsageError {
  const details: ErrorDetail[] = issues.map((i) => ({ field: i.field, message: i.message }))
  const message = issues.length === 1 ? `Invalid ${issues[0]!.field}; nothing was sent.` : `${issues.length} ${noun} are invalid; nothing was sent.`
  return new UsageError(message, { details, hint })
}
