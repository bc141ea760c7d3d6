import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { SandboxApiError } from '../../../../src/lib/sandbox/api-error.js'
import { authenticate } from '../../../../src/lib/sandbox/http/auth.js'
import { openDatabase } from '../../../../src/lib/sandbox/store/db.js'
import { SandboxStore } from '../../../../src/lib/sandbox/store/store.js'

const store = new SandboxStore(openDatabase({ inMemory: true }))
const testKey = store.insertKey('test', '2026-11-22T12:00:00.000Z')
const liveKey = store.insertKey('live', '2026-11-22T12:00:00.000Z')
const request = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization } }) as IncomingMessage
const refusal = (authorization?: string) => {
  try {
    authenticate(store, request(authorization))
  } catch (e) {
    return e as SandboxApiError
  }
  throw new Error('expected a refusal')
}

describe('sandbox authentication (spec part 5)', () => {
  it('takes a Bearer key and answers in the environment the key belongs to', () => {
    expect(authenticate(store, request(`Bearer ${testKey}`))).toEqual({ key: testKey, environment: 'test' })
    expect(authenticate(store, request(`bearer   ${liveKey} `)).environment).toBe('live')
  })

  it('answers 401 invalid_api_key for no key, another scheme or an unknown key', () => {
    for (const header of [undefined, `Basic ${testKey}`, 'Bearer svc_test_0000', 'Bearer']) {
      const err = refusal(header)
      expect(err, String(header)).toBeInstanceOf(SandboxApiError)
      expect([err.status, err.code]).toEqual([401, 'invalid_api_key'])
    }
  })

  it('answers 401 revoked_api_key for a key that was revoked, so the client can say so', () => {
    const key = store.insertKey('test', '2026-11-22T12:00:00.000Z')
    store.revokeKey(key)
    expect([refusal(`Bearer ${key}`).status, refusal(`Bearer ${key}`).code]).toEqual([401, 'revoked_api_key'])
  })
})
