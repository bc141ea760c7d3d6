/**
 * The CLI's edge of the operator's inputs (charges/operator-input.ts): an input's field is named as the
 * flag that feeds it (`timeZone` → `--tz`), and every bad value is one usage error (exit 2) naming
 * its flags, before anything is sent. `FlagReader` is the same reader for the commands whose few
 * date and duration flags are their whole input (`status`, `webhooks events`, `sandbox deliveries`).
 */
import { flagsError } from '../charges/flag-issues.js'
import { InputError, InputReader, inDoorWords } from '../charges/operator-input.js'

/** The flags of the operator's inputs that are not the field in kebab-case. */
const FLAG_OF: Readonly<Record<string, string>> = { timeZone: 'tz' }

/** `settledAfter` → `--settled-after`, `timeZone` → `--tz`. */
export function flagOf(path: string): string {
  return `--${FLAG_OF[path] ?? path.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
}

/** An InputError in the CLI's words: one usage error naming the flags; anything else as it is. */
export function asFlagsError(e: unknown, hint: string): unknown {
  if (!(e instanceof InputError)) return e
  return flagsError(
    e.issues.map((i) => ({ field: flagOf(i.path), message: inDoorWords(i.message, flagOf) })),
    hint,
  )
}

/** Runs an operation, naming a bad input's fields as flags. */
export async function withFlags<T>(hint: string, run: () => Promise<T> | T): Promise<T> {
  try {
    return await run()
  } catch (e) {
    throw asFlagsError(e, hint)
  }
}

/** The operator-input reader with a flag's name as each path; `done()` throws a usage error naming them. */
export class FlagReader extends InputReader {
  constructor(private readonly hint: string) {
    super()
  }

  override done(): void {
    try {
      super.done()
    } catch (e) {
      throw asFlagsError(e, this.hint)
    }
  }
}
