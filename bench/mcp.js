/**
 * `svc mcp` start-up: wall time from spawning `svc mcp` until its answer to the MCP `initialize`
 * request is on stdout (what an agent waits for when it starts the server), as a ratio to the whole
 * `svc --help` process measured in the same interleaved rounds. Target (issue 32): ≤ 2× `svc --help`.
 * Beside it, for context, the time until the tools/list that follows is answered (the SDK loaded).
 * The server needs no answer from the service to initialize, so no sandbox runs here.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BIN, ROOT, timeRun } from './lib/proc.js'
import { median, ms, ratio } from './lib/stats.js'

const INITIALIZE = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`
// What a client sends once initialize is answered: the notification, then the tool list.
const THEN_LIST = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`

/**
 * Milliseconds from spawn to the initialize answer on stdout, and to the tools/list answer that a
 * client asks for next (the server then usable); the server is then closed (stdin ends).
 */
function timeInitialize(env) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [BIN, 'mcp'], { env, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    let answered
    let listed
    child.stdout.setEncoding('utf8').on('data', (c) => {
      out += c
      if (answered === undefined && out.includes('\n')) {
        answered = performance.now() - started
        if (!out.includes('"id":1') || !out.includes('"result"')) reject(new Error(`svc mcp answered initialize with: ${out.slice(0, 300)}`))
        child.stdin.write(THEN_LIST)
      }
      if (answered !== undefined && listed === undefined && out.includes('"id":2')) {
        listed = performance.now() - started
        child.stdin.end()
      }
    })
    child.stderr.setEncoding('utf8').on('data', (c) => (err += c))
    child.on('error', reject)
    child.on('close', (code) => {
      if (listed === undefined) reject(new Error(`svc mcp exited ${code} before answering initialize and tools/list: ${err.trim().slice(0, 500)}`))
      else resolve({ answered, listed })
    })
    child.stdin.write(INITIALIZE)
  })
}

export async function benchMcp({ report, runs, quick }) {
  report.section('MCP start-up', `median of ${runs} interleaved runs: spawn → initialize answered, against the whole \`svc --help\``)
  const configDir = mkdtempSync(join(tmpdir(), 'svc-bench-mcp-'))
  const env = { ...process.env, SVC_CONFIG_DIR: configDir, SVC_API_KEY: 'svc_test_bench0000000000000000', SVC_BASE_URL: 'http://127.0.0.1:9', NO_COLOR: '1' }
  for (const k of ['SVC_PROFILE', 'SVC_DEBUG']) delete env[k]
  try {
    // Context: a command through oclif that sends no request, the floor of any oclif command.
    const pixArgs = [BIN, 'pix', 'decode', '00020126370014br.gov.bcb.pix0115pix@example.com520400005303986540515.005802BR5904Loja6009Sao Paulo62100506ABC1236304851E']
    const help = []
    const pix = []
    const mcp = []
    const list = []
    const warmup = quick ? 1 : 2
    for (let round = 0; round < warmup + runs; round++) {
      const h = timeRun([BIN, '--help'], { env })
      const p = timeRun(pixArgs, { env })
      const m = await timeInitialize(env)
      if (round >= warmup) {
        help.push(h)
        pix.push(p)
        mcp.push(m.answered)
        list.push(m.listed)
      }
    }
    const base = median(help)
    const m = median(mcp)
    report.row({ name: 'svc --help (whole process)', value: ms(base) })
    report.row({ name: 'svc pix decode CODE (oclif, no request)', value: ms(median(pix)), baseline: `--help ${ratio(median(pix) / base)}` })
    report.row({ name: 'svc mcp: initialize answered', value: ms(m), baseline: `--help ${ratio(m / base)}`, target: '≤ 2×', ok: m / base <= 2 })
    // Context, no target: initialize is answered before the SDK loads; the tool list needs it.
    report.row({ name: 'svc mcp: then tools/list answered', value: ms(median(list)), baseline: `--help ${ratio(median(list) / base)}` })
  } finally {
    rmSync(configDir, { recursive: true, force: true })
  }
}
