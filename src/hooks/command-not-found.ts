/**
 * An unknown command is a usage error (exit 2) with the closest commands suggested, never a
 * prompt: `svc chargs list` → did you mean `svc charges list`?
 */
import { Errors, type Hook } from '@oclif/core'
import { renderError } from '../lib/command-kit/base.js'
import { editDistance } from '../lib/domain/edit-distance.js'
import { UsageError, EXIT } from '../lib/errors.js'
import { getIO } from '../lib/output/io.js'

/** Up to three visible commands closest to `typed` (words separated by spaces). */
export function suggestCommands(typed: string, ids: string[]): string[] {
  const scored = ids
    .map((id) => ({ id, d: editDistance(typed, id) }))
    .filter(({ id, d }) => d <= Math.max(2, Math.floor(id.length / 3)))
    .sort((a, b) => a.d - b.d || a.id.localeCompare(b.id))
  return scored.slice(0, 3).map((s) => s.id)
}

const hook: Hook<'command_not_found'> = async function (opts) {
  const typed = opts.id.replaceAll(':', ' ')
  const ids = opts.config.commands.filter((c) => !c.hidden).map((c) => c.id.replaceAll(':', ' '))
  const suggestions = suggestCommands(typed, ids)
  const bin = opts.config.bin
  // 0.2 shipped oclif's autocomplete plugin beside `svc completion`; one command does it now.
  const retired = typed === 'autocomplete' || typed.startsWith('autocomplete ') ? `\`${bin} autocomplete\` was replaced by \`${bin} completion bash|zsh|fish\` (see \`${bin} completion --help\`).` : undefined
  const hint = retired ?? (suggestions.length ? `Did you mean ${suggestions.map((s) => `\`${bin} ${s}\``).join(' or ')}? Run \`${bin} help\` for every command.` : `Run \`${bin} help\` for every command.`)
  renderError(new UsageError(`"${bin} ${typed}" is not a ${bin} command.`, { hint }), getIO(), (opts.argv ?? []).includes('--json'))
  throw new Errors.ExitError(EXIT.usage)
}

export default hook
