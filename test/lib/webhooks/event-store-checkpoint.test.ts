import { statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EventStore } from '../../../src/lib/webhooks/event-store.js'
import { newDelivery } from '../../helpers/event-log.js'

const body = Buffer.alloc(3000, 0x61)

/** Records `cycles` × `each` deliveries, one commit per record, and returns the size of the write-ahead log. */
async function run(path: string, checkpointEvery: number, cycles: number, each: number) {
  const store = await EventStore.open({ path, checkpointEvery })
  for (let c = 0; c < cycles; c++) {
    for (let i = 0; i < each; i++) {
      store.record(newDelivery({ eventId: `evt_${c}_${i}`, body }))
      await store.committed()
    }
    await store.checkpointIdle()
  }
  const wal = statSync(`${path}-wal`).size
  const offThread = store.checkpointsOffThread
  store.close()
  return { wal, offThread }
}

describe('EventStore WAL checkpoints', () => {
  it('copies the log into the database on a worker thread, and the log starts over instead of growing while deliveries go on', async () => {
    const dir = process.env.SVC_CONFIG_DIR!
    const own = await run(join(dir, 'sqlite-own.db'), 0, 12, 10)
    const worker = await run(join(dir, 'worker.db'), 10, 12, 10)
    // SQLite's own checkpoint waits for 1000 pages: 120 deliveries of 3 KB stay in the log alone.
    expect(own.offThread).toBe(false)
    expect(worker.offThread).toBe(true)
    expect(worker.wal).toBeLessThan(own.wal / 3)
  })

  it('keeps every commit: what was recorded is there after a reopen', async () => {
    const path = join(process.env.SVC_CONFIG_DIR!, 'reopen.db')
    await run(path, 5, 6, 5)
    const store = await EventStore.open({ path })
    expect(store.list({ limit: 100 })).toHaveLength(30)
    store.close()
  })
})
