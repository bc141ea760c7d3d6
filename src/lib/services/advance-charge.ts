/**
 * `test advance`: the sandbox's move of a test charge (spec 4.7). The key's prefix decides the
 * environment, so a live key is refused here, before anything is sent (exit 3). A refused move
 * (409 invalid_transition, exit 5) gets a next step from the same transition table the sandbox uses
 * (the states it can come from, and reading the charge); each door words it.
 */
import type { ApiClient } from '../api/types.js'
import type { Credentials } from '../config/resolve.js'
import { maskSecret } from '../config/mask.js'
import { AdvanceRequestSchema, type Charge } from '../contract/schemas.js'
import { type AdvanceTarget, advancePath, CHARGE_STATUSES } from '../domain/charge-states.js'
import { InputError } from '../charges/operator-input.js'
import { ApiError, CliError, EXIT } from '../errors.js'

export function assertTestKey(credentials: Pick<Credentials, 'environment' | 'apiKey' | 'source'>): void {
  if (credentials.environment === 'test') return
  throw new CliError(`test advance works only in the test environment, and the key from ${credentials.source} (${maskSecret(credentials.apiKey)}) is a live key. Nothing was sent.`, {
    exitCode: EXIT.auth,
    code: 'not_available_in_live',
    next: { do: 'use_test_key', by: 'svc' },
  })
}

/** The states from which a sandbox advance can reach `target`. */
export function sourcesOf(target: AdvanceTarget): string[] {
  return CHARGE_STATUSES.filter((s) => advancePath(s, target) !== undefined)
}

export async function advanceCharge(
  /** Called only once the request is known to be allowed. */
  client: () => Promise<Pick<ApiClient, 'advanceCharge'>>,
  credentials: Pick<Credentials, 'environment' | 'apiKey' | 'source'>,
  id: string,
  status: string,
): Promise<Charge> {
  const parsed = AdvanceRequestSchema.safeParse({ status })
  // Named by its path: each door names it as its own (the command's --status, the tool's status).
  if (!parsed.success) throw new InputError([{ path: 'status', message: parsed.error.issues[0]!.message }])
  assertTestKey(credentials)
  try {
    return await (await client()).advanceCharge(id, parsed.data.status)
  } catch (error) {
    if (error instanceof ApiError && error.apiCode === 'invalid_transition') {
      throw new ApiError({
        status: error.status,
        code: error.apiCode,
        message: error.message,
        details: error.details,
        requestId: error.requestId,
        next: { do: 'see_charge', id, status: parsed.data.status, from: sourcesOf(parsed.data.status) },
      })
    }
    throw error
  }
}
