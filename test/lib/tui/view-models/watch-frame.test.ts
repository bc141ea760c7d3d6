import { describe, expect, it } from 'vitest'
import type { FrameRow } from '../../../../src/lib/tui/text/fit.js'
import { ChargeWatcher } from '../../../../src/lib/tui/view-models/charge-watcher.js'
import { watchFrame } from '../../../../src/lib/tui/view-models/watch-frame.js'
import { fakeApi } from '../../../helpers/watch-api.js'

const ids = ['a', 'b', 'c', 'd', 'e', 'f'].map((c) => c.repeat(24))

async function state(n: number) {
  const watcher = new ChargeWatcher({ client: fakeApi(Object.fromEntries(ids.slice(0, n).map((id) => [id, 'awaiting_payment']))) as never })
  await watcher.poll()
  return watcher.getSnapshot()
}

const keys = (rows: FrameRow[]) => rows.map((r) => r.key)

describe("charges watch's frame as rows", () => {
  it('is the header, a gap, a lane per charge, the legend and the keys, on a tall terminal', async () => {
    const f = watchFrame({ state: await state(2), scope: 'the 10 newest charges', intervalMs: 2000, columns: 100, height: 30, details: false, statusLines: [] })
    expect(keys(f.rows)).toEqual(['header', 'gap', `lane:${ids[0]}`, `lane:${ids[1]}`, 'legend', 'keys'])
    expect(f.rows.at(-1)).toEqual({ kind: 'text', text: '↑/↓ select · Enter details · q quit', style: { dim: true }, key: 'keys' })
  })

  it('says loading before the first poll, and keeps below the terminal height by scrolling lanes around the selected one', async () => {
    const empty = new ChargeWatcher({ client: fakeApi({}) as never }).getSnapshot()
    expect(watchFrame({ state: empty, scope: 's', intervalMs: 2000, columns: 80, height: 24, details: false, statusLines: [] }).rows.map((r) => (r.kind === 'text' ? r.text : r.kind))).toEqual([
      'fit',
      'blank',
      'loading…',
      '↑/↓ select · Enter details · q quit',
    ])
    const f = watchFrame({ state: await state(6), scope: 's', intervalMs: 2000, columns: 100, height: 7, selected: ids[5], details: false, statusLines: ['one', 'two', 'three'] })
    expect(f.rows.length).toBeLessThanOrEqual(6)
    expect(f.index).toBe(5)
    expect(keys(f.rows)).toEqual(['header', `lane:${ids[5]}`, 'legend', 'status:0', 'status:1', 'keys'])
    expect(f.rows.filter((r) => r.kind === 'text' && r.key?.startsWith('status')).map((r) => (r as { text: string }).text)).toEqual(['two', 'three'])
  })

  it("gives the open details box its rows as the view's own part", async () => {
    const f = watchFrame({ state: await state(1), scope: 's', intervalMs: 2000, columns: 100, height: 30, details: true, statusLines: [] })
    expect(f.rows.find((r) => r.kind === 'other')).toMatchObject({ id: 'details', key: 'details' })
    expect(f.details?.id).toBe(ids[0])
  })
})
