// Every test file: its own config dir (never the real home config), and no network but loopback.
// Every test: the HTTP mocks it set up were all used (test/helpers/http-mocks.ts).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import nock from 'nock'
import { afterEach } from 'vitest'
import { verifyHttpMocks } from './helpers/http-mocks.js'

process.env.SVC_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'svc-test-'))
for (const name of ['SVC_API_KEY', 'SVC_BASE_URL', 'SVC_PROFILE', 'SVC_WEBHOOK_SECRET', 'SVC_DEBUG', 'NO_COLOR', 'FORCE_COLOR']) {
  delete process.env[name]
}
nock.disableNetConnect()
nock.enableNetConnect(/^(127\.0\.0\.1|localhost|\[::1\]|::1)(:\d+)?$/)

afterEach(verifyHttpMocks)
