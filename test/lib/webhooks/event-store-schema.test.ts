/** The event log's tables: what a fresh log holds, and that opening it again changes nothing. (An 0.2 log's migration: event-store.test.ts.) */
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { ensureSchema } from '../../../src/lib/webhooks/event-store-schema.js'

const columns = (db: DatabaseSync, table: string) => (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name)

describe('ensureSchema', () => {
  it('gives a fresh log every column the store writes, 0.3 columns included, and is a no-op the second time', () => {
    const db = new DatabaseSync(':memory:')
    ensureSchema(db)
    const deliveries = columns(db, 'deliveries')
    expect(deliveries).toEqual(expect.arrayContaining(['seq', 'event_id', 'body', 'outcome', 'forward_url', 'body_size', 'route']))
    expect(columns(db, 'delivered')).toEqual(['event_id', 'target', 'delivered_at', 'seq'])
    ensureSchema(db)
    expect(columns(db, 'deliveries')).toEqual(deliveries)
    db.close()
  })
})
