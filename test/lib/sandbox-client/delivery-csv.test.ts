import { describe, expect, it } from 'vitest'
import { csvWriter } from '../../../src/lib/output/csv.js'
import { DELIVERY_CSV_COLUMNS } from '../../../src/lib/sandbox-client/delivery-csv.js'
import type { PanelDelivery } from '../../../src/lib/sandbox-client/panel-client.js'

describe('svc sandbox deliveries --csv columns', () => {
  it('one row per delivery, the injected faults in one cell, absent values empty', () => {
    const out: string[] = []
    const w = csvWriter((t) => out.push(t), DELIVERY_CSV_COLUMNS)
    w.row({
      eventId: 'evt_1',
      type: 'charge.paid_pending_settlement',
      environment: 'test',
      createdAt: '2026-11-22T12:00:00Z',
      url: 'http://127.0.0.1:3000/hooks',
      state: 'retrying',
      attempts: 2,
      lastStatus: 500,
      lastError: undefined,
      nextRetryAt: '2026-11-22T12:00:30Z',
      firstAttemptAt: '2026-11-22T12:00:00Z',
      injected: ['status_500', 'slow'],
    } as unknown as PanelDelivery)
    const [header, row] = out.join('').trim().split(/\r?\n/)
    expect(header).toBe('eventId,type,environment,createdAt,url,state,attempts,lastStatus,lastError,nextRetryAt,firstAttemptAt,injected')
    expect(row).toBe('evt_1,charge.paid_pending_settlement,test,2026-11-22T12:00:00Z,http://127.0.0.1:3000/hooks,retrying,2,500,,2026-11-22T12:00:30Z,2026-11-22T12:00:00Z,"status_500,slow"')
  })
})
