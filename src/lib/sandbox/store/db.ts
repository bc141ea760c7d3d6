/**
 * The sandbox's database: node:sqlite, one file `sandbox.db` in the data dir (created 0600,
 * WAL so a crash never corrupts it) or `:memory:`. Migrations are numbered and run once, in
 * order, tracked by `PRAGMA user_version`, so a data dir made by an older sandbox upgrades.
 */
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'

import { DB_FILE } from './files.js'

export { DB_FILE }

const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE api_keys (
    key TEXT PRIMARY KEY,
    environment TEXT NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
  );
  CREATE TABLE charges (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    environment TEXT NOT NULL,
    external_id TEXT,
    status TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    request_hash TEXT NOT NULL,
    body TEXT NOT NULL
  );
  CREATE UNIQUE INDEX charges_external_id ON charges (environment, external_id) WHERE external_id IS NOT NULL;
  CREATE INDEX charges_listing ON charges (environment, created_ms DESC, id DESC);
  CREATE TABLE idempotency (
    environment TEXT NOT NULL,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    charge_id TEXT,
    created_ms INTEGER NOT NULL,
    PRIMARY KEY (environment, key)
  );
  CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL,
    environment TEXT NOT NULL,
    created_at TEXT NOT NULL,
    charge_id TEXT,
    body TEXT NOT NULL
  );
  CREATE INDEX events_charge ON events (charge_id);
  `,
  // The webhook delivery log (spec 6.4 item 9). IF NOT EXISTS: data dirs of 0.1 have these
  // tables already, made by the delivery worker itself before they moved here.
  `
  CREATE TABLE IF NOT EXISTS webhook_endpoints (
    environment TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    active INTEGER NOT NULL,
    saved_ms INTEGER NOT NULL,
    deactivated_ms INTEGER,
    last_success_ms INTEGER
  );
  CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL,
    environment TEXT NOT NULL,
    body TEXT NOT NULL,
    url TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    retry_index INTEGER NOT NULL DEFAULT 0,
    last_status INTEGER,
    last_error TEXT,
    last_response TEXT,
    next_retry_ms INTEGER,
    created_ms INTEGER NOT NULL,
    first_attempt_ms INTEGER,
    check_ms INTEGER
  );
  CREATE INDEX IF NOT EXISTS webhook_deliveries_env ON webhook_deliveries (environment, id DESC);
  CREATE INDEX IF NOT EXISTS webhook_deliveries_pending ON webhook_deliveries (state) WHERE state = 'pending';
  CREATE INDEX IF NOT EXISTS webhook_deliveries_check ON webhook_deliveries (check_ms) WHERE check_ms IS NOT NULL;
  CREATE TABLE IF NOT EXISTS webhook_attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    delivery_id INTEGER NOT NULL,
    attempt INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    url TEXT NOT NULL,
    status INTEGER,
    error TEXT,
    response TEXT,
    duration_ms INTEGER NOT NULL,
    manual INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS webhook_attempts_delivery ON webhook_attempts (delivery_id, id);
  `,
  // The resource a delivery is about (`charge:<id>`, `withdrawal:<id>`…): its first attempts go
  // out in order, also after a restart.
  `
  ALTER TABLE webhook_deliveries ADD COLUMN resource_key TEXT;
  `,
  // The resources beside charges (withdrawals, product sales; a split charge is a charge with its
  // split inside), and the resource every event is about, so the panel can list a resource's events.
  `
  ALTER TABLE events ADD COLUMN resource_key TEXT;
  CREATE INDEX events_resource ON events (resource_key);
  CREATE TABLE withdrawals (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    environment TEXT NOT NULL,
    status TEXT NOT NULL,
    outcome TEXT NOT NULL,
    due_ms INTEGER,
    body TEXT NOT NULL
  );
  CREATE TABLE product_sales (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    body TEXT NOT NULL
  );
  `,
  // At least once across a crash: an event is saved with its resource as not yet handed to the
  // delivery worker, and marked in the same commit as its delivery row; a restart hands over
  // again what a kill -9 cut between the two. Events of older data dirs count as handed over.
  `
  ALTER TABLE events ADD COLUMN dispatched INTEGER NOT NULL DEFAULT 1;
  CREATE INDEX events_undispatched ON events (seq) WHERE dispatched = 0;
  `,
  // The faults `--webhook-faults` injected, per attempt and per delivery (comma-separated marks),
  // so the delivery log tells an injected failure from a real one.
  `
  ALTER TABLE webhook_attempts ADD COLUMN injected TEXT;
  ALTER TABLE webhook_deliveries ADD COLUMN injected TEXT;
  `,
]

/** Opens (creating when needed) the sandbox database and brings its schema up to date. */
export function openDatabase(opts: { dataDir?: string; inMemory?: boolean }): DatabaseSync {
  let db: DatabaseSync
  if (opts.inMemory || !opts.dataDir) {
    db = new DatabaseSync(':memory:')
  } else {
    mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 })
    const file = join(opts.dataDir, DB_FILE)
    // Create the file ourselves so that it is never world-readable, even for an instant: it holds keys.
    closeSync(openSync(file, 'a', 0o600))
    chmodSync(file, 0o600)
    db = new DatabaseSync(file)
    db.exec('PRAGMA journal_mode = WAL')
    db.exec('PRAGMA synchronous = NORMAL')
  }
  db.exec('PRAGMA foreign_keys = ON')
  db.exec('PRAGMA busy_timeout = 2000')
  migrate(db)
  return db
}

/** Brings a database's schema up to date (openDatabase does it; exported for stores tested on their own). */
export function migrate(db: DatabaseSync): void {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number }
  for (let v = row.user_version; v < MIGRATIONS.length; v++) {
    transaction(db, () => {
      db.exec(MIGRATIONS[v]!)
      db.exec(`PRAGMA user_version = ${v + 1}`)
    })
  }
}

/** Runs `fn` in one transaction: all of it is written, or none of it. */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE')
  try {
    const result = fn()
    db.exec('COMMIT')
    return result
  } catch (err) {
    db.exec('ROLLBACK')
    throw err
  }
}
