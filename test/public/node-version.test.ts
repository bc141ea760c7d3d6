/**
 * On a Node.js older than 22.13 (no node:sqlite), the CLI and `svc-cli/sandbox` say which Node they
 * need instead of failing with ERR_UNKNOWN_BUILTIN_MODULE. The old Node is played by the pinned
 * one with process.versions.node set to 20.20.2 before anything loads.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/run-command.js'

const AS_NODE_20 = `data:text/javascript,Object.defineProperty(process.versions,'node',{value:'20.20.2'})`
const SANDBOX = join(ROOT, 'dist/public/sandbox.js')

function run(args: string[], node = process.execPath) {
  const r = spawnSync(node, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } })
  return { exitCode: r.status, stdout: r.stdout, stderr: r.stderr }
}

const importSandbox = `import(${JSON.stringify(SANDBOX)}).then(() => console.log('loaded'), (e) => { console.log(e.constructor.name + ': ' + e.message); process.exit(3) })`

describe('on Node.js older than 22.13', () => {
  it('svc exits 1 naming both ways out: a newer Node (or npm run svc, which pins one) and the single executable', () => {
    const r = run(['--import', AS_NODE_20, join(ROOT, 'bin/run.js'), 'charges', 'list'])
    expect(r.exitCode).toBe(1)
    expect(r.stdout).toBe('')
    // One line (scripts/check-pack.js checks the installed package's answer the same way).
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(r.stderr).toContain('svc needs Node.js 22.13 or newer')
    expect(r.stderr).toContain('`npm run svc -- ARGS`')
    expect(r.stderr).toContain('`npm run build:binary`')
  })

  it("import 'svc-cli/sandbox' throws an Error naming the Node it needs, not ERR_UNKNOWN_BUILTIN_MODULE", () => {
    const r = run(['--import', AS_NODE_20, '-e', importSandbox])
    expect(r.exitCode).toBe(3)
    expect(r.stdout).toMatch(/^Error: svc-cli\/sandbox needs Node\.js 22\.13 or newer \(for node:sqlite\)/)
  })
})

describe('on the pinned Node.js', () => {
  it('svc-cli/sandbox imports and starts a sandbox (the store is loaded after the check)', () => {
    const r = run(['-e', `import(${JSON.stringify(SANDBOX)}).then(async (m) => { const s = await m.startSandbox(); console.log(typeof s.baseUrl); await s.close() })`])
    expect(r.stderr).toBe('')
    expect(r.stdout.trim()).toBe('string')
  })
})
