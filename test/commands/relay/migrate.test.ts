/**
 * `svc relay migrate --store URL` (CLI.md 0.5, "Several relay instances"): creates and upgrades
 * the versioned schema on a real PostgreSQL (test/helpers/postgres.ts), never printing the URL's
 * password.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import RelayMigrate from '../../../src/commands/relay/migrate.js'
import { LATEST_SCHEMA_VERSION } from '../../../src/lib/relay/store/postgres-schema.js'
import { createPgSchema, needsPostgres, PG_URL, type PgSchema } from '../../helpers/postgres.js'
import { runCommand } from '../../helpers/run-command.js'

/** The test URL with a password (trust auth ignores it) and this test's schema as search_path. */
function storeUrl(schema: string): string {
  const url = new URL(PG_URL)
  url.password = 'hunter2-secret'
  url.searchParams.set('options', `-c search_path=${schema}`)
  return url.toString()
}

describe('svc relay migrate', () => {
  let pg: PgSchema
  beforeEach(async (ctx) => {
    await needsPostgres(ctx)
    pg = await createPgSchema({ migrated: false })
  })
  afterEach(async () => {
    await pg?.drop()
    pg = undefined as unknown as PgSchema
  })

  it('creates the schema, then finds nothing to do; the password is never printed', async () => {
    const first = await runCommand(RelayMigrate, ['--store', storeUrl(pg.schema), '--json'])
    expect(first.exitCode).toBe(0)
    const out = JSON.parse(first.stdout)
    expect(out).toMatchObject({ from: null, to: LATEST_SCHEMA_VERSION, applied: [1] })
    expect(out.store).toContain(':***@')
    expect((await pg.sql('SELECT count(*) AS n FROM relay_channels'))[0]!.n).toBe('0')
    const again = await runCommand(RelayMigrate, [], { env: { SVC_RELAY_STORE: storeUrl(pg.schema) } })
    expect(again.exitCode).toBe(0)
    expect(again.stdout).toMatch(/at version 1: nothing to do/)
    expect(first.stdout + first.stderr + again.stdout + again.stderr).not.toContain('hunter2')
  })

  it('refuses to downgrade a newer schema (exit 2)', async () => {
    await runCommand(RelayMigrate, ['--store', storeUrl(pg.schema)])
    await pg.sql("INSERT INTO svc_relay_schema_version (version, description) VALUES (7, 'future')")
    const r = await runCommand(RelayMigrate, ['--store', storeUrl(pg.schema)])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/version 7, newer than this svc knows/)
  })
})

describe('svc relay migrate: bad input, nothing sent', () => {
  it('needs a store URL (exit 2, naming --store)', async () => {
    const r = await runCommand(RelayMigrate, [], { env: { SVC_RELAY_STORE: undefined } })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/--store is needed/)
  })

  it('takes only postgres:// URLs', async () => {
    const r = await runCommand(RelayMigrate, ['--store', 'mysql://u:pw-secret@db/x'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/--store takes a postgres:\/\/ URL/)
    expect(r.stderr).not.toContain('pw-secret')
  })

  it('an unreachable PostgreSQL exits 7, its password masked', async () => {
    const r = await runCommand(RelayMigrate, ['--store', 'postgres://relay:pw-secret@127.0.0.1:1/relay'])
    expect(r.exitCode).toBe(7)
    expect(r.stderr).toMatch(/cannot be reached/)
    expect(r.stderr).not.toContain('pw-secret')
  })
})
