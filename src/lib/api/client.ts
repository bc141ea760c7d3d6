import type { ApiClient, ClientOptions } from './types.js'

// Placeholder until the undici client lands (issue 2).
export function createClient(_opts: ClientOptions): ApiClient {
  throw new Error('not implemented')
}
