/** Runs the shop: SVC_BASE_URL, SVC_API_KEY and SVC_WEBHOOK_SECRET (e.g. from `svc sandbox start --json`). */
import { Shop } from './shop.ts'

const { SVC_BASE_URL, SVC_API_KEY, SVC_WEBHOOK_SECRET, PORT } = process.env
if (!SVC_BASE_URL || !SVC_API_KEY || !SVC_WEBHOOK_SECRET) {
  console.error('Set SVC_BASE_URL, SVC_API_KEY and SVC_WEBHOOK_SECRET (svc sandbox start prints them).')
  process.exit(2)
}
const shop = new Shop({ apiBaseUrl: SVC_BASE_URL, apiKey: SVC_API_KEY, webhookSecret: SVC_WEBHOOK_SECRET })
const url = await shop.listen(Number(PORT ?? 3000))
console.log(`shop listening on ${url}; webhooks at ${url}/webhooks`)
