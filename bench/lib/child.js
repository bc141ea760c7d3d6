/** A helper process of a benchmark: started, awaited until its first stdout line, stopped. */
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { ROOT } from './proc.js'

/** Starts `node args`, waits for its first stdout line (parsed by `ready`), drains the rest. */
export function startChild(args, env, ready = (line) => line) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (c) => {
    if (stderr.length < 4000) stderr += c
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node ${args.join(' ')} was not ready within 20 s: ${stderr.trim()}`)), 20_000)
    child.once('exit', (code) => reject(new Error(`node ${args.join(' ')} exited (${code}) before it was ready: ${stderr.trim()}`)))
    const lines = createInterface({ input: child.stdout })
    lines.once('line', (line) => {
      clearTimeout(timer)
      lines.on('line', () => {}) // anything after the first line (a listener's NDJSON) is drained
      resolve({
        ready: ready(line),
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
