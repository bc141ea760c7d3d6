import { describe, expect, it } from 'vitest'
import { environmentOfKey, maskSecret, redact } from '../../../src/lib/config/mask.js'
import { LIVE_KEY, TEST_KEY, WEBHOOK_SECRET } from '../../helpers/config.js'

describe('maskSecret', () => {
  it('keeps the prefix and the last four characters only', () => {
    expect(maskSecret(TEST_KEY)).toBe('svc_test_…2a4b')
    expect(maskSecret(LIVE_KEY)).toBe('svc_live_…7988')
    expect(maskSecret(WEBHOOK_SECRET)).toBe('whsec_…e6d5')
  })

  it('shows nothing of a short secret but its prefix', () => {
    expect(maskSecret('svc_test_abc')).toBe('svc_test_…')
    expect(maskSecret('short')).toBe('…')
    expect(maskSecret(undefined)).toBe('')
  })
})

describe('redact', () => {
  it('masks the given secrets and any key- or secret-shaped string in a log line', () => {
    const line = `GET /v1/account Authorization: Bearer ${TEST_KEY} other=${LIVE_KEY} secret=${WEBHOOK_SECRET} custom=my-own-secret-1234`
    const out = redact(line, ['my-own-secret-1234'])
    for (const s of [TEST_KEY, LIVE_KEY, WEBHOOK_SECRET, 'my-own-secret-1234']) expect(out).not.toContain(s)
    expect(out).toContain('svc_test_…2a4b')
    expect(out).toContain('…1234')
  })
})

describe('redact: an echoed key, however the server wrote it (issue 29 item 5)', () => {
  const secretPart = TEST_KEY.slice('svc_test_'.length)
  it.each([
    ['whole', TEST_KEY],
    ['without its prefix', secretPart],
    ['upper-cased', TEST_KEY.toUpperCase()],
    ['upper-cased, without its prefix', secretPart.toUpperCase()],
    ['in mixed case', secretPart.replace(/[a-f]/g, (c) => c.toUpperCase())],
  ])('%s: masked to the key’s masked form', (_how, echo) => {
    const out = redact(`req_${echo}: chave ${echo}.`, [TEST_KEY])
    expect(out.toLowerCase()).not.toContain(secretPart.toLowerCase())
    expect(out).toBe('req_svc_test_…2a4b: chave svc_test_…2a4b.')
  })

  it('a key with a $ in it is masked, not read as a replacement pattern', () => {
    const key = 'svc_test_abc$&def$1ghijk'
    expect(redact(`x ${key} y`, [key])).toBe(`x ${'svc_test_…hijk'} y`)
  })
})

describe('environmentOfKey', () => {
  it('reads the environment from the prefix, and nothing from a key without one', () => {
    expect(environmentOfKey(TEST_KEY)).toBe('test')
    expect(environmentOfKey(LIVE_KEY)).toBe('live')
    expect(environmentOfKey('sk_test_123')).toBeUndefined()
    expect(environmentOfKey('SVC_TEST_123')).toBeUndefined()
  })
})

describe('relay tokens (issue 37)', () => {
  it('masks a svcrelay_ listener token found in any text, as keys are', () => {
    const token = `svcrelay_${'Ab3_-'.repeat(8)}xyz`
    expect(maskSecret(token)).toBe('svcrelay_…-xyz')
    const line = redact(`connecting with ${token} failed`, [])
    expect(line).not.toContain(token.slice(9))
    expect(line).toContain('svcrelay_…')
  })
})
