/**
 * A closed-loop HTTP load generator (no autocannon here): `connections` workers over one undici
 * Pool of as many connections, each sending its next request when the last one answered, for
 * `durationMs`. Returns throughput and the latency of every request; `progress.completed`
 * counts answers as they come, for sampling during the run.
 */
import { Pool } from 'undici'

export async function load({ url, connections, durationMs, request, expect = 200, progress = { completed: 0 } }) {
  const target = new URL(url)
  const pool = new Pool(target.origin, { connections, pipelining: 1, keepAliveTimeout: 10_000 })
  const latencies = []
  let errors = 0
  let statusErrors = 0
  let seq = 0
  const started = performance.now()
  const deadline = started + durationMs
  const worker = async () => {
    while (performance.now() < deadline) {
      const { body, headers } = request(seq++)
      const t = performance.now()
      try {
        const res = await pool.request({ path: target.pathname + target.search, method: 'POST', headers, body })
        await res.body.dump()
        if (res.statusCode !== expect) statusErrors++
        latencies.push(performance.now() - t)
        progress.completed++
      } catch {
        errors++
      }
    }
  }
  await Promise.all(Array.from({ length: connections }, worker))
  const elapsed = performance.now() - started
  await pool.close()
  return { requests: latencies.length, perSecond: latencies.length / (elapsed / 1000), latencies, errors, statusErrors }
}
