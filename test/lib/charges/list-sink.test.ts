/** How `charges list` shows its rows to the one list printer: the overdue list, each charge with how late it is. */
import { describe, expect, it } from 'vitest'
import { overdueListView } from '../../../src/lib/charges/list-sink.js'
import { printList } from '../../../src/lib/output/list-printer.js'
import { charge } from '../../helpers/api-fixtures.js'
import { testIO } from '../../helpers/test-io.js'

describe('overdueListView', () => {
  const late = [{ charge: charge({ status: 'paid_pending_settlement' }), lateMs: 7_200_000 }]

  it('piped: the generic row, then estimatedAt and lateMs; --json and -q: the charge itself', async () => {
    const { io, out } = testIO()
    await printList(io, late, overdueListView(io), { format: 'tsv' })
    expect(out().trimEnd().split('\t').at(-1)).toBe('7200000')
    const json = testIO()
    await printList(json.io, late, overdueListView(json.io), { format: 'json' })
    expect(JSON.parse(json.out())).toEqual([late[0]!.charge])
    const quiet = testIO()
    await printList(quiet.io, late, overdueListView(quiet.io), { format: 'quiet' })
    expect(quiet.out()).toBe(`${late[0]!.charge.id}\n`)
  })

  it("--csv: the charges' columns", async () => {
    const { io, out } = testIO()
    await printList(io, late, overdueListView(io), { format: 'csv' })
    expect(out().split('\r\n')[0]).toMatch(/^id,externalId,status,/)
    expect(out()).toContain(late[0]!.charge.id)
  })
})
