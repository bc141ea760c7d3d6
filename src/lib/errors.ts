/**
 * Typed errors. Lib code throws these; the one `catch` in BaseCommand maps them to output and
 * exit code (CLI.md). No lib code calls process.exit.
 */
import type { ErrorDetail } from './contract/schemas.js'
import type { NextStep } from './next-step.js'

/** Exit codes of CLI.md: the CLI's, not the spec's (contract/errors.ts holds the API's codes). */
export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  conflict: 5,
  rateLimited: 6,
  network: 7,
  waitFailed: 8,
  /** (0.4) The command worked and found something that needs a person: `svc status --exit-status` with items, `webhooks test` to an inactive endpoint. */
  needsAttention: 9,
  /**
   * (0.4, proposed for CLI.md's table) The command could not tell: a source it needed could not be
   * read (`svc status`: the listener's event log locked, damaged or not a database); what it could
   * read is printed, and the source is named.
   */
  couldNotTell: 10,
} as const
export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/** Maps an API error (status and code) to the CLI's exit code. */
export function exitCodeForApiError(status: number, code: string | undefined): ExitCode {
  if (code === 'provider_error' || code === 'provider_unavailable') return EXIT.network
  if (code === 'internal_error') return EXIT.unexpected
  if (status === 400 || status === 405 || status === 413 || status === 422) return EXIT.usage
  if (status === 401 || status === 403) return EXIT.auth
  if (status === 404) return EXIT.notFound
  if (status === 409) return EXIT.conflict
  if (status === 429) return EXIT.rateLimited
  if (status === 402 || status === 502 || status === 503 || status === 504) return EXIT.network
  return EXIT.unexpected
}

export class CliError extends Error {
  readonly exitCode: ExitCode
  /** A hint in words that suit every door (no flag, no command, no tool); else see `next`. */
  readonly hint?: string
  /** What to do next, typed: each door words it (next-step.ts). Said instead of `hint` when both are set. */
  readonly next?: NextStep
  /** Machine code for `--json` output of errors that did not come from the API. */
  readonly code: string
  readonly details?: ErrorDetail[]
  constructor(message: string, opts: { exitCode?: ExitCode; hint?: string; next?: NextStep; code?: string; details?: ErrorDetail[]; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause })
    this.name = new.target.name
    this.exitCode = opts.exitCode ?? EXIT.unexpected
    this.hint = opts.hint
    this.next = opts.next
    this.code = opts.code ?? 'cli_error'
    this.details = opts.details
  }
}

/** Bad flag, missing argument, local validation failure: exit 2, nothing was sent. */
export class UsageError extends CliError {
  constructor(message: string, opts: { hint?: string; next?: NextStep; details?: ErrorDetail[]; field?: string; code?: string } = {}) {
    const details = opts.details ?? (opts.field ? [{ field: opts.field, message }] : undefined)
    super(message, { exitCode: EXIT.usage, hint: opts.hint, next: opts.next, code: opts.code ?? 'invalid_request', details })
  }
}

/**
 * A bad value of one input, named by the input's path (`override`), never by a door's word for
 * it: the CLI says `--override a=b: …` (command-kit/base.ts), svc mcp `overrides item a=b: …`
 * (mcp/results.ts). The message itself is door-neutral (`override a=b: …`); `detail` adds the
 * usual one-line detail under the path.
 */
export class InputValueError extends UsageError {
  constructor(
    readonly path: string,
    readonly value: string,
    readonly reason: string,
    opts: { code?: string; hint?: string; details?: ErrorDetail[]; detail?: boolean } = {},
  ) {
    super(`${path} ${value}: ${reason}`, { code: opts.code, hint: opts.hint, details: opts.details, ...(opts.detail ? { field: path } : {}) })
  }

  /** The message in a door's words for the input (`--override`). */
  named(word: string): string {
    return `${word} ${this.value}: ${this.reason}`
  }
}

/** No usable credentials, or a key with neither `svc_live_` nor `svc_test_`: exit 3. */
export class AuthError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: EXIT.auth, hint, code: 'invalid_api_key' })
  }
}

/** The API answered with an error body (spec 2.9). */
export class ApiError extends CliError {
  readonly status: number
  readonly apiCode: string
  readonly requestId?: string
  readonly retryAfterMs?: number
  constructor(init: { status: number; code: string; message: string; details?: ErrorDetail[]; requestId?: string; retryAfterMs?: number; hint?: string; next?: NextStep }) {
    super(init.message, {
      exitCode: exitCodeForApiError(init.status, init.code),
      hint: init.hint,
      next: init.next,
      code: init.code,
      details: init.details,
    })
    this.status = init.status
    this.apiCode = init.code
    this.requestId = init.requestId
    this.retryAfterMs = init.retryAfterMs
  }

  toBody(): { error: Record<string, unknown> } {
    return {
      error: {
        code: this.apiCode,
        message: this.message,
        ...(this.details ? { details: this.details } : {}),
        ...(this.requestId ? { requestId: this.requestId } : {}),
      },
    }
  }
}

/** Connection refused/reset, DNS, timeout — after retries: exit 7. */
export class NetworkError extends CliError {
  constructor(message: string, opts: { cause?: unknown; hint?: string; next?: NextStep } = {}) {
    super(message, { exitCode: EXIT.network, code: 'network_error', ...opts })
  }
}

/** The server answered something that is not the API's shape: exit 1, never a stack trace. */
export class ResponseError extends CliError {
  readonly status?: number
  constructor(message: string, status?: number, details?: ErrorDetail[]) {
    super(message, {
      exitCode: EXIT.unexpected,
      code: 'invalid_response',
      details,
      next: { do: 'report_bad_answer' },
    })
    this.status = status
  }
}

/** `--wait` ended in another state or timed out: exit 8. */
export class WaitError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: EXIT.waitFailed, code: 'wait_failed', hint })
  }
}

/** Lets a command end with a given exit code after it printed its own output (e.g. worst-of). */
export class SilentExit extends CliError {
  constructor(exitCode: ExitCode) {
    super('', { exitCode, code: 'silent_exit' })
  }
}

/** Why the environment, not svc, refused a file operation: errno codes, in words. */
const ENVIRONMENT_FAULTS: Record<string, string> = {
  ENOTDIR: 'a part of the path is a file, not a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exceeded',
  EISDIR: 'it is a directory, not a file',
  EEXIST: 'a file is in the way',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the path is too long',
}

/** SQLite's faults of the same kind (base result codes of node:sqlite's errcode). */
const SQLITE_FAULTS: Record<number, string> = {
  8: 'the database is read-only (the file or its directory is not writable)',
  10: 'a disk I/O error',
  13: 'the disk is full',
  14: 'the database file cannot be opened (a directory is in the way, or its directory is not writable)',
  23: 'permission denied',
}

/** The fault in words when `error` is the environment's (permissions, a file in the way, a full disk), else undefined. */
export function environmentFaultReason(error: unknown): string | undefined {
  const e = error as { code?: unknown; errcode?: unknown } | undefined
  if (typeof e?.code !== 'string') return undefined
  if (e.code === 'ERR_SQLITE_ERROR') return typeof e.errcode === 'number' ? SQLITE_FAULTS[e.errcode & 0xff] : undefined
  return ENVIRONMENT_FAULTS[e.code]
}

/**
 * A file operation the environment refused, caught nowhere closer (a syscall error naming its
 * path): exit 1 naming the path and the fault, not "a bug in svc". Undefined for anything else.
 */
export function environmentError(error: unknown): CliError | undefined {
  const path = (error as { path?: unknown } | undefined)?.path
  const reason = environmentFaultReason(error)
  if (typeof path !== 'string' || reason === undefined) return undefined
  return new CliError(`Cannot use ${path}: ${reason}.`, {
    exitCode: EXIT.unexpected,
    code: 'environment_error',
    hint: 'Check that path: its permissions, what is in the way, the free space. Then run the command again.',
    cause: error,
  })
}
