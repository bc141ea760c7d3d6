/**
 * The web panel's page weight (issue 13): the first load of the charges page, with 50 charges
 * listed, over the wire (HTML, CSS and script as the sandbox sends them, uncompressed), and its
 * time to answer. Target: ≤ 150 KB.
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT } from './lib/proc.js'
import { median, ms } from './lib/stats.js'

export async function benchPanel({ report, runs }) {
  report.section('7. Web panel', 'first load of the charges page with 50 charges: bytes over the wire (uncompressed) and answer time')
  const { startSandboxServer } = await import(pathToFileURL(join(ROOT, 'dist/lib/sandbox/sandbox.js')).href)
  const sb = await startSandboxServer({ port: 0, inMemory: true, rateLimitPerSecond: 1e6 })
  try {
    for (let i = 0; i < 50; i++) {
      await fetch(`${sb.baseUrl}/v1/charges`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sb.testKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ amountInCents: 1500 + i, payerTaxNumber: '52998224725', description: `Pedido ${i} — camiseta tamanho M, entrega expressa` }),
      })
    }
    const entry = await fetch(sb.panelUrl, { redirect: 'manual' })
    const cookie = entry.headers.get('set-cookie').split(';')[0]
    const get = async (path) => {
      const res = await fetch(`${sb.baseUrl}${path}`, { headers: { cookie } })
      return Buffer.from(await res.arrayBuffer()).length
    }
    const times = []
    let bytes = 0
    for (let i = 0; i < runs; i++) {
      const t = performance.now()
      bytes = (await get('/panel/charges?env=test')) + (await get('/panel/assets/panel.css')) + (await get('/panel/assets/panel.js'))
      times.push(performance.now() - t)
    }
    report.row({ name: 'charges page, first load (HTML + CSS + JS)', value: `${(bytes / 1024).toFixed(1)} KB`, target: '≤ 150 KB', ok: bytes <= 150 * 1024 })
    report.row({ name: 'charges page, three requests answered in', value: ms(median(times)) })
  } finally {
    await sb.close()
  }
}
