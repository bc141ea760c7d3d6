/**
 * JSON data as YAML 1.2 block style, for `svc openapi --yaml`: keys and plain scalars where they
 * cannot be misread, every other string double-quoted with JSON's escapes (a subset of YAML's),
 * so the text parses back to the same value with any YAML 1.2 (or 1.1) parser. No dependency.
 */

/**
 * A plain scalar that no YAML 1.1 or 1.2 parser reads as anything but this string: a letter, `_`
 * or `/` first, then no character YAML gives a meaning to (no `:`, `#`, quote first, brackets,
 * and so no `: ` or ` #`), and not ending in a space.
 */
const PLAIN = /^[A-Za-z_/](?:[A-Za-z0-9_./(), '-]*[A-Za-z0-9_./)])?$/
/** Words YAML 1.1 reads as booleans or null. */
const RESERVED = /^(y|n|yes|no|on|off|true|false|null|~)$/i

function scalar(value: string): string {
  return PLAIN.test(value) && !RESERVED.test(value) ? value : JSON.stringify(value)
}

function key(name: string): string {
  return scalar(name)
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value !== 'object' || (Array.isArray(value) ? value.length === 0 : Object.keys(value as object).length === 0)
}

function inline(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'string') return scalar(value)
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null'
  if (typeof value === 'boolean') return String(value)
  return Array.isArray(value) ? '[]' : '{}'
}

function lines(value: unknown, indent: string, out: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      if (isScalar(item)) out.push(`${indent}- ${inline(item)}`)
      else {
        const nested: string[] = []
        lines(item, `${indent}  `, nested)
        // The first line of the item goes after the dash.
        out.push(`${indent}- ${nested[0]!.slice(indent.length + 2)}`, ...nested.slice(1))
      }
    }
    return
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined) continue
    if (isScalar(v)) out.push(`${indent}${key(k)}: ${inline(v)}`)
    else {
      out.push(`${indent}${key(k)}:`)
      lines(v, Array.isArray(v) ? indent : `${indent}  `, out)
    }
  }
}

/** The value (JSON data: objects, arrays, strings, finite numbers, booleans, null) as a YAML document. */
export function toYaml(value: unknown): string {
  if (isScalar(value)) return `${inline(value)}\n`
  const out: string[] = []
  lines(value, '', out)
  return `${out.join('\n')}\n`
}
