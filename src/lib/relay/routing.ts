/**
 * Which deliveries a token receives: `--only` event-type patterns (exact, or `prefix.*` as
 * `listen --events`) and `--match PATH=GLOB` rules on the parsed body (a dotted path, a glob
 * where `*` is any run and `?` one character; every rule must hold). A delivery a token's
 * routing excludes is acked by the relay itself, so the token's cursor moves past it.
 */
import type { MatchRule } from './store/types.js'

export interface Routing {
  only: readonly string[]
  match: readonly MatchRule[]
}

export function typeMatches(type: string | undefined, only: readonly string[]): boolean {
  if (only.length === 0) return true
  if (type === undefined) return false
  return only.some((p) => (p.endsWith('*') ? type.startsWith(p.slice(0, -1)) : p === type))
}

const globs = new Map<string, RegExp>()

export function globToRegExp(glob: string): RegExp {
  let re = globs.get(glob)
  if (!re) {
    const body = [...glob].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[\\^$.+()[\]{}|/-]/g, '\\$&'))).join('')
    re = new RegExp(`^${body}$`, 's')
    if (globs.size > 1000) globs.clear()
    globs.set(glob, re)
  }
  return re
}

/** The value at a dotted path as text (strings, numbers, booleans), or undefined. */
export function valueAt(event: unknown, path: string): string | undefined {
  let v: unknown = event
  for (const key of path.split('.')) {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.hasOwn(v, key)) return undefined
    v = (v as Record<string, unknown>)[key]
  }
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined
}

export function routes(routing: Routing, type: string | undefined, event: unknown): boolean {
  if (!typeMatches(type, routing.only)) return false
  return routing.match.every((rule) => {
    const v = valueAt(event, rule.path)
    return v !== undefined && globToRegExp(rule.glob).test(v)
  })
}

/** `PATH=GLOB` → a rule, or why not (the caller names the flag). */
export function parseMatchRule(raw: string): MatchRule | string {
  const eq = raw.indexOf('=')
  if (eq <= 0) return `"${raw}" is not PATH=GLOB (e.g. data.charge.externalId=alice-*)`
  const path = raw.slice(0, eq).trim()
  const glob = raw.slice(eq + 1)
  if (!/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/.test(path)) return `"${path}" is not a dotted path into the event (e.g. data.charge.externalId)`
  if (glob.length === 0) return `"${raw}" has an empty glob after =`
  if (glob.length > 256) return 'the glob is longer than 256 characters'
  return { path, glob }
}
