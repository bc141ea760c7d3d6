/**
 * On a Node.js older than the package needs (MIN_NODE, the pinned undici's own floor), the CLI and
 * each library entry (svc-cli/client, svc-cli/sandbox, svc-cli/webhooks) say which Node they need
 * instead of failing inside undici (`TypeError: Cannot read properties of undefined (reading
 * 'bind')`) or with ERR_UNKNOWN_BUILTIN_MODULE. Two ways: a real old Node (the machine's own
 * `node`, v20 here and in CI; skipped with a note where there is none), and the pinned one with
 * process.versions.node set to 20.20.2 before anything loads.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { MIN_NODE } from '../../src/public/node-guard.js'
import { ROOT } from '../helpers/run-command.js'
import { needs } from '../helpers/system-tools.js'

const AS_NODE_20 = `data:text/javascript,Object.defineProperty(process.versions,'node',{value:'20.20.2'})`
const ENTRIES = ['client', 'sandbox', 'webhooks'] as const
const NEEDS = `svc-cli needs Node.js ${MIN_NODE} or newer`

function run(args: string[], node = process.execPath) {
  const r = spawnSync(node, args, { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH } })
  return { exitCode: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** A script that imports the built entry and prints what the import threw (exit 3), or "loaded". */
const importEntry = (entry: string) =>
  `import(${JSON.stringify(pathToFileURL(join(ROOT, `dist/public/${entry}.js`)).href)}).then(() => console.log('loaded'), (e) => { console.log(e.constructor.name + ': ' + e.message); process.exit(3) })`

describe(`on Node.js older than ${MIN_NODE}`, () => {
  it.for(ENTRIES)("import 'svc-cli/%s' on the machine's old Node throws an Error naming the Node it needs, not a TypeError inside undici", (entry, ctx) => {
    const node = needs(ctx, 'old-node')
    const r = run(['-e', importEntry(entry)], node)
    expect(r.stdout).toMatch(new RegExp(`^Error: ${NEEDS.replaceAll('.', '\\.')} \\(.*\\); this is v\\d+\\.`))
    expect(r.exitCode).toBe(3)
    expect(r.stderr).toBe('')
  })

  it("svc on the machine's old Node exits 1 with the one line naming the Node it needs", (ctx) => {
    const node = needs(ctx, 'old-node')
    const r = run([join(ROOT, 'bin/run.js'), 'charges', 'list'], node)
    expect(r.exitCode).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(r.stderr).toContain(`svc needs Node.js ${MIN_NODE} or newer`)
  })

  it('svc exits 1 naming both ways out: a newer Node (or npm run svc, which pins one) and the single executable', () => {
    const r = run(['--import', AS_NODE_20, join(ROOT, 'bin/run.js'), 'charges', 'list'])
    expect(r.exitCode).toBe(1)
    expect(r.stdout).toBe('')
    // One line (scripts/check-pack.js checks the installed package's answer the same way).
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(r.stderr).toContain(`svc needs Node.js ${MIN_NODE} or newer`)
    expect(r.stderr).toContain('`npm run svc -- ARGS`')
    expect(r.stderr).toContain('`npm run build:binary`')
  })

  it.each(ENTRIES)("import 'svc-cli/%s' throws the Error before anything heavy loads (a Node that says it is 20)", (entry) => {
    const r = run(['--import', AS_NODE_20, '-e', importEntry(entry)])
    expect(r.exitCode).toBe(3)
    expect(r.stdout).toMatch(new RegExp(`^Error: ${NEEDS.replaceAll('.', '\\.')} `))
  })

  it('the minimum is said once: package.json engines, bin/run.js and the library agree', () => {
    const pjson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
    expect(pjson.engines.node).toBe(`>=${MIN_NODE}`)
    const [major, minor] = MIN_NODE.split('.')
    expect(readFileSync(join(ROOT, 'bin/run.js'), 'utf8')).toContain(`(major === ${major} && minor < ${minor})`)
  })
})

describe('on the pinned Node.js', () => {
  it('svc-cli/sandbox imports and starts a sandbox (the store is loaded after the check)', () => {
    const r = run(['-e', `import(${JSON.stringify(join(ROOT, 'dist/public/sandbox.js'))}).then(async (m) => { const s = await m.startSandbox(); console.log(typeof s.baseUrl); await s.close() })`])
    expect(r.stderr).toBe('')
    expect(r.stdout.trim()).toBe('string')
  })
})
