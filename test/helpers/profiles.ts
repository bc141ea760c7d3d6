/** A config dir holding a few profiles, for the profiles and logout command tests. */
import { ProfileStore } from '../../src/lib/config/store.js'
import { freshConfigDir, LIVE_KEY, TEST_KEY, WEBHOOK_SECRET } from './config.js'

export const SECRETS = [TEST_KEY, LIVE_KEY, WEBHOOK_SECRET]

export async function configWithProfiles(): Promise<{ env: Record<string, string>; store: ProfileStore }> {
  const env = { SVC_CONFIG_DIR: freshConfigDir() }
  const store = await ProfileStore.open(env)
  store.save('sandbox', { apiKey: TEST_KEY, baseUrl: 'http://127.0.0.1:8787', webhookSecret: WEBHOOK_SECRET })
  store.save('prod', { apiKey: LIVE_KEY, baseUrl: 'https://api.example.com' })
  store.save('old', { baseUrl: 'https://old.example.com' })
  store.setDefault('sandbox')
  return { env, store }
}
