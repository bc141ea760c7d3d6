/**
 * oclif's own parse errors (missing argument, unexpected argument, unknown flag, bad option
 * value, failed flag validation) reworded for one line of stderr. oclif writes them for its
 * own renderer: a two-column list for missing arguments, "See more help with --help", dim
 * colour codes and tabs, which our one-line `Error [code]: message` turned into
 * "Missing 1 required arg:; id  Charge id…".
 */
import { stripAnsi } from '../output/color.js'

interface ArgLike {
  name?: string
  description?: string
}

/** The command the error happened in: `svc charges get` and its flags' descriptions. */
export interface CommandContext {
  usage: string
  flags?: Record<string, { description?: string; char?: string } | undefined>
  /** What the user typed after the command: oclif's note about multi-value flags matters only when one was given. */
  argv?: string[]
}

/** Whether `argv` uses the flag `--name` (also as `--name=v`, or its one-letter form). */
function uses(argv: string[], name: string, char: string | undefined): boolean {
  return argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`) || (char !== undefined && a.startsWith(`-${char}`) && !a.startsWith('--')))
}

const described = (name: string, description: string | undefined) => (description ? `${name} (${description.trim().replace(/\.$/, '')})` : name)

/** A one-line message and a hint that names the command's --help. */
export function describeParseError(err: Error & { args?: unknown }, command?: CommandContext): { message: string; hint: string } {
  const raw = stripAnsi(err.message)
  const help = command ? `See \`${command.usage} --help\`.` : 'See --help for the flags and examples.'
  if (/^Missing \d+ required args?\b/.test(raw) && Array.isArray(err.args)) {
    const args = (err.args as ArgLike[]).filter((a) => a?.name)
    const message = `Missing required argument${args.length === 1 ? '' : 's'}: ${args.map((a) => described(a.name!, a.description)).join(', ')}`
    // oclif's note: arguments given after a flag that takes several values are taken as its values.
    const given = (/Note: (.+?) allows? multiple values/.exec(raw)?.[1] ?? '').split(', ').filter((f) => f && (!command?.argv || uses(command.argv, f.replace(/^--/, ''), command.flags?.[f.replace(/^--/, '')]?.char)))
    const note = given.length ? ` Put the arguments before ${given.join(', ')} (${given.length === 1 ? 'it takes' : 'they take'} several values), or after \`--\`.` : ''
    return { message, hint: `${help}${note}` }
  }
  const lines = raw
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^See more help/.test(l) && !/^The following errors? occurred/.test(l))
    .map((l) => l.replace(/^Error: /, ''))
    .map((l) => l.replace(/^Nonexistent flags?: /, (m) => (m.includes('flags') ? 'Unknown flags: ' : 'Unknown flag: ')))
    .map((l) => l.replace(/^Missing required flag (\S+)$/, (_m, name: string) => `Missing required flag: ${described(`--${name}`, command?.flags?.[name]?.description)}`))
  // "Parsing --limit" then the reason on the next line: one sentence.
  const message = lines
    .join('; ')
    .replace(/^Parsing (--\S+); /, '$1: ')
    .replace(/\s+/g, ' ')
  return { message, hint: help }
}
