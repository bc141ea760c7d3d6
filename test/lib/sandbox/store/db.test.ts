import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { expect, it } from 'vitest'
import { DB_FILE, openDatabase } from '../../../../src/lib/sandbox/store/db.js'

it('upgrades a data dir of 0.1, whose delivery tables the worker had made itself, and keeps its deliveries', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-db-'))
  openDatabase({ dataDir: dir }).close()
  // 0.1: schema version 1, and the delivery log created outside the migrations.
  const old = new DatabaseSync(join(dir, DB_FILE))
  old.exec(
    'DROP TABLE webhook_attempts; DROP TABLE webhook_deliveries; DROP TABLE webhook_endpoints; DROP TABLE withdrawals; DROP TABLE product_sales; DROP INDEX events_resource; ALTER TABLE events DROP COLUMN resource_key; DROP INDEX events_undispatched; ALTER TABLE events DROP COLUMN dispatched; PRAGMA user_version = 1',
  )
  old.exec(`CREATE TABLE webhook_endpoints (environment TEXT PRIMARY KEY, url TEXT NOT NULL, active INTEGER NOT NULL, saved_ms INTEGER NOT NULL, deactivated_ms INTEGER, last_success_ms INTEGER);
    CREATE TABLE webhook_deliveries (id INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, environment TEXT NOT NULL, body TEXT NOT NULL, url TEXT NOT NULL,
      state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, retry_index INTEGER NOT NULL DEFAULT 0, last_status INTEGER, last_error TEXT, last_response TEXT, next_retry_ms INTEGER,
      created_ms INTEGER NOT NULL, first_attempt_ms INTEGER, check_ms INTEGER);
    CREATE TABLE webhook_attempts (id INTEGER PRIMARY KEY AUTOINCREMENT, delivery_id INTEGER NOT NULL, attempt INTEGER NOT NULL, at_ms INTEGER NOT NULL, url TEXT NOT NULL,
      status INTEGER, error TEXT, response TEXT, duration_ms INTEGER NOT NULL, manual INTEGER NOT NULL);
    INSERT INTO webhook_deliveries (event_id, type, environment, body, url, state, created_ms) VALUES ('evt_old', 'charge.settled', 'test', '{}', 'http://127.0.0.1:1/', 'pending', 0);`)
  old.close()
  const db = openDatabase({ dataDir: dir })
  expect(db.prepare('SELECT event_id, resource_key FROM webhook_deliveries').all()).toEqual([{ event_id: 'evt_old', resource_key: null }])
  expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(6)
  db.close()
})
