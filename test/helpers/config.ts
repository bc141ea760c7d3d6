/** A fresh config dir per test, so tests never share profiles (setup.ts gives one per file only). */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export function freshConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-config-'))
}

export { LIVE_KEY, TEST_KEY } from './api-fixtures.js'
export const OTHER_TEST_KEY = 'svc_test_0000aaaa1111bbbb2222cccc3333dddd'
export const WEBHOOK_SECRET = 'whsec_5b1e0c9d8a7f6e5d4c3b2a1908f7e6d5'
