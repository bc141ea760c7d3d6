/** The versioned schema, on a real PostgreSQL (test/helpers/postgres.ts). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkSchema, LATEST_SCHEMA_VERSION, MIGRATIONS, migrate, RelaySchemaError } from '../../../../src/lib/relay/store/postgres-schema.js'
import { createPgSchema, needsPostgres, type PgSchema } from '../../../helpers/postgres.js'

describe('relay schema migrations', () => {
  let pg: PgSchema
  const db = { query: async (text: string, values?: unknown[]) => ({ rows: await pg.sql(text, values), rowCount: null }) }
  beforeEach(async (ctx) => {
    await needsPostgres(ctx)
    pg = await createPgSchema({ migrated: false })
  })
  afterEach(async () => {
    await pg?.drop()
    pg = undefined as unknown as PgSchema
  })

  it('creates the schema from nothing, records each version, and a second run applies nothing', async () => {
    await expect(checkSchema(db)).rejects.toThrow(/svc relay migrate/)
    const first = await migrate(db)
    expect(first).toEqual({ from: undefined, to: LATEST_SCHEMA_VERSION, applied: MIGRATIONS.map((m) => m.version) })
    expect(await checkSchema(db)).toBe(LATEST_SCHEMA_VERSION)
    expect(await migrate(db)).toEqual({ from: LATEST_SCHEMA_VERSION, to: LATEST_SCHEMA_VERSION, applied: [] })
    const versions = await pg.sql('SELECT version FROM svc_relay_schema_version ORDER BY version')
    expect(versions.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version))
  })

  it('never downgrades a schema newer than it knows, and leaves it as it was', async () => {
    await migrate(db)
    await pg.sql("INSERT INTO svc_relay_schema_version (version, description) VALUES (1000, 'future')")
    await expect(migrate(db)).rejects.toBeInstanceOf(RelaySchemaError)
    await expect(checkSchema(db)).rejects.toThrow(/1000, newer than this svc knows/)
    expect((await pg.sql('SELECT max(version) AS v FROM svc_relay_schema_version'))[0]!.v).toBe(1000)
  })

  it('migrations are numbered in order, each once', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1))
  })
})
