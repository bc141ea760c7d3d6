/**
 * The event log's tables (webhooks/event-store.ts), and the migrations a log written by an older
 * svc goes through when it is opened: one place to read what is on disk and how it got there.
 */
import type { DatabaseSync } from 'node:sqlite'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  received_at TEXT NOT NULL,
  source TEXT NOT NULL,
  event_id TEXT,
  event_type TEXT,
  charge_id TEXT,
  attempt INTEGER NOT NULL,
  headers TEXT NOT NULL,
  body BLOB NOT NULL,
  verification TEXT NOT NULL,
  verify_reason TEXT,
  verify_message TEXT,
  outcome TEXT NOT NULL,
  answered_status INTEGER NOT NULL,
  forward_url TEXT,
  forward_status INTEGER,
  latency_ms INTEGER,
  error TEXT,
  response_snippet TEXT
);
CREATE INDEX IF NOT EXISTS deliveries_event ON deliveries(event_id, seq);
CREATE INDEX IF NOT EXISTS deliveries_type ON deliveries(event_type, seq);
`

/**
 * The events that reached an app with a 2xx, one mark per (event id, target URL): each target
 * gets each of its events once. A mark made before routing existed (0.2's table, keyed by the
 * event id alone) is migrated with the URL it was forwarded to, or `*` (any target) when that
 * delivery was pruned since; an older svc writing here leaves `*` too (the default).
 */
const DELIVERED_SCHEMA = `
CREATE TABLE IF NOT EXISTS delivered (
  event_id TEXT NOT NULL,
  target TEXT NOT NULL DEFAULT '*',
  delivered_at TEXT NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (event_id, target)
);
CREATE INDEX IF NOT EXISTS delivered_seq ON delivered(seq);
`

/** Moves 0.2's `delivered` (keyed by event id) to the per-target table, once, in one transaction. */
function migrateDelivered(db: DatabaseSync): void {
  const hasOld = () => {
    const cols = db.prepare('PRAGMA table_info(delivered)').all() as Array<{ name: string }>
    return cols.length > 0 && !cols.some((c) => c.name === 'target')
  }
  if (!hasOld()) return
  db.exec('BEGIN IMMEDIATE')
  try {
    // Another process may have migrated it while this one waited for the lock.
    if (hasOld()) {
      db.exec('ALTER TABLE delivered RENAME TO delivered_v1; DROP INDEX IF EXISTS delivered_seq;')
      db.exec(DELIVERED_SCHEMA)
      db.exec(`INSERT OR IGNORE INTO delivered (event_id, target, delivered_at, seq)
        SELECT d.event_id, COALESCE((SELECT forward_url FROM deliveries WHERE seq = d.seq), '*'), d.delivered_at, d.seq FROM delivered_v1 d;
        DROP TABLE delivered_v1;`)
    }
    db.exec('COMMIT')
  } catch (err) {
    if (db.isTransaction) db.exec('ROLLBACK')
    throw err
  }
}

/** Added after the first release: a log made by an older version gets the column on open. */
function migrate(db: DatabaseSync): void {
  const columns = db.prepare('PRAGMA table_info(deliveries)').all() as Array<{ name: string }>
  if (!columns.some((c) => c.name === 'body_size')) db.exec('ALTER TABLE deliveries ADD COLUMN body_size INTEGER')
  // 0.3: the --forward pattern that routed the event (NULL for the default target and older rows).
  if (!columns.some((c) => c.name === 'route')) db.exec('ALTER TABLE deliveries ADD COLUMN route TEXT')
}

/** Creates what is missing and brings an older log up to date; safe to run on every open, by several processes. */
export function ensureSchema(db: DatabaseSync): void {
  db.exec(SCHEMA)
  migrateDelivered(db)
  db.exec(DELIVERED_SCHEMA)
  migrate(db)
}
