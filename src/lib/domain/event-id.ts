/**
 * The one format of an event id, the sandbox's and the check battery's alike: `evt_`, the event's
 * instant (12 hex) and 48 random bits (12 hex), which the caller draws. Ids that grow with time
 * land at the end of the sandbox's unique indexes instead of on a random page each.
 */

/** An instant in ms as 12 hex characters (sorts like the instant until the year 10889). */
export function instantHex(ms: number): string {
  return Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0').slice(-12)
}

/** `randomHex12`: 12 random hex characters (6 bytes). */
export function eventIdAt(atMs: number, randomHex12: string): string {
  return `evt_${instantHex(atMs)}${randomHex12}`
}
