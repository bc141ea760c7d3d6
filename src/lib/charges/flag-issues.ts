/**
 * Local validation errors that name both the flag the user typed and the API field it feeds
 * (`--amount (amountInCents): must be at least 1000`), so a bad value is fixed without reading
 * the spec. Every issue is reported at once, and nothing is sent.
 */
import type { z } from 'zod'
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

/**
 * Turns zod issues on a request object into flag issues, using `flagOf` to find the flag
 * that fed each top-level API field (e.g. `metadata.color` → `--metadata (metadata.color)`).
 */
export function issuesFromZod(error: z.ZodError, flagOf: Record<string, string>): FlagIssue[] {
  const seen = new Set<string>()
  const issues: FlagIssue[] = []
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.')
    const top = String(issue.path[0] ?? '')
    const field = flagLabel(flagOf[top] ?? top, path || top)
    if (seen.has(field)) continue
    seen.add(field)
    issues.push({ field, message: stripFieldName(issue.message, path || top) })
  }
  return issues
}

/** The user's value quoted in a message, cut to its first 40 characters: a 100 000-character --tz is not echoed whole. */
export function echoed(raw: string, max = 40): string {
  const chars = [...raw]
  return chars.length <= max ? `"${raw}"` : `"${chars.slice(0, max).join('')}…" (${chars.length.toLocaleString('en-US')} characters)`
}

/** One UsageError (exit 2) carrying every issue as a detail line. */
export function flagsError(issues: FlagIssue[], hint: string): UsageError {
  const details: ErrorDetail[] = issues.map((i) => ({ field: i.field, message: i.message }))
  const message = issues.length === 1 ? `Invalid ${issues[0]!.field}; nothing was sent.` : `${issues.length} flags are invalid; nothing was sent.`
  return new UsageError(message, { details, hint })
}
