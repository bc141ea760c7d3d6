/**
 * `svc webhooks listen` as most people run it: its live view on a pseudo-terminal (`script -qfc`,
 * 100×30), Ink drawing the deliveries while it forwards them, under the forwarder suite's load
 * (signed deliveries, each a new event, at 50 connections, to a local app). Beside it in the same
 * rounds: the same build's headless listener (`--no-tui`), the forwarder suite's subject. With
 * --vs DIR, that build's live view runs in the same rounds too, the two in alternating order. No
 * target: the figure says what the view costs the forwarder (issue 39).
 */
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startChild } from './lib/child.js'
import { signedDeliveries } from './lib/deliveries.js'
import { load } from './lib/load.js'
import { BIN, ROOT } from './lib/proc.js'
import { median, perSecond, ratio } from './lib/stats.js'

const SECRET = `whsec_${randomBytes(24).toString('hex')}`
const CONNECTIONS = 50
const PTY = { columns: 100, rows: 30 }

export async function benchLive({ report, quick, vs }) {
  const runs = quick ? 3 : 5
  const durationMs = quick ? 1500 : 3000
  report.section(
    '3b. webhooks listen forwarder, live view',
    `${CONNECTIONS} connections, ${durationMs / 1000} s per run, median of ${runs} runs, the view on a pseudo-terminal (${PTY.columns}×${PTY.rows}) beside the headless listener${vs ? ` and the live view of ${vs}` : ''}`,
  )
  if (spawnSync('script', ['--version'], { stdio: 'ignore' }).error) {
    report.note('`script` (util-linux) is not installed: the live view was not measured')
    return
  }
  const dirs = []
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'svc-bench-cfg-'))
    dirs.push(d)
    return d
  }
  const app = await startChild([join(ROOT, 'bench/lib/app.js')], {})
  const env = { ...process.env, NO_COLOR: '1' }
  for (const k of ['SVC_API_KEY', 'SVC_BASE_URL', 'SVC_PROFILE', 'SVC_WEBHOOK_SECRET', 'SVC_DEBUG']) delete env[k]
  const views = []
  try {
    const headless = await startChild([BIN, 'webhooks', 'listen', '--forward', app.ready, '--port', '0', '--no-tui', '--secret', SECRET], { ...env, SVC_CONFIG_DIR: dir() }, (line) => JSON.parse(line).listening)
    views.push(headless)
    const subjects = { headless: headless.ready, live: (await liveView(BIN, app.ready, dir(), views)).url }
    if (vs) subjects.other = (await liveView(join(vs, 'bin/run.js'), app.ready, dir(), views)).url
    const request = signedDeliveries(SECRET)
    for (const url of Object.values(subjects)) await load({ url, connections: CONNECTIONS, durationMs: 500, request })
    const results = Object.fromEntries(Object.keys(subjects).map((k) => [k, []]))
    for (let i = 0; i < runs; i++) {
      const order = i % 2 === 0 ? Object.entries(subjects) : Object.entries(subjects).reverse()
      for (const [name, url] of order) {
        const r = await load({ url, connections: CONNECTIONS, durationMs, request })
        if (r.errors > 0 || r.statusErrors > 0) throw new Error(`the ${name} listener answered ${r.errors} errors and ${r.statusErrors} non-200s`)
        results[name].push(r.perSecond)
      }
    }
    const live = median(results.live)
    report.row({ name: 'through the live view', value: perSecond(live), baseline: `headless listener (--no-tui) ${perSecond(median(results.headless))} → ${ratio(live / median(results.headless))}` })
    if (vs) {
      report.row({ name: 'through the --vs live view', value: perSecond(median(results.other)), baseline: `this build ${ratio(live / median(results.other))} of it` })
      report.row({
        name: 'this live view vs the --vs live view',
        value: ratio(median(results.live.map((r, i) => r / results.other[i]))),
        baseline: `runs: ${results.live.map(Math.round).join(', ')} vs ${results.other.map(Math.round).join(', ')}`,
      })
    }
  } finally {
    for (const v of views) await v.stop()
    await app.stop()
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  }
}

/** A free loopback port: the view's own URL is in its frame, which is not parsed here. */
async function freePort() {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address()
  server.close()
  await once(server, 'close')
  return port
}

/** `svc webhooks listen` of `bin` with its live view on a pseudo-terminal, once its first frame is drawn. */
async function liveView(bin, forward, configDir, views) {
  const port = await freePort()
  const env = { ...process.env, SVC_CONFIG_DIR: configDir, TERM: 'xterm-256color' }
  for (const k of ['NO_COLOR', 'SVC_API_KEY', 'SVC_BASE_URL', 'SVC_PROFILE', 'SVC_WEBHOOK_SECRET', 'SVC_DEBUG', 'CI']) delete env[k]
  const quoted = [process.execPath, bin, 'webhooks', 'listen', '--forward', forward, '--port', String(port), '--secret', SECRET].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ')
  const child = spawn('script', ['-qfec', `stty cols ${PTY.columns} rows ${PTY.rows} && exec ${quoted}`, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] })
  const stop = async () => {
    if (child.exitCode !== null) return
    child.stdin.write('q')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
    await once(child, 'exit')
    clearTimeout(timer)
  }
  views.push({ stop })
  let screen = ''
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the live view of ${bin} drew no frame within 15 s: ${JSON.stringify(screen.slice(-300))}`)), 15_000)
    // The screen is read to the end (Ink keeps drawing); only its start is looked at.
    child.stdout.on('data', (chunk) => {
      if (screen === null) return
      screen += chunk
      if (screen.includes('q quit')) {
        screen = null
        clearTimeout(timer)
        resolve()
      }
    })
    child.once('exit', (code) => reject(new Error(`the live view of ${bin} exited (${code}) before its first frame`)))
  })
  return { url: `http://127.0.0.1:${port}/` }
}
