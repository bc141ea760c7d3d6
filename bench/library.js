/**
 * The library's import cost (issue 12): loading `svc-cli/webhooks` (what a merchant's server pays
 * at every start) and `svc-cli/sandbox`, as whole-process wall time over `node -e 0` measured in
 * the same interleaved rounds. Target: svc-cli/webhooks ≤ 30 ms over node -e 0. Also, informative:
 * the first verification, which loads the event schemas (zod), and `svc-cli/client` with a client
 * created and closed (no request).
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT, timeRun } from './lib/proc.js'
import { median, ms } from './lib/stats.js'

export async function benchLibrary({ report, runs, quick }) {
  report.section('6. Library import', `whole process, median of ${runs} interleaved runs, over node -e 0 of the same rounds`)
  const url = (f) => pathToFileURL(join(ROOT, 'dist', 'public', f)).href
  const esm = (code) => ['--input-type=module', '-e', code]
  const cases = [
    { name: 'node -e 0 (baseline)', args: ['-e', '0'] },
    { name: "import 'svc-cli/webhooks'", args: esm(`await import('${url('webhooks.js')}')`), target: 30 },
    // A signed delivery of an unknown type: the first verification loads the event schemas (zod).
    {
      name: "import 'svc-cli/webhooks' + first verifyWebhook",
      args: esm(
        `const { createHmac } = await import('node:crypto'); const m = await import('${url('webhooks.js')}'); const b = '{"id":"e","type":"t.x"}'; const t = Math.floor(Date.now() / 1000); ` +
          `const e = m.verifyWebhook(b, { 'x-svc-event-id': 'e', 'x-svc-event-type': 't.x', 'x-svc-timestamp': String(t), 'x-svc-signature': 'v1=' + createHmac('sha256', 's').update(t + '.' + b).digest('hex') }, 's'); if (e.id !== 'e') process.exit(1)`,
      ),
    },
    { name: "import 'svc-cli/sandbox'", args: esm(`await import('${url('sandbox.js')}')`) },
    // The API client a merchant's server creates at start: undici and the compiled answer parsers, no zod.
    { name: "import 'svc-cli/client' + createClient", args: esm(`const m = await import('${url('client.js')}'); await m.createClient({ apiKey: 'svc_test_bench', baseUrl: 'http://127.0.0.1:9' }).close()`) },
  ]
  const times = cases.map(() => [])
  const warmup = quick ? 1 : 2
  for (let round = 0; round < warmup + runs; round++) {
    cases.forEach((c, i) => {
      const t = timeRun(c.args)
      if (round >= warmup) times[i].push(t)
    })
  }
  const base = median(times[0])
  report.row({ name: cases[0].name, value: ms(base) })
  cases.slice(1).forEach((c, j) => {
    const over = median(times[j + 1]) - base
    const row = { name: c.name, value: `+${ms(over)}`, baseline: `node -e 0 ${ms(base)}` }
    report.row(c.target === undefined ? row : { ...row, target: `≤ +${c.target} ms`, ok: over <= c.target })
  })
}
