/**
 * The live views as a user starts them: the built CLI (the bundle, when built, as `npm test`
 * does) on a pseudo-terminal (`script`, from util-linux), so Ink, React and Yoga load and draw
 * from the shipped chunks. The bundle patches some of that on the way in (React's production
 * build alone, Yoga's wasm decoded without fetch, node:http required rather than imported); a
 * patch that broke them would show here as a view that never draws.
 */
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Background, BIN, svc, svcBackground } from '../helpers/cli.js'
import { resolutionSpy } from '../helpers/resolution-spy.js'
import { ROOT } from '../helpers/run-command.js'

let sandbox: Background
let env: Record<string, string>

beforeAll(async () => {
  env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-e2e-view-')) }
  sandbox = await svcBackground(['sandbox', 'start', '--in-memory', '--port', '0', '--json'], { env })
})

afterAll(async () => {
  await sandbox?.stop()
})

/** Runs `svc args` on a pseudo-terminal until `marker` is on screen, then types `q`; the screen and exit code. */
async function onTerminal(args: string[], marker: string, extraEnv: Record<string, string> = {}): Promise<{ screen: string; exitCode: number | null }> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ')
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { ...process.env, ...env, ...extraEnv, TERM: 'xterm-256color', CI: undefined, NO_COLOR: undefined, COLUMNS: '100', LINES: '30' },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let screen = ''
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
  await new Promise<void>((resolve) => {
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      screen += c
      if (screen.includes(marker)) resolve()
    })
    child.once('exit', () => resolve())
  })
  if (child.exitCode === null) child.stdin!.write('q')
  const [exitCode] = child.exitCode === null ? ((await once(child, 'exit')) as [number | null]) : [child.exitCode]
  clearTimeout(timer)
  return { screen, exitCode }
}

describe('live views through the shipped bundle', () => {
  it('charges watch draws its first frame on a terminal and quits on q', async () => {
    const created = await svc(['charges', 'create', '--amount', '1500', '--payer-tax-number', '529.982.247-25', '-q'], { env })
    expect(created.exitCode).toBe(0)
    const id = created.stdout.trim()
    const { screen, exitCode } = await onTerminal(['charges', 'watch', id], 'q quit')
    // The lane shows the id shortened to its start and end.
    expect(screen).toContain(`${id.slice(0, 6)}…${id.slice(-4)}`)
    expect(screen).toContain('awaiting_payment')
    expect(screen).toContain('q quit')
    expect(exitCode).toBe(0)
  })

  it('webhooks listen draws its live view on a terminal as an interactive command starts: the chunks through the bundle’s hook', async () => {
    // A headless server loads its chunks through Node's own resolver (bundle-loader.test.ts); the
    // live view is watched as it starts, so it takes the start-up path: after main.js, Node
    // resolves no chunk of dist-bundle/ (a spy hook registered first sees every resolution).
    const spy = resolutionSpy()
    const { screen, exitCode } = await onTerminal(['webhooks', 'listen', '--forward', 'localhost:3999', '--port', '0'], 'q quit', { NODE_OPTIONS: spy.importFlag })
    expect(screen).toContain('listening')
    expect(exitCode).toBe(0)
    expect(spy.byNode()).toEqual(['main.js'])
  })

  it('the bundle carries React without its development build, reads Yoga without fetch, and requires node:http', () => {
    if (spawnSync('script', ['--version']).error) throw new Error('script (util-linux) is needed by these tests')
    const dir = join(ROOT, 'dist-bundle')
    const text = readdirSync(dir)
      .filter((f) => f.endsWith('.js') || f.endsWith('.cjs'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n')
    expect(text).toContain('// node_modules/react-reconciler/cjs/react-reconciler.production.js')
    expect(text).not.toMatch(/\/\/ node_modules\/(react|react-reconciler|scheduler)\/cjs\/[\w.-]+\.development\.js/)
    expect(text).toContain('// node_modules/yoga-layout/dist/binaries/yoga-wasm-base64-esm.js')
    expect(text).toContain('w = Buffer.from(H.slice(37), "base64")')
    // An ES-module import of node:http reads its WebSocket getter, which loads Node's own undici.
    expect(text).not.toMatch(/from "node:https?"/)
    expect(text).toContain('require("node:http")')
  })
})
