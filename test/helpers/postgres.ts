/**
 * Tests of the relay's PostgreSQL store run against a real server, never a mock: SVC_TEST_PG_URL
 * (default postgres://postgres@127.0.0.1:5432/test). Each test file works in a schema of its own
 * (`relay_test_<random>`, reached through the connections' search_path), dropped after.
 *
 * Without a server the tests are skipped with the note `needs postgresql: …` (the needs reporter
 * lists it with how to start one), except in CI (CI=true), where they fail: CI never passes
 * without having run them.
 */
import { randomBytes } from 'node:crypto'
import type { TestContext } from 'vitest'
import { migrate } from '../../src/lib/relay/store/postgres-schema.js'
import { connectPostgresForMigrate, openPostgresRelayStore, type PostgresRelayStore, type PostgresStoreOptions } from '../../src/lib/relay/store/postgres.js'

export const PG_URL = process.env.SVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
export const PG_INSTALL = 'docker run -d --name svc-pg -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust -e POSTGRES_DB=test postgres:17 (or apt-get install -y postgresql), or point SVC_TEST_PG_URL at one'

let reachable: Promise<string | undefined> | undefined

/** undefined when PostgreSQL answers at PG_URL, else why not. */
export function postgresProblem(): Promise<string | undefined> {
  reachable ??= (async () => {
    try {
      const c = await connectPostgresForMigrate(PG_URL, { connectTimeoutMs: 2000 })
      await c.end()
      return undefined
    } catch (err) {
      return err instanceof Error ? err.message : String(err)
    }
  })()
  return reachable
}

/** In a test or beforeAll/beforeEach: skips (or, in CI, fails) when there is no PostgreSQL. */
export async function needsPostgres(ctx: TestContext | { skip: (note: string) => never }): Promise<void> {
  const problem = await postgresProblem()
  if (!problem) return
  const note = `needs postgresql: ${PG_INSTALL}`
  if (process.env.CI === 'true' || process.env.CI === '1') throw new Error(`PostgreSQL is not reachable at SVC_TEST_PG_URL (${problem}), and CI runs every test (${note}).`)
  ctx.skip(note)
}

export interface PgSchema {
  url: string
  schema: string
  /** A store on this schema (migrated); closed by drop(). */
  open(options?: PostgresStoreOptions): Promise<PostgresRelayStore>
  /** Runs SQL in this schema (for assertions and faults). */
  sql(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>
  drop(): Promise<void>
}

/** A fresh schema `relay_test_<random>`, migrated unless `migrated: false`. */
export async function createPgSchema(options: { migrated?: boolean } = {}): Promise<PgSchema> {
  const schema = `relay_test_${randomBytes(6).toString('hex')}`
  const admin = await connectPostgresForMigrate(PG_URL, { applicationName: 'svc-relay-test-admin' })
  await admin.query(`CREATE SCHEMA ${schema}`)
  await admin.query(`SET search_path = ${schema}`)
  if (options.migrated !== false) await migrate(admin)
  const stores: PostgresRelayStore[] = []
  return {
    url: PG_URL,
    schema,
    async open(opts = {}) {
      const store = await openPostgresRelayStore(PG_URL, { schema, pollMs: 200, ...opts })
      stores.push(store)
      return store
    },
    async sql(text, values) {
      return (await admin.query(text, values)).rows
    },
    async drop() {
      await Promise.all(stores.map((s) => s.close()))
      await admin.query(`DROP SCHEMA ${schema} CASCADE`)
      await admin.end()
    },
  }
}
