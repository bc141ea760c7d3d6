/**
 * packaging/entries/bundle-loader.js: the npm package's chunks import one another through the
 * bundle's own module hook (issue 39.1), which answers `./NAME.js` between files of dist-bundle/
 * without Node's resolver. Each case runs in a fresh process, as a command does: what a chunk
 * sees (its URL, its imports, its require) must be what it saw without the hook, and a chunk
 * missing from a broken install must still be reported by name.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { resolutionSpy } from '../helpers/resolution-spy.js'
import { ROOT } from '../helpers/run-command.js'

const LOADER = pathToFileURL(join(ROOT, 'packaging/entries/bundle-loader.js')).href

/** A package with a `bundle/` of chunks (`files`) and an entry that registers the hook for it and imports `bundle/main.js`. */
/** The directory has a space and a # in its name: URLs and paths must still agree. */
function run(files: Record<string, string>, { hook = true, show = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'svc bundle-loader #'))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }))
  mkdirSync(join(dir, 'bundle', 'sub'), { recursive: true })
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'bundle', name), text)
  const entry = join(dir, 'entry.mjs')
  writeFileSync(
    entry,
    `import { registerHooks } from 'node:module'
import { useBundleLoader } from ${JSON.stringify(LOADER)}
// Registered first, so it runs after the bundle's hook: what it sees, Node's own resolver resolved.
const byNode = []
registerHooks({ resolve(specifier, context, next) { byNode.push(specifier); return next(specifier, context) } })
process.on('exit', () => process.stderr.write(process.env.SHOW_RESOLVED ? JSON.stringify(byNode) : ''))
if (${hook}) useBundleLoader(new URL('./bundle/', import.meta.url).href)
const m = await import('./bundle/main.js')
process.stdout.write(JSON.stringify(await m.default()))
`,
  )
  const result = spawnSync(process.execPath, [entry], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, SHOW_RESOLVED: show ? '1' : '' } })
  return { dir, ...result }
}

const CHUNKS = {
  'main.js': `import { b } from './chunk-B.js'
import { createRequire } from 'node:module'
const require = createRequire(import.meta.url)
export default async () => ({
  url: import.meta.url,
  b,
  // A chunk's require of a CommonJS file beside it, and a dynamic import of a sibling and of a subdirectory.
  cjs: require('./legacy.cjs').n,
  lazy: (await import('./lazy-C.js')).c,
  sub: (await import('./sub/d.js')).d,
})
`,
  'chunk-B.js': `export const b = new URL('./chunk-B.js', import.meta.url).pathname.endsWith('/bundle/chunk-B.js')\n`,
  'legacy.cjs': 'module.exports = { n: 7 }\n',
  'lazy-C.js': `import { b } from './chunk-B.js'\nexport const c = b && 'lazy'\n`,
  'sub/d.js': `export const d = 'sub'\n`,
}

/** The files of dist-bundle/ that Node's own resolver resolved while the built CLI ran `args` (a hook registered before the bundle's sees only those). */
function resolvedByNode(args: string[]): { status: number | null; stdout: string; byNode: string[] } {
  const spy = resolutionSpy()
  const result = spawnSync(process.execPath, [spy.importFlag, join(ROOT, 'bin', 'run.js'), ...args], { encoding: 'utf8', timeout: 30_000 })
  return { status: result.status, stdout: result.stdout, byNode: spy.byNode() }
}

describe('bundle-loader: the chunks of dist-bundle/ import one another through the bundle’s own hook', () => {
  it('gives each chunk what Node gives it without the hook: its URL, its imports, its require and its dynamic imports', () => {
    const withHook = run(CHUNKS)
    expect(withHook.stderr).toBe('')
    const got = JSON.parse(withHook.stdout)
    expect(got).toEqual({ url: pathToFileURL(join(withHook.dir, 'bundle', 'main.js')).href, b: true, cjs: 7, lazy: 'lazy', sub: 'sub' })
    const without = run(CHUNKS, { hook: false })
    expect(without.stderr).toBe('')
    expect({ ...JSON.parse(without.stdout), url: undefined }).toEqual({ ...got, url: undefined })
  })

  it('answers the chunks’ imports of one another itself; Node resolves the rest (built-ins, require, subdirectories)', () => {
    const resolvedByNode = (hook: boolean) => {
      const result = run(CHUNKS, { hook, show: true })
      return JSON.parse(result.stderr) as string[]
    }
    const without = resolvedByNode(false)
    expect(without).toEqual(expect.arrayContaining(['./chunk-B.js', './lazy-C.js', './legacy.cjs', './sub/d.js', 'node:module']))
    const withHook = resolvedByNode(true)
    expect(withHook).not.toContain('./chunk-B.js')
    expect(withHook).not.toContain('./lazy-C.js')
    expect(withHook).toEqual(expect.arrayContaining(['./legacy.cjs', './sub/d.js', 'node:module']))
  })

  it('is what the built CLI runs its command through: no chunk of dist-bundle/ is resolved by Node', () => {
    // A command's help: main.js hands it to oclif (cli.js and the command's chunks), with nothing sent.
    const result = resolvedByNode(['charges', 'get', '--help'])
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('svc charges get')
    // main.js itself is bin/run.js's import; every chunk after it is the bundle's hook's.
    expect(result.byNode).toEqual(['main.js'])
  })

  it('is not registered for a server (webhooks listen, sandbox start, relay serve): Node resolves its chunks as it would alone', () => {
    const result = resolvedByNode(['webhooks', 'listen', '--help'])
    expect(result.status).toBe(0)
    expect(result.byNode).toEqual(expect.arrayContaining(['main.js', 'cli.js']))
    expect(result.byNode.length).toBeGreaterThan(5)
  })

  it('evaluates a chunk imported by two others once (one module, one URL)', () => {
    const result = run({
      'main.js': `import { n as a } from './chunk-A.js'\nimport { n as b } from './chunk-B.js'\nexport default async () => ({ a, b, again: (await import('./chunk-C.js')).count() })\n`,
      'chunk-A.js': `import { count } from './chunk-C.js'\nexport const n = count()\n`,
      'chunk-B.js': `import { count } from './chunk-C.js'\nexport const n = count()\n`,
      'chunk-C.js': `globalThis.evaluated = (globalThis.evaluated ?? 0) + 1\nlet n = 0\nexport const count = () => ++n + 100 * globalThis.evaluated\n`,
    })
    expect(result.stderr).toBe('')
    expect(JSON.parse(result.stdout)).toEqual({ a: 101, b: 102, again: 103 })
  })

  it('reports a chunk missing from a broken install by file and importer, as Node does (ERR_MODULE_NOT_FOUND)', () => {
    const result = run({ 'main.js': `import { x } from './chunk-GONE.js'\nexport default async () => x\n` })
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('ERR_MODULE_NOT_FOUND')
    expect(result.stderr).toContain(`Cannot find module '${join(result.dir, 'bundle', 'chunk-GONE.js')}' imported from ${join(result.dir, 'bundle', 'main.js')}`)
  })

  it('leaves a syntax error in a chunk to Node, naming the file', () => {
    const files = { 'main.js': `import { x } from './chunk-BAD.js'\nexport default async () => x\n`, 'chunk-BAD.js': 'export const x = (\n' }
    const result = run(files)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(`${pathToFileURL(join(result.dir, 'bundle', 'chunk-BAD.js')).href}:2`)
    expect(result.stderr).toContain('SyntaxError: Unexpected end of input')
    // What Node says without the hook, but for the directory's name.
    const without = run(files, { hook: false })
    const head = (r: typeof result) => r.stderr.split('\n').slice(0, 5).join('\n').replaceAll(pathToFileURL(r.dir).href, 'DIR')
    expect(head(result)).toBe(head(without))
  })
})
