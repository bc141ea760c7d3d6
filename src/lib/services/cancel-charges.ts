/**
 * `charges cancel ID... | -`: cancels each charge in turn, reports each result as it comes,
 * and returns the worst (highest) exit code, so one failure in a pipeline is never hidden.
 * Ids are checked before anything is sent: a malformed id fails the whole batch with exit 2.
 */
import type { Charge } from '../contract/schemas.js'
import { CliError, UsageError, EXIT, type ExitCode } from '../errors.js'
import { safeText } from '../output/safe-text.js'
import { CHARGE_ID, CHARGE_ID_HINT } from '../charges/charge-id.js'

export type CancelResult = { id: string; ok: true; charge: Charge } | { id: string; ok: false; error: Error; exitCode: ExitCode }

const SHOWN = 10
const PREVIEW_CHARS = 40

/**
 * A bad value as the error shows it: escaped (control characters, and bytes that were not UTF-8,
 * as visible escapes) and cut, so a stray binary file piped in cannot flood or drive the terminal.
 */
export function preview(value: string): string {
  const escaped = [...safeText(value).replaceAll('\uFFFD', '\\ufffd')]
  if (escaped.length <= PREVIEW_CHARS) return `"${escaped.join('')}"`
  return `"${escaped.slice(0, PREVIEW_CHARS - 1).join('')}…" (${[...value].length} characters)`
}

/** Trims, drops blanks and repeats (first occurrence wins), and rejects ids that are not charge ids. */
export function normalizeIds(raw: string[], source: string): string[] {
  const ids = [...new Set(raw.map((s) => s.trim()).filter(Boolean))]
  if (ids.length === 0) {
    throw new UsageError(`No charge ids given ${source}.`, {
      field: 'ID',
      hint: 'Pass ids as arguments, or `-` to read them from stdin: svc charges list -q --status awaiting_payment --all | svc charges cancel -',
    })
  }
  const bad = ids.filter((id) => !CHARGE_ID.test(id))
  if (bad.length > 0) {
    throw new UsageError(`${bad.length === 1 ? 'This is not a charge id' : `${bad.length} values are not charge ids`}; nothing was canceled.`, {
      details: [
        ...bad.slice(0, SHOWN).map((id) => ({ field: 'ID', message: `${preview(id)} is not 24 hexadecimal characters` })),
        ...(bad.length > SHOWN ? [{ field: 'ID', message: `and ${bad.length - SHOWN} more` }] : []),
      ],
      hint: CHARGE_ID_HINT,
    })
  }
  return ids
}

export async function cancelCharges(ids: string[], cancel: (id: string) => Promise<Charge>, onResult: (result: CancelResult) => void): Promise<ExitCode> {
  let worst: ExitCode = EXIT.ok
  for (const id of ids) {
    let result: CancelResult
    try {
      result = { id, ok: true, charge: await cancel(id) }
    } catch (error) {
      const err = error instanceof Error ? error : new Error(String(error))
      const exitCode = err instanceof CliError ? err.exitCode : EXIT.unexpected
      result = { id, ok: false, error: err, exitCode }
      if (exitCode > worst) worst = exitCode
    }
    onResult(result)
  }
  return worst
}
