/**
 * The last net of what `svc mcp` says to an agent (issue 40 item 1). The use-cases speak no
 * door's words: a bad field is named by its path (charges/operator-input.ts InputError, named as
 * the tool's argument by arguments.ts), and what to do next is a typed step (next-step.ts) that
 * next-step-words.ts words as the tools and their arguments. What still arrives as prose passes
 * through here: a hint that names a CLI flag or command is dropped rather than passed on (better
 * no hint than one that sends an agent to a shell), and a flag left in a message or a detail is
 * named as an argument. No use-case is known to leave one (the scenarios' override errors, the
 * last, are InputValueErrors that each door names: results.ts); this is the net under new code.
 * The only CLI word an agent may see
 * is `--allow-live-writes`: the user starts `svc mcp` with it, and the agent has to ask them to.
 */
import type { ErrorDetail } from '../contract/schemas.js'
import type { NextStep } from '../next-step.js'
import { nextStepInAgentWords } from './next-step-words.js'

/** `--event-id` / `event-id` → `eventId`: a tool's argument is the flag in camelCase. */
export function argumentName(field: string): string {
  return field.replace(/^--/, '').replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())
}

/** A CLI flag or command still in a sentence. */
const CLI_WORD = /(?<![\w-])--(?!allow-live-writes\b)[a-z][\w-]*|`svc |\bsvc (?!mcp\b)[a-z]+ [a-z-]+/

export function hasCliWords(text: string): boolean {
  return CLI_WORD.test(text)
}

/** A flag left in a message named as the argument (`--event-id` → `eventId`): the net, see the module's comment. */
function flagsAsArguments(text: string): string {
  return text.replace(/(?<![\w-])--(?!allow-live-writes\b)([a-z][a-z-]*)/g, (_m, flag: string) => argumentName(flag)).replace(/`svc mcp`/g, 'svc mcp')
}

export interface AgentError {
  code: string
  message: string
  details?: ErrorDetail[]
  hint?: string
  next?: NextStep
}

/** An error's message, fields and hint for an agent (see the module's comment). */
export function forAgent(e: AgentError): { code: string; message: string; details?: ErrorDetail[]; hint?: string } {
  const details = e.details?.map((d) => ({ ...d, field: argumentName(d.field), message: flagsAsArguments(d.message) }))
  // The typed step in the tools' words; a plain hint only when it names no CLI flag or command.
  const hint = e.next ? nextStepInAgentWords(e.next) : e.hint !== undefined && !hasCliWords(e.hint) ? e.hint : undefined
  return { code: e.code, message: flagsAsArguments(e.message), ...(details ? { details } : {}), ...(hint ? { hint } : {}) }
}
