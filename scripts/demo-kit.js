// What both demos (scripts/demo.js, scripts/demo-relay.js) share: the Node check, a throwaway
// config dir, the real binary run in the foreground (echoed as a pasteable shell line) or in the
// background (its first JSON line awaited), and a clean stop of everything it started.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { shellLine } from './shell-quote.js'

/**
 * The demo runs svc on this very Node: on one older than package.json's engines, say so at once
 * (each svc it started would refuse with one line, which the demo keeps quiet).
 */
export function requireEnginesNode() {
  const min = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node.replace(/^>=\s*/, '')
  const [needMajor, needMinor] = min.split('.').map(Number)
  const [major, minor] = process.versions.node.split('.').map(Number)
  if (major < needMajor || (major === needMajor && minor < needMinor)) {
    process.stderr.write(
      `The demo needs Node.js ${min} or newer; this is ${process.version}. Run \`npm run demo\`, which uses the Node 24 this clone pins, or install a current Node.js (https://nodejs.org, e.g. \`nvm install 24\`).\n`,
    )
    process.exit(1)
  }
}

/** A demo's kit: `prefix` names its throwaway config dir (your own profiles are never touched). */
export function demoKit(prefix) {
  requireEnginesNode()
  const BIN = new URL('../bin/run.js', import.meta.url).pathname
  const configDir = mkdtempSync(join(tmpdir(), prefix))
  const env = { ...process.env, SVC_CONFIG_DIR: configDir }
  delete env.SVC_API_KEY
  delete env.SVC_BASE_URL
  delete env.SVC_PROFILE
  const tty = process.stdout.isTTY
  const bold = (s) => (tty ? `\u001B[1m${s}\u001B[22m` : s)
  const step = (s) => console.log(`\n${bold(`▶ ${s}`)}`)
  const children = []

  function background(args, { quiet = false, extraEnv = {} } = {}) {
    // The sandbox logs every request on stderr; the demo keeps it quiet so the story stays readable
    // (and shows it only if the command ends before its first line).
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'] })
    let stderr = ''
    child.stderr?.setEncoding('utf8').on('data', (c) => (stderr += c))
    children.push(child)
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
    /** The command's first line of JSON (its banner); an error naming the command if it ends first. */
    const first = async () => {
      const { value } = await lines.next()
      if (value !== undefined) return JSON.parse(value)
      await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', r)))
      throw new Error(`svc ${shellLine(args)} exited ${child.exitCode ?? child.signalCode} before it was ready${stderr.trim() ? `:\n${stderr.trim()}` : ''}`)
    }
    return { child, first }
  }

  /** Runs svc in the foreground, echoed first; `capture` returns (and shows, unless `quiet`) what it printed. */
  function run(args, { capture = false, quiet = false, extraEnv = {} } = {}) {
    // Quoted as a shell needs it, so the echoed line can be pasted; an env value is named, never shown.
    const envWords = Object.keys(extraEnv)
      .map((k) => `${k}=$${k} `)
      .join('')
    console.log(`$ ${envWords}svc ${shellLine(args)}`)
    const r = spawnSync(process.execPath, [BIN, ...args], { env: { ...env, ...extraEnv }, stdio: capture ? ['ignore', 'pipe', 'inherit'] : 'inherit', encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`svc ${shellLine(args)} exited ${r.status}`)
    if (!capture) return ''
    // What the echoed command printed, as a terminal would show it (unless it holds a secret).
    const out = r.stdout.trim()
    if (!quiet) console.log(out)
    return out
  }

  /** Waits (100 ms polls, 15 s at most) until `done()` holds. */
  async function waitFor(done, ms = 15_000) {
    const deadline = Date.now() + ms
    while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
  }

  /** Runs the story, then stops what it started (the last started first) and removes the config dir; exits with its code. */
  async function main(story) {
    let code = 1
    try {
      code = await story()
    } catch (error) {
      console.error(`demo failed: ${error.message}`)
    } finally {
      // The listener first (it gives the sandbox its webhook URLs back as it stops), then the sandbox.
      for (const c of [...children].reverse()) {
        if (c.exitCode !== null) continue
        const exited = new Promise((r) => c.once('exit', r))
        c.kill('SIGTERM')
        await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))])
      }
      rmSync(configDir, { recursive: true, force: true })
    }
    process.exit(code)
  }

  return { BIN, configDir, env, bold, step, background, run, waitFor, main }
}
