/**
 * What a crash keeps: creations are group-committed, and a 201 goes out only once its commit is
 * done. The data dir is copied while the sandbox still runs (what a kill -9 would leave on disk:
 * never closed, never checkpointed) and a second sandbox starts on the copy.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DB_FILE } from '../../../../src/lib/sandbox/store/db.js'
import { type Harness, startHarness } from '../../../helpers/conformance.js'

let open: Harness[] = []
afterEach(async () => {
  for (const h of open) await h.close()
  open = []
})

describe('a crash after the answers', () => {
  it('keeps every charge answered 201, with its idempotency record, after a restart on what was on disk', async () => {
    const root = mkdtempSync(join(tmpdir(), 'svc-crash-'))
    const live = await startHarness({ inMemory: false, dataDir: join(root, 'live') })
    open.push(live)
    // 30 creations at once: they share group commits.
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => live.create({ amountInCents: 2000 + i }, i % 2 ? { headers: { 'idempotency-key': `crash-${i}` } } : {})))
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(201))

    const copy = join(root, 'copy')
    mkdirSync(copy)
    for (const f of [DB_FILE, `${DB_FILE}-wal`]) if (existsSync(join(root, 'live', f))) copyFileSync(join(root, 'live', f), join(copy, f))
    const after = await startHarness({ inMemory: false, dataDir: copy })
    open.push(after)
    expect(after.sb.testKey).toBe(live.sb.testKey)

    for (const a of answers) {
      const got = await after.call('GET', `/v1/charges/${a.body.id}`)
      expect(got.status).toBe(200)
      expect(got.body).toMatchObject({ id: a.body.id, status: 'awaiting_payment', amount: a.body.amount })
    }
    const replay = await after.create({ amountInCents: 2001 }, { headers: { 'idempotency-key': 'crash-1' } })
    expect(replay.status).toBe(200)
    expect(replay.body.id).toBe(answers[1]!.body.id)
  })
})
