/**
 * A command's USAGE line, for commands whose flags exclude one another (issue 36.22). oclif's
 * docopts merges every `exclusive` list into one group and deletes the flags it merged, so a
 * flag excluded from two sides leaves empty alternatives behind: `[--csv |  | [--ndjson |
 * --json | -q] | ]`, and `[--bom ]` for a flag that depends on a merged one. Here a group is
 * drawn only for flags that all exclude one another (`[--csv | --ndjson | --json | -q]`);
 * every other flag stands on its own, and what it needs or excludes is said in its description.
 * A command sets `static override usage = usageOf(this)` after its flags.
 */

interface FlagLike {
  type?: string
  char?: string
  hidden?: boolean
  required?: boolean
  multiple?: boolean
  helpValue?: string | string[]
  options?: readonly string[]
  exclusive?: string[]
}

interface ArgLike {
  required?: boolean
  hidden?: boolean
  multiple?: boolean
}

export interface UsageSource {
  baseFlags?: Record<string, FlagLike>
  flags?: Record<string, FlagLike>
  args?: Record<string, ArgLike>
  strict?: boolean
}

/** `--separator CHAR`, `-p <value>`, `--status a|b`, `--header <value>...`: as oclif's docopts writes one flag. */
function element(name: string, f: FlagLike): string {
  const flag = f.char ? `-${f.char}` : `--${name}`
  if (f.type !== 'option') return flag
  const values = f.helpValue !== undefined ? [f.helpValue].flat() : f.options ? [f.options.join('|')] : ['<value>']
  return `${flag} ${values.map((v) => `${v}${f.multiple ? '...' : ''}`).join(' ')}`
}

export function usageOf(cmd: UsageSource): string {
  const parts = ['<%= command.id %>']
  for (const [name, a] of Object.entries(cmd.args ?? {})) {
    if (a.hidden) continue
    const text = `${name.toUpperCase()}${a.multiple || cmd.strict === false ? '...' : ''}`
    parts.push(a.required ? text : `[${text}]`)
  }
  const all = Object.entries({ ...cmd.baseFlags, ...cmd.flags }).filter(([, f]) => !f.hidden)
  // Required flags first, as oclif draws them.
  const flags = [...all.filter(([, f]) => f.required), ...all.filter(([, f]) => !f.required)]
  const excludes = (a: string, b: string) => Boolean(Object.fromEntries(all)[a]?.exclusive?.includes(b) || Object.fromEntries(all)[b]?.exclusive?.includes(a))
  const placed = new Set<string>()
  for (const [name] of flags) {
    if (placed.has(name)) continue
    const group = [name]
    for (const [other] of flags) {
      if (other !== name && !placed.has(other) && !group.includes(other) && group.every((g) => excludes(g, other))) group.push(other)
    }
    for (const g of group) placed.add(g)
    const defs = Object.fromEntries(all)
    const text = group.map((g) => element(g, defs[g]!)).join(' | ')
    parts.push(group.some((g) => defs[g]!.required) ? (group.length > 1 ? `(${text})` : text) : `[${text}]`)
  }
  return parts.join(' ')
}
