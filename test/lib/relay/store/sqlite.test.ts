import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openSqliteRelayStore, RELAY_DB_FILE } from '../../../../src/lib/relay/store/sqlite.js'
import { describeRelayStore } from '../store-contract.js'

const dirs: string[] = []
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'svc-relay-store-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describeRelayStore('sqlite', () => openSqliteRelayStore({ dir: tempDir() }))
describeRelayStore('sqlite, durability full', () => openSqliteRelayStore({ dir: tempDir(), durability: 'full' }))

describe('sqlite relay store file', () => {
  it('is relay.db, readable by its owner only, and keeps what was committed across a reopen', async () => {
    const dir = tempDir()
    const a = await openSqliteRelayStore({ dir })
    await a.addChannel({ name: 'team', secrets: ['whsec_aaaaaaaaaaaaaaaaaaaa'], createdAt: new Date().toISOString() })
    await a.close()
    expect(statSync(join(dir, RELAY_DB_FILE)).mode & 0o777).toBe(0o600)
    const b = await openSqliteRelayStore({ dir })
    expect((await b.listChannels()).map((c) => c.name)).toEqual(['team'])
    await b.close()
  })

  it('two handles on one file (serve and an admin command) see each other', async () => {
    const dir = tempDir()
    const serve = await openSqliteRelayStore({ dir })
    const admin = await openSqliteRelayStore({ dir })
    await admin.addChannel({ name: 'team', secrets: ['s'], createdAt: new Date().toISOString() })
    await admin.createToken({ name: 'alice', channel: 'team', hash: 'a'.repeat(64), only: [], match: [], createdAt: new Date().toISOString() })
    expect((await serve.findToken('a'.repeat(64)))?.name).toBe('alice')
    await admin.revokeToken('alice', new Date().toISOString())
    expect(await serve.findToken('a'.repeat(64))).toBeUndefined()
    await admin.close()
    await serve.close()
  })
})
