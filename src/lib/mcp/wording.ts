/**
 * What `svc mcp` says to an agent, in the agent's words, for the use-cases that still speak the
 * CLI's. The charges' operations (create, list, reports, the overdue list) take typed inputs
 * whose errors name fields by path, and their tools name those paths and word their own notes
 * and hints (tools.ts `withArguments`). The others still name what a person at a shell types: a
 * flag (`--env live`, `--status`) or a command (`svc sandbox deliveries resend`), and the API's
 * error codes come with the CLI's hints (api/decode.ts). An agent has tool names and arguments
 * instead, so every error and sentence leaving the server passes through here: a field is named
 * as the tool's argument, a hint the API's error code has an agent's version of is replaced by
 * it, known commands become the tools that do the same, and a hint still naming a CLI flag or
 * command is dropped rather than passed on. The only CLI word an agent may see is
 * `--allow-live-writes`: the user starts `svc mcp` with it, and the agent has to ask them to.
 */
import type { ErrorDetail } from '../contract/schemas.js'
import type { NextStep } from '../next-step.js'
import { nextStepInAgentWords } from './next-step-words.js'

/**
 * The flags the use-cases' sentences still name that are also some tool's argument. The charges'
 * inputs (create, list, reports, overdue) name their fields by path and each tool names them
 * itself; what is left: advance's `--status`, the sandbox's `--env` and `--event-id`, the
 * webhook secret's `--secret` and `--tolerance`.
 */
const ARGUMENT_FLAGS = new Set(['status', 'env', 'event-id', 'secret', 'tolerance'])

/** `--event-id` / `event-id` → `eventId`: the tools' arguments are the flags in camelCase. */
export function argumentName(field: string): string {
  return field.replace(/^--/, '').replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())
}

/** Commands the CLI's sentences name, and the tool (with its arguments) that does the same. */
const COMMANDS: ReadonlyArray<[RegExp, string]> = [
  [/`?svc charges list(?: -q)?`?/g, 'list_charges'],
  [/`?svc charges get`?/g, 'get_charge'],
  [/`?svc sandbox webhook set URL --env (test|live)`?/g, 'set_webhook with url and env "$1"'],
  [/`?svc sandbox webhook set(?: URL)?`?/g, 'set_webhook'],
  [/`?svc sandbox deliveries resend`?/g, 'resend_delivery'],
  [/`?svc sandbox deliveries --event-id(?: \S+)?`?/g, 'list_deliveries with eventId'],
  [/`?svc sandbox deliveries`?/g, 'list_deliveries'],
  [/`?svc sandbox clock advance`?/g, 'advance_clock'],
  [/`?svc sandbox clock show`?/g, 'get_clock'],
  [/`?svc sandbox account set`?/g, 'set_account'],
  [/`?svc test advance`?/g, 'advance_charge'],
  [/`?svc withdrawals get`?/g, 'get_withdrawal'],
  [/`?svc status`?/g, 'get_status'],
  [/`?svc account`?/g, 'get_account'],
  [/`?svc webhooks test`?/g, 'send_test_webhook'],
]

/** A CLI flag or command still in a sentence. */
const CLI_WORD = /(?<![\w-])--(?!allow-live-writes\b)[a-z][\w-]*|`svc |\bsvc (?!mcp\b)[a-z]+ [a-z-]+/

export function hasCliWords(text: string): boolean {
  return CLI_WORD.test(text)
}

/**
 * A sentence in the tools' words: commands become tools, `--env live` becomes env "live", a flag
 * that is a tool's argument becomes the argument. Any other flag stays as it is (in a hint, that
 * makes `forAgent` drop it) unless `allFlags`, for a message, where a name beats a flag.
 */
export function inToolWords(text: string, allFlags = true): string {
  let out = text
  for (const [re, to] of COMMANDS) out = out.replace(re, to)
  return out
    .replace(/(?<![\w-])--env[ =](test|live)\b/g, 'env "$1"')
    .replace(/(?<![\w-])--(?!allow-live-writes\b)([a-z][a-z-]*)/g, (m, flag: string) => (allFlags || ARGUMENT_FLAGS.has(flag) ? argumentName(`--${flag}`) : m))
    .replace(/`svc mcp`/g, 'svc mcp')
}

/** Where a hint would send the agent to a shell and none is left: what to say instead, by error code. */
const FALLBACK_HINTS: Readonly<Record<string, string>> = {
  invalid_api_key: nextStepInAgentWords({ do: 'fix_credentials' }),
  network_error:
    'svc mcp could not reach the service. If it is the local sandbox, it is not running: the user starts it. Reading again is safe; a create_charge may have gone through, so call it again only with the same idempotencyKey.',
}

export interface AgentError {
  code: string
  message: string
  details?: ErrorDetail[]
  hint?: string
  next?: NextStep
}

/** An error's message, fields and hint for an agent (see the module's comment). */
export function forAgent(e: AgentError): AgentError {
  const details = e.details?.map((d) => ({ ...d, field: argumentName(d.field), message: inToolWords(d.message) }))
  let hint = e.next ? nextStepInAgentWords(e.next) : e.hint === undefined ? undefined : inToolWords(e.hint, false)
  // Better no hint (or the code's general one) than one that sends the agent to a shell.
  if (hint !== undefined && hasCliWords(hint)) hint = FALLBACK_HINTS[e.code]
  return { code: e.code, message: inToolWords(e.message), ...(details ? { details } : {}), ...(hint ? { hint } : {}) }
}
