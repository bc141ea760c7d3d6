/**
 * Runs processes for the benchmarks: wall time of a whole process, and its peak RSS read from
 * the kernel's rusage through a tiny preload (process.resourceUsage at exit), so no external
 * tool is needed.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))))
export const BIN = join(ROOT, 'bin/run.js')
/** The single executable, `npm run build:binary`. */
export const BINARY = join(ROOT, 'dist-bin', process.platform === 'win32' ? 'svc.exe' : 'svc')
const RSS_HOOK = join(ROOT, 'bench/lib/rss-hook.js')

/** CPU time (user + system, ms) a running process has used so far, from /proc (Linux). */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** Wall time of one run of `node ...args` (or `cmd ...args`), output discarded; throws when it exits non-zero. */
export function timeRun(args, { env = process.env, cwd = ROOT, cmd = process.execPath } = {}) {
  const started = performance.now()
  const res = spawnSync(cmd, args, { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] })
  const elapsed = performance.now() - started
  if (res.status !== 0) throw new Error(`${cmd === process.execPath ? 'node' : cmd} ${args.join(' ')} exited ${res.status ?? res.signal}: ${String(res.stderr).trim().slice(0, 500)}`)
  return elapsed
}

/**
 * Runs `node ...args` with stdout piped back and counted line by line (without keeping it), and
 * returns wall time, peak RSS in KiB and the number of lines.
 */
export function runCounting(args, { env = process.env, cwd = ROOT, nodeArgs = [] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'))
  const rssFile = join(dir, 'rss')
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, ['--import', RSS_HOOK, ...nodeArgs, ...args], {
      env: { ...env, SVC_BENCH_RSS_FILE: rssFile },
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let lines = 0
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++
    })
    child.stderr.on('data', (chunk) => {
      if (stderr.length < 4000) stderr += chunk
    })
    child.on('error', reject)
    child.on('close', (code, signal) => {
      const elapsed = performance.now() - started
      try {
        if (code !== 0) throw new Error(`node ${args.join(' ')} exited ${code ?? signal}: ${stderr.trim().slice(0, 500)}`)
        const peakRssKiB = Number(readFileSync(rssFile, 'utf8'))
        resolve({ elapsed, peakRssKiB, lines })
      } catch (err) {
        reject(err)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })
  })
}
