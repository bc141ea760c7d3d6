/** An in-memory sandbox for the file, and the CLI's own API client on its test key (retries never sleep). */
import { afterAll, beforeAll } from 'vitest'
import { createClient } from '../../src/lib/api/client.js'
import type { ApiClient } from '../../src/lib/api/types.js'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'

export interface SandboxWithClient {
  sandbox: RunningSandbox
  client: ApiClient
}

/** Starts the sandbox before the file's tests and stops it after; read the fields inside tests. */
export function useSandboxClient(): SandboxWithClient {
  const ctx = {} as SandboxWithClient
  beforeAll(async () => {
    ctx.sandbox = await startSandboxServer({ port: 0, inMemory: true, log: () => {} })
    ctx.client = createClient({ apiKey: ctx.sandbox.testKey, baseUrl: ctx.sandbox.baseUrl, sleep: async () => {} })
  })
  afterAll(() => ctx.sandbox.close())
  return ctx
}
