/**
 * The `--events` filter of `svc webhooks listen`. A filtered-out event is answered 2xx (the
 * service then never retries it), so a typo in the filter silently loses events for the app:
 * every entry is checked against the spec's event types before the listener starts.
 */
import { EVENT_TYPES } from '../contract/event-types.js'
import { UsageError } from '../errors.js'
import { editDistance } from '../domain/edit-distance.js'

/** Whether `type` passes the filter; entries ending in `*` match a prefix (`charge.*`). */
export function matchesEventFilter(type: string | undefined, filter: readonly string[] | undefined): boolean {
  if (!filter || filter.length === 0) return true
  if (!type) return false
  return filter.some((f) => (f.endsWith('*') ? type.startsWith(f.slice(0, -1)) : f === type))
}

/** The known event type (or `prefix.*` pattern) nearest to what was typed, when one is near enough to be a typo. */
export function closestEventType(entry: string): string | undefined {
  const wildcard = entry.endsWith('*')
  const candidates = wildcard ? [...new Set(EVENT_TYPES.map((t) => `${t.slice(0, t.lastIndexOf('.'))}.*`))] : [...EVENT_TYPES]
  const typed = entry.toLowerCase()
  let best: { name: string; d: number } | undefined
  for (const name of candidates) {
    const d = editDistance(typed, name)
    if (!best || d < best.d) best = { name, d }
  }
  return best && best.d <= Math.max(2, Math.floor(entry.length / 3)) ? best.name : undefined
}

/**
 * Checks one pattern (an exact type or `prefix.*`) against the spec's event types; one that can
 * match none is a usage error (exit 2) naming `flag` (`--events`, `--forward`).
 */
function checkEventPattern(entry: string, flag: string): void {
  const known = entry.endsWith('*') ? EVENT_TYPES.some((t) => t.startsWith(entry.slice(0, -1))) : (EVENT_TYPES as readonly string[]).includes(entry)
  if (known) return
  const near = closestEventType(entry)
  const what = entry.endsWith('*') ? 'matches no known event type' : 'is not a known event type'
  throw new UsageError(`--${flag}: "${entry}" ${what}${near ? ` (did you mean ${near}?)` : ''}.`, {
    field: flag,
    hint: `Known types: ${EVENT_TYPES.join(', ')}; a trailing * matches a prefix (charge.*, withdrawal.*). Events filtered out are answered 2xx and never retried.`,
  })
}

/** Parses `--events a,b,prefix.*`; an entry that can match no known event type is a usage error (exit 2). */
export function parseEventFilter(raw: string, flag = 'events'): string[] {
  const entries = [
    ...new Set(
      raw
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean),
    ),
  ]
  if (entries.length === 0) throw new UsageError(`--${flag} needs at least one event type.`, { field: flag })
  for (const entry of entries) checkEventPattern(entry, flag)
  return entries
}
