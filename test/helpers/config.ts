/** A fresh config dir per test, so tests never share profiles (setup.ts gives one per file only). */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export function freshConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-config-'))
}

export const TEST_KEY = 'svc_test_4f9c2a7be1d04c6f8a3b5e7d9c1f2a4b'
export const LIVE_KEY = 'svc_live_9a8b7c6d5e4f30211f2e3d4c5b6a7988'
export const OTHER_TEST_KEY = 'svc_test_0000aaaa1111bbbb2222cccc3333dddd'
export const WEBHOOK_SECRET = 'whsec_5b1e0c9d8a7f6e5d4c3b2a1908f7e6d5'
