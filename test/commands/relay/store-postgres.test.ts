/**
 * The relay's commands on a PostgreSQL store (`--store postgres://…` or SVC_RELAY_STORE), against
 * a real server (test/helpers/postgres.ts): admin commands and status on a migrated schema; serve
 * and the admin commands refuse a schema not migrated yet (exit 2, naming svc relay migrate); the
 * URL's password is never printed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import RelayChannelAdd from '../../../src/commands/relay/channel/add.js'
import RelayServe from '../../../src/commands/relay/serve.js'
import RelayStatus from '../../../src/commands/relay/status.js'
import RelayTokenCreate from '../../../src/commands/relay/token/create.js'
import { createPgSchema, needsPostgres, PG_URL, type PgSchema } from '../../helpers/postgres.js'
import { RELAY_SECRET } from '../../helpers/relay.js'
import { runCommand } from '../../helpers/run-command.js'

function storeUrl(schema: string): string {
  const url = new URL(PG_URL)
  url.password = 'hunter2-secret'
  url.searchParams.set('options', `-c search_path=${schema}`)
  return url.toString()
}

describe('svc relay on a PostgreSQL store', () => {
  let pg: PgSchema
  afterEach(async () => {
    await pg?.drop()
    pg = undefined as unknown as PgSchema
  })

  describe('migrated', () => {
    beforeEach(async (ctx) => {
      await needsPostgres(ctx)
      pg = await createPgSchema()
    })

    it('channel add, token create and status work on it, by --store or SVC_RELAY_STORE', async () => {
      const added = await runCommand(RelayChannelAdd, ['team', '--secret', RELAY_SECRET, '--store', storeUrl(pg.schema), '--json'])
      expect(added.exitCode).toBe(0)
      const env = { SVC_RELAY_STORE: storeUrl(pg.schema) }
      const token = await runCommand(RelayTokenCreate, ['alice', '--channel', 'team', '--json'], { env })
      expect(token.exitCode).toBe(0)
      expect(JSON.parse(token.stdout)).toMatchObject({ name: 'alice', channel: 'team', token: expect.stringMatching(/^svcrelay_/) })
      const status = await runCommand(RelayStatus, ['--json'], { env })
      expect(status.exitCode).toBe(0)
      expect(JSON.parse(status.stdout)).toMatchObject({ store: 'postgres', channels: [{ name: 'team', deliveries: 0 }], tokens: [expect.objectContaining({ name: 'alice', backlog: 0 })] })
      // The token is stored only as its hash.
      const rows = await pg.sql('SELECT hash FROM relay_tokens')
      expect(rows[0]!.hash).toMatch(/^[0-9a-f]{64}$/)
      expect(JSON.stringify(rows)).not.toContain(JSON.parse(token.stdout).token)
      for (const r of [added, token, status]) expect(r.stdout + r.stderr).not.toContain('hunter2')
    })
  })

  describe('not migrated', () => {
    beforeEach(async (ctx) => {
      await needsPostgres(ctx)
      pg = await createPgSchema({ migrated: false })
    })

    it('serve and status refuse it with exit 2 naming svc relay migrate, the password masked', async () => {
      const serve = await runCommand(RelayServe, ['--port', '0', '--store', storeUrl(pg.schema)])
      expect(serve.exitCode).toBe(2)
      expect(serve.stderr).toMatch(/svc relay migrate/)
      const status = await runCommand(RelayStatus, ['--store', storeUrl(pg.schema)])
      expect(status.exitCode).toBe(2)
      expect(status.stderr).toMatch(/svc relay migrate/)
      expect(serve.stdout + serve.stderr + status.stdout + status.stderr).not.toContain('hunter2')
    })
  })
})
