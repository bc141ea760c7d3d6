import { describe, expect, it } from 'vitest'
import { checkWebhookFaults, describeWebhookFaults, faultsOn, parseWebhookFaults, WebhookFaultsError } from '../../../../src/lib/sandbox/faults/spec.js'

const refusal = (fn: () => unknown) => {
  try {
    fn()
  } catch (e) {
    return e as WebhookFaultsError
  }
  throw new Error('expected a refusal')
}

describe('--webhook-faults', () => {
  it('parses the parts the flag spells, and says them back the same way', () => {
    expect(parseWebhookFaults('duplicate=0.1,reorder=0.2,lose=0.05,delay=2s,fail-first=1')).toEqual({ duplicate: 0.1, reorder: 0.2, lose: 0.05, delayMs: 2000, failFirst: 1 })
    const r = parseWebhookFaults('duplicate=0.1, lose=0.05,delay=2s,fail-first=0.2')
    expect(r).toEqual({ duplicate: 0.1, reorder: 0, lose: 0.05, delayMs: 2000, failFirst: 0.2 })
    expect(faultsOn(r)).toBe(true)
    expect(describeWebhookFaults(r)).toBe('duplicate=0.1, lose=0.05, delay=2s, fail-first=0.2')
    expect(describeWebhookFaults(parseWebhookFaults('delay=500ms'))).toBe('delay=500ms')
  })

  it('refuses a bad spec naming the part to fix', () => {
    const cases: Array<[string, string]> = [
      ['', '(spec)'],
      ['dupe=0.1', 'dupe'],
      ['lose', 'lose'],
      ['lose=0.1,lose=0.2', 'lose'],
      ['duplicate=1.5', 'duplicate'],
      ['fail-first=-0.1', 'fail-first'],
      ['delay=2', 'delay'],
      ['delay=25h', 'delay'],
    ]
    for (const [text, part] of cases) {
      const err = refusal(() => parseWebhookFaults(text))
      expect(err, text).toBeInstanceOf(WebhookFaultsError)
      expect(err.part, text).toBe(part)
    }
  })

  it('says what is wrong in words the user can act on', () => {
    expect(refusal(() => parseWebhookFaults('duplicate=1.5')).message).toBe('duplicate must be a share from 0 to 1')
    expect(refusal(() => parseWebhookFaults('fail-first=x')).message).toBe('fail-first must be a share from 0 to 1')
    expect(refusal(() => parseWebhookFaults('lose')).message).toBe('lose needs a value, e.g. lose=0.1')
    expect(refusal(() => parseWebhookFaults('lose=0.1,lose=0.2')).message).toBe('lose is given twice')
    expect(refusal(() => parseWebhookFaults('drop=0.1')).message).toContain('the parts are duplicate, reorder, lose, delay and fail-first')
  })

  it('checks the library’s object form the same way, and all off means no fault layer', () => {
    expect(refusal(() => checkWebhookFaults({ failFirst: 2 })).part).toBe('fail-first')
    expect(checkWebhookFaults({ delay: '1m' }).delayMs).toBe(60_000)
    expect(faultsOn(checkWebhookFaults({}))).toBe(false)
  })
})
