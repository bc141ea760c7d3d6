/** How `svc account` shows the account (output/account-view.ts). */
import { describe, expect, it } from 'vitest'
import { accountLines, accountView } from '../../../src/lib/output/account-view.js'
import { painter } from '../../../src/lib/output/color.js'
import { account } from '../../helpers/api-fixtures.js'

describe('the account view', () => {
  it('piped: key<TAB>value lines with raw API values, no line for an absent webhook', () => {
    const a = account({ webhook: undefined })
    const lines = accountLines(a).split('\n').filter(Boolean)
    expect(lines[0]).toBe(`merchantId\t${a.merchantId}`)
    expect(lines).toContain(`plan.feeBps\t${a.plan.feeBps}`)
    expect(lines.some((l) => l.startsWith('webhook.'))).toBe(false)
  })

  it('on a terminal: the reactivation hint sits under an inactive webhook; a control character from the server is shown, not obeyed', () => {
    const a = account({ webhook: { url: 'https://h.example/\u001b[2Jx', active: false } })
    const text = accountView(a, painter(false), 'Save the URL again.')
    expect(text).toMatch(/Webhook\s+https:\/\/h\.example\/\\x1b\[2Jx \(inactive\)\n\s+Save the URL again\.\n$/)
    expect(text).not.toContain('\u001b')
  })
})
