/**
 * The sandbox the benchmarks talk to: started in a child process from the built dist/, on a
 * free loopback port, with the rate limit lifted (a benchmark is not a runaway client).
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { ROOT } from './proc.js'

const CHILD = join(ROOT, 'bench/lib/sandbox-child.js')

/**
 * @param {object} opts the sandbox's options
 * @param {string} [root] another built checkout whose sandbox to run (bench --vs); this one's by default
 * @returns {Promise<{baseUrl: string, testKey: string, liveKey: string, webhookSecret: string, pid: number, stop(): Promise<void>}>}
 */
export function startSandboxProcess(opts = {}, root = undefined) {
  const child = spawn(process.execPath, [CHILD, JSON.stringify({ rateLimitPerSecond: 1e9, ...opts }), ...(root ? [root] : [])], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (c) => {
    if (stderr.length < 4000) stderr += c
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start within 20 s: ${stderr.trim()}`)), 20_000)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the sandbox exited (${code}) before it was ready: ${stderr.trim()}`))
    })
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer)
      const info = JSON.parse(line)
      resolve({
        ...info,
        pid: child.pid,
        async stop() {
          if (child.exitCode === null) {
            child.kill('SIGTERM')
            await exited
          }
        },
      })
    })
  })
}

/** Environment for a CLI child talking to this sandbox without a profile. */
export function cliEnv(sandbox, configDir, extra = {}) {
  const env = { ...process.env, SVC_BASE_URL: sandbox.baseUrl, SVC_API_KEY: sandbox.testKey, SVC_CONFIG_DIR: configDir, NO_COLOR: '1', ...extra }
  for (const k of ['SVC_PROFILE', 'SVC_DEBUG', 'FORCE_COLOR', 'SVC_WEBHOOK_SECRET']) if (!(k in extra)) delete env[k]
  return env
}
