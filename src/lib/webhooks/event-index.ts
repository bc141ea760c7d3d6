/**
 * Which events the event log holds a "delivered" mark for, in memory (webhooks/event-store.ts
 * keeps it in step), so that the listener's deduplication reads nothing from SQLite for a new
 * event (outside a transaction, any statement takes and lets go of SQLite's read lock: 6–7 µs of
 * CPU a delivery). It counts marks per 30-bit hash of the event id: "no mark" is exact and
 * answered here, "maybe" (a mark, or another event with the same hash: about one in 10 000 at the
 * log's 100 000-mark cap) is for SQL to confirm. Numbers only, no object per event: the garbage
 * collector has nothing to walk, and the whole cap takes a few MB.
 *
 * It also counts the marks it holds and keeps the newest delivery seq it saw, so that the store
 * can tell, after another process wrote to the log, whether reading the marks made since is enough
 * (none was deleted there) or the index must be loaded again.
 */
export class EventIndex {
  private readonly byHash = new Map<number, number>()
  /** Marks held. */
  marks = 0
  /** The newest delivery seq seen: marks after it are another process's, not yet read. */
  lastSeq = 0

  /** False when the log holds no mark for this event; true when it may (SQL says which). */
  mayHave(eventId: string): boolean {
    return this.byHash.has(hashId(eventId))
  }

  /** A delivery seq seen (recorded here, or a mark read from the log). */
  saw(seq: number): void {
    if (seq > this.lastSeq) this.lastSeq = seq
  }

  /** A new mark for this event (one per target). */
  add(eventId: string): void {
    const h = hashId(eventId)
    this.byHash.set(h, (this.byHash.get(h) ?? 0) + 1)
    this.marks++
  }

  /** A mark pruned. */
  remove(eventId: string): void {
    const h = hashId(eventId)
    const n = this.byHash.get(h)
    if (n === undefined) return
    if (n > 1) this.byHash.set(h, n - 1)
    else this.byHash.delete(h)
    this.marks--
  }
}

/** FNV-1a over the UTF-16 code units, cut to 30 bits (a small integer for V8: no allocation). */
export function hashId(id: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193)
  return h >>> 2
}
