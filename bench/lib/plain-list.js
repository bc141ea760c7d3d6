// The floor `charges list --all --ndjson` is compared with: a plain loop of undici requests over
// the same pages (100 per page, following startingAfter), each charge written as one NDJSON
// line. No validation, no retries, no CLI.
//   node bench/lib/plain-list.js BASE_URL KEY [CREATED_AFTER]
import { Agent } from 'undici'

const [baseUrl, key, createdAfter] = process.argv.slice(2)
const origin = new URL(baseUrl).origin
const agent = new Agent({ keepAliveTimeout: 10_000 })
let cursor
for (;;) {
  const params = new URLSearchParams({ limit: '100' })
  if (createdAfter) params.set('createdAfter', createdAfter)
  if (cursor) params.set('startingAfter', cursor)
  const res = await agent.request({ origin, path: `/v1/charges?${params}`, method: 'GET', headers: { authorization: `Bearer ${key}` } })
  if (res.statusCode !== 200) throw new Error(`GET /v1/charges answered ${res.statusCode}: ${await res.body.text()}`)
  const page = await res.body.json()
  let out = ''
  for (const charge of page.data) out += `${JSON.stringify(charge)}\n`
  if (!process.stdout.write(out)) await new Promise((r) => process.stdout.once('drain', r))
  if (!page.hasMore || page.data.length === 0) break
  cursor = page.data.at(-1).id
}
await agent.close()
