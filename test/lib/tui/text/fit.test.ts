import { describe, expect, it } from 'vitest'
import { fitColumns, fitLine, leastWidth, plain, type Segment } from '../../../../src/lib/tui/text/fit.js'

const seg = (priority: number, ...forms: string[]): Segment => ({ priority, forms: forms.map((t) => (t ? [{ text: t }] : [])) })

describe('fitting a line to the terminal', () => {
  it('keeps the full line when it fits, and shrinks the lowest priority first', () => {
    const line = [seg(100, 'charge.settled'), seg(20, '12:00:01', ''), seg(80, '✔ confirmed (now settled)', '✔ now settled')]
    expect(plain(fitLine(line, 80))).toBe('charge.settled 12:00:01 ✔ confirmed (now settled)')
    expect(plain(fitLine(line, 45))).toBe('charge.settled ✔ confirmed (now settled)')
    expect(plain(fitLine(line, 30))).toBe('charge.settled ✔ now settled')
  })

  it('cuts a cuttable segment instead of dropping it when enough room is left', () => {
    const line = [seg(100, 'withdrawal.paid'), { ...seg(30, 'withdrawal wd_123 paid e2e E2E99999999', ''), cut: true }]
    expect(plain(fitLine(line, 40))).toBe('withdrawal.paid withdrawal wd_123 paid…')
    expect(plain(fitLine(line, 20))).toBe('withdrawal.paid')
  })

  it('aligns columns across rows and shrinks a column for every row', () => {
    const rows = [
      [seg(100, 'charge.settled'), seg(20, 'evt_1', ''), seg(70, '✔ verified', '✔')],
      [seg(100, 'charge.paid_pending_settlement'), seg(20, 'evt_22', ''), seg(70, '✘ signature_mismatch', '✘')],
    ]
    expect(fitColumns(rows, 80).map(plain)).toEqual(['charge.settled                 evt_1  ✔ verified          ', 'charge.paid_pending_settlement evt_22 ✘ signature_mismatch'])
    expect(fitColumns(rows, 33).map(plain)).toEqual(['charge.settled                 ✔', 'charge.paid_pending_settlement ✘'])
    // The room the verification's short form left is given back to what went before it (the ids).
    expect(fitColumns(rows, 40).map(plain)).toEqual(['charge.settled                 evt_1  ✔', 'charge.paid_pending_settlement evt_22 ✘'])
    expect(leastWidth([seg(30, 'subject', ''), seg(50, '✔ confirmed', '✔')])).toBe(2)
  })
})
