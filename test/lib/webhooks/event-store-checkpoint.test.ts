import { closeSync, openSync, readSync, statSync } from 'node:fs'
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

  it('starts the log over while deliveries keep coming, never waiting for a quiet moment', async () => {
    // One commit per delivery and no pause for the checkpoint: the log must still start over, so
    // that its file stops growing once the first cycles are done. (Holding the next commit while
    // the worker copied could not: that commit's transaction was open already, and the log grew
    // by every delivery, ~40 KB each here, 20 MB for each 500.)
    const path = join(process.env.SVC_CONFIG_DIR!, 'busy.db')
    const store = await EventStore.open({ path, checkpointEvery: 20 })
    // SQLite gives the log a new salt (its header's bytes 16-19) each time it starts it over.
    const salt = () => {
      const fd = openSync(`${path}-wal`, 'r')
      try {
        const head = Buffer.alloc(4)
        readSync(fd, head, 0, 4, 16)
        return head.readUInt32BE(0)
      } finally {
        closeSync(fd)
      }
    }
    const deliver = async (from: number, n: number) => {
      const salts = new Set<number>()
      for (let i = from; i < from + n; i++) {
        store.record(newDelivery({ eventId: `evt_busy_${i}`, body }))
        await store.committed()
        salts.add(salt())
      }
      return salts.size - 1
    }
    // The worker thread takes a while to start: its first cycle is let finish before measuring.
    await deliver(0, 40)
    await store.checkpointIdle()
    // How often depends on how fast the worker copies (a busy machine makes cycles longer, and the
    // file larger in between: 9.7 MB once with both cores taken), not whether.
    expect(await deliver(40, 500)).toBeGreaterThanOrEqual(1)
    expect(await deliver(540, 500)).toBeGreaterThanOrEqual(1)
    expect(store.checkpointsOffThread).toBe(true)
    expect(store.list({ limit: 2000 })).toHaveLength(1040)
    store.close()
  })

  it('starts its checkpoints after a tenth as many commits as records: a listener answering one delivery at a time', async () => {
    const path = join(process.env.SVC_CONFIG_DIR!, 'lone.db')
    const store = await EventStore.open({ path, checkpointEvery: 1000 })
    for (let i = 0; i < 99; i++) {
      store.record(newDelivery({ eventId: `evt_lone_${i}`, body }))
      await store.committed()
    }
    expect(store.checkpointsOffThread).toBe(false)
    store.record(newDelivery({ eventId: 'evt_lone_99', body }))
    await store.committed()
    // 100 commits of one delivery: about SQLite's own 1000 pages of log, the cycle's size.
    expect(store.checkpointsOffThread).toBe(true)
    store.close()
  })

  it('keeps every commit: what was recorded is there after a reopen', async () => {
    const path = join(process.env.SVC_CONFIG_DIR!, 'reopen.db')
    await run(path, 5, 6, 5)
    const store = await EventStore.open({ path })
    expect(store.list({ limit: 100 })).toHaveLength(30)
    store.close()
  })
})
