/**
 * packaging/patches.js: every change the bundle makes to a dependency is written for one exact
 * version. These fail, naming the patch, when what is installed is not what a patch was written
 * for (an upgrade, a lock file drift) or the text a patch rewrites is gone; and they keep the
 * other half of the rule: nothing under src/ redirects a module or reaches into a dependency at
 * run time.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain JavaScript build script, no types
import { callTimeBuiltin, common as bundleOptions } from '../../packaging/build-bundle.js'
// @ts-expect-error plain JavaScript build script, no types
import { installedVersion, LAZY_REQUIRE, PATCHES, packageDir, patchesPlugin, patchProblems } from '../../packaging/patches.js'

interface Patch {
  id: string
  package: string
  /** A nested copy, by path from the package root (node_modules/ink/node_modules/string-width). */
  dir?: string
  version: string
  checks: [string, string | RegExp][]
}
const patches = PATCHES as Patch[]
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SRC = join(ROOT, 'src')
const require = createRequire(import.meta.url)
const pjson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> }

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name), ext) : ext.test(e.name) ? [join(dir, e.name)] : []))
}

/** `script` bundled as the CLI is (its build options and patches), one ES module in memory. */
function bundleWithPatches(script: string) {
  return build({
    ...(bundleOptions as object),
    stdin: { contents: script, resolveDir: ROOT },
    format: 'esm',
    write: false,
    logLevel: 'silent',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    plugins: [patchesPlugin({ dist: join(ROOT, 'dist') })],
  })
}
describe('packaging patches', () => {
  it.each(patches.map((p) => [p.id, p] as const))('%s: the installed package is the version it was written for, with the text it rewrites', (_id, patch) => {
    const version = installedVersion(patch) as string
    expect(version, `packaging patch ${patch.id}: written for ${patch.package}@${patch.version}, installed is ${version}; check the patch and update packaging/patches.js`).toBe(patch.version)
    const problems = (patchProblems() as string[]).filter((p) => p.startsWith(`packaging patch ${patch.id}:`))
    expect(problems).toEqual([])
  })

  it.each(patches.map((p) => [p.id, p] as const))('%s: package.json (direct dependencies) and the lock file pin that version', (_id, patch) => {
    const direct = patch.dir ? undefined : pjson.dependencies[patch.package]
    if (direct !== undefined) expect(direct, `packaging patch ${patch.id}: pin ${patch.package} to exactly ${patch.version} in package.json`).toBe(patch.version)
    expect(lock.packages[patch.dir ?? `node_modules/${patch.package}`]?.version, `packaging patch ${patch.id}: package-lock.json (the shipped npm-shrinkwrap.json) has another ${patch.package}`).toBe(patch.version)
  })

  // Two dependencies once needed a patch and now need only the build's settings: zod's locale
  // barrel is dropped because svc imports zod as a namespace (`import * as z`, which esbuild
  // tree-shakes; `import { z }` keeps every locale), and React's development builds are dropped
  // by the bundle's `define` of NODE_ENV. These hold both settings to what they promise.
  it('zod: every source imports it as a namespace, so the bundle can leave its locales out', () => {
    const named = files(SRC, /\.tsx?$/).filter((f) => /^import \{[^}]*\bz\b[^}]*\} from 'zod'/m.test(readFileSync(f, 'utf8')))
    expect(named.map((f) => f.slice(ROOT.length))).toEqual([])
  })

  async function bundledInputs(contents: string): Promise<{ inputs: string[]; run: () => Promise<Record<string, unknown>> }> {
    const out = await build({ ...(bundleOptions as object), stdin: { contents, resolveDir: ROOT }, format: 'esm', write: false, logLevel: 'silent', metafile: true })
    return {
      // What the output holds (an input esbuild read and shook out entirely is not in it).
      inputs: Object.values(out.metafile!.outputs).flatMap((o) =>
        Object.entries(o.inputs)
          .filter(([, i]) => i.bytesInOutput > 0)
          .map(([f]) => f),
      ),
      run: async () => (await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0]!.text).toString('base64')}`)) as Record<string, unknown>,
    }
  }

  it('zod: bundled with the build settings, no locale but English is in, and the messages are intact', async () => {
    const { inputs, run } = await bundledInputs("import * as z from 'zod'\nexport const message = z.string().safeParse(5).error.issues[0].message\n")
    const locales = inputs.filter((f) => f.includes('/zod/v4/locales/'))
    expect(locales.every((f) => f.endsWith('/en.js'))).toBe(true)
    expect((await run()).message).toBe('Invalid input: expected string, received number')
  })

  it('react: bundled with the build settings, React and its scheduler carry their production builds alone', async () => {
    const { inputs } = await bundledInputs("import * as React from 'react'\nimport * as S from 'scheduler'\nexport const v = [React.version, typeof S.unstable_now]\n")
    const builds = inputs.filter((f) => /\/(react|scheduler)\/cjs\//.test(f))
    expect(builds.some((f) => f.endsWith('.production.js'))).toBe(true)
    expect(builds.filter((f) => f.includes('.development.'))).toEqual([])
  })

  it('ink: bundled with the build settings, it carries throttle alone of the es-toolkit/compat barrel (hundreds of modules)', async () => {
    const { inputs } = await bundledInputs("export { render } from 'ink'\n")
    const toolkit = inputs.filter((f) => f.includes('/es-toolkit/'))
    expect(toolkit.length).toBeGreaterThan(0)
    expect(toolkit.length).toBeLessThan(10)
  })

  it("undici-agent-alone: net/outbound.ts takes Agent alone from undici's public entry", () => {
    const text = readFileSync(join(SRC, 'lib/net/outbound.ts'), 'utf8')
    const imports = [...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'undici'/g)].map((m) =>
      m[1]!
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s && !s.startsWith('type ')),
    )
    expect(imports).toEqual([['Agent']])
    const undici = packageDir('undici') as string
    expect(require(join(undici, 'lib/dispatcher/agent.js'))).toBe(require(undici).Agent)
  })

  it('undici-h2-on-demand: an HTTP/1.1 request loads neither node:http2 nor node:tls, and an h2 connection still works', async () => {
    const agent = join(packageDir('undici') as string, 'lib/dispatcher/agent.js')
    // A fresh process (vitest's own may hold http2 already): one HTTP/1.1 and one h2c exchange.
    // node:http is required, not imported: an ES-module namespace of it reads every export, and
    // one of them loads node:http2 (see packaging/build-bundle.js).
    const script = `
      const { createServer } = require('node:http')
      import Agent from ${JSON.stringify(agent)}
      const loaded = (m) => process.moduleLoadList.includes('NativeModule ' + m)
      const request = (agent, origin) => new Promise((resolve, reject) => {
        let body = ''
        agent.dispatch({ origin, path: '/', method: 'GET' }, {
          onRequestStart() {}, onResponseStart() {}, onResponseData(_c, chunk) { body += chunk }, onResponseEnd() { resolve(body) }, onResponseError(_c, err) { reject(err) },
        })
      })
      const h1 = createServer((_req, res) => res.end('h1 answer'))
      await new Promise((r) => h1.listen(0, '127.0.0.1', r))
      const a1 = new Agent()
      const first = await request(a1, 'http://127.0.0.1:' + h1.address().port)
      const before = { http2: loaded('http2'), tls: loaded('tls') }
      await a1.close(); h1.close()
      const { createServer: createH2 } = require('node:http2')
      const h2 = createH2((_req, res) => res.end('h2 answer'))
      await new Promise((r) => h2.listen(0, '127.0.0.1', r))
      const a2 = new Agent({ allowH2: true, useH2c: true })
      const second = await request(a2, 'http://127.0.0.1:' + h2.address().port)
      await a2.close(); h2.close()
      process.stdout.write(JSON.stringify({ first, before, second }))
    `
    const out = await bundleWithPatches(script)
    const file = join(mkdtempSync(join(tmpdir(), 'svc-undici-h2-')), 'run.mjs')
    writeFileSync(file, out.outputFiles[0]!.text)
    const run = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 20_000 })
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toEqual({ first: 'h1 answer', before: { http2: false, tls: false }, second: 'h2 answer' })
  })

  it('oclif-discovery-on-demand: the bundled oclif still globs a commands directory and matches plugin patterns when it must', async () => {
    const pkg = mkdtempSync(join(tmpdir(), 'svc-oclif-discovery-'))
    mkdirSync(join(pkg, 'cmds'))
    writeFileSync(join(pkg, 'cmds', 'hello.js'), 'module.exports = class Hello { static run() {} }\n')
    // No manifest: Plugin globs cmds/ (tinyglobby). A plugin pattern over the dependencies: PluginLoader matches it (minimatch).
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'pkg', version: '1.0.0', oclif: { commands: './cmds', plugins: ['zzz-*'] }, dependencies: { 'zzz-never': '1.0.0', other: '1.0.0' } }))
    const script = `import { Config } from '@oclif/core'\nconst config = await Config.load({ root: ${JSON.stringify(pkg)} })\nprocess.stdout.write(JSON.stringify(config.commandIDs))\n`
    const out = await bundleWithPatches(script)
    const text = out.outputFiles[0]!.text
    expect(text).toContain('var tinyglobby_1 = { get glob()')
    expect(text).toContain('var minimatch_1 = { get minimatch()')
    const file = join(pkg, 'run.mjs')
    writeFileSync(file, text)
    const run = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 20_000 })
    expect(JSON.parse(run.stdout)).toEqual(['hello'])
    expect(run.stderr).toContain('zzz-never')
    expect(run.stderr).not.toContain('other')
  })

  it('conf-without-ajv: bundled with the build settings, conf carries neither ajv nor semver and still reads and writes a store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-conf-bundle-'))
    const { inputs, run } = await bundledInputs(
      `import Conf from 'conf'\nconst at = () => new Conf({ cwd: ${JSON.stringify(dir)}, configName: 'config', configFileMode: 0o600, clearInvalidConfig: false, projectName: 'x' })\nat().store = { profiles: { a: { apiKey: 'k' } } }\nexport const store = at().store\n`,
    )
    expect(inputs.filter((f) => /\/node_modules\/(ajv|ajv-formats|semver)\//.test(f))).toEqual([])
    expect((await run()).store).toEqual({ profiles: { a: { apiKey: 'k' } } })
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600)
  })

  it('conf-without-ajv: the config store gives conf nothing that needs ajv or semver', () => {
    const text = readFileSync(join(SRC, 'lib/config/store.ts'), 'utf8')
    // conf is loaded there, by the store that writes (reading does without it).
    expect(text).toContain("await import('conf')")
    expect(text).not.toMatch(/\b(schema|rootSchema|ajvOptions|migrations)\s*:/)
  })

  it('oclif-inline-requires: a stand-in requires its module at the first use of any kind, and then behaves as the module', () => {
    const lazyRequire: { exports: { lazy: <T>(load: () => T) => T } } = { exports: {} as never }
    new Function('exports', LAZY_REQUIRE as string)(lazyRequire.exports)
    const { lazy } = lazyRequire.exports
    let loads = 0
    class Base {
      hello() {
        return 'hi'
      }
    }
    const objectModule = lazy(() => {
      loads++
      return {
        value: 1,
        Base,
        f(this: { value: number }) {
          return this.value
        },
      }
    })
    expect(loads).toBe(0)
    expect(objectModule.value).toBe(1)
    expect(loads).toBe(1)
    objectModule.value = 2
    expect(objectModule.f()).toBe(2)
    expect('Base' in objectModule).toBe(true)
    expect(Object.keys(objectModule)).toEqual(['value', 'Base', 'f'])
    expect({ ...objectModule }.value).toBe(2)
    // tsc's `class X extends y_1.Base`, and instanceof against the module's class.
    class Derived extends objectModule.Base {}
    expect(new Derived().hello()).toBe('hi')
    expect(new Derived()).toBeInstanceOf(Base)
    expect(loads).toBe(1)
    // A module that is a function (debug, wordwrap) or a class is called and constructed as one.
    const fn = lazy(() => Object.assign((a: number) => a * 2, { extra: 'x' }))
    expect(fn(21)).toBe(42)
    expect(fn.extra).toBe('x')
    const Klass = lazy(() => Base)
    expect(new Klass()).toBeInstanceOf(Base)
  })

  it('oclif-inline-requires: the bundled oclif loads none of what a command does not use, and still parses, fails and helps as before', async () => {
    const script = `
      const loaded = () => process.moduleLoadList.filter((m) => /^NativeModule (child_process|readline|perf_hooks|fs\\/promises)$/.test(m))
      const before = loaded()
      const oclif = await import('@oclif/core')
      const afterImport = loaded()
      const { flags } = await oclif.Parser.parse(['--n', '3'], { flags: { n: oclif.Flags.integer() } })
      let failure
      try { await oclif.Parser.parse(['--n', 'x'], { flags: { n: oclif.Flags.integer() } }) } catch (err) { failure = { cli: err instanceof oclif.Errors.CLIError, message: err.message } }
      const config = await oclif.Config.load({ root: ${JSON.stringify(ROOT)} })
      process.stdout.write(JSON.stringify({ before, afterImport, n: flags.n, failure, bin: config.bin, commands: config.commandIDs.includes('charges:get') }))
    `
    const out = await bundleWithPatches(script)
    const file = join(mkdtempSync(join(tmpdir(), 'svc-oclif-inline-')), 'run.mjs')
    writeFileSync(file, out.outputFiles[0]!.text)
    const run = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 20_000 })
    expect(run.stderr).toBe('')
    const result = JSON.parse(run.stdout)
    expect(result.afterImport).toEqual(result.before)
    expect(result).toMatchObject({ n: 3, failure: { cli: true, message: expect.stringContaining('Expected an integer but received: x') }, bin: 'svc', commands: true })
  })

  it('node:crypto taken at the first call (svc-builtin-on-call): every function of it, giving what node:crypto gives', async () => {
    const source = callTimeBuiltin('node:crypto') as string
    const stand = await import(`data:text/javascript,${encodeURIComponent(source)}`)
    const crypto = await import('node:crypto')
    for (const name of ['createHash', 'createHmac', 'randomBytes', 'randomUUID', 'timingSafeEqual', 'hash', 'randomFillSync']) expect(typeof stand[name], name).toBe('function')
    expect(stand.createHash('sha256').update('svc').digest('hex')).toBe(crypto.createHash('sha256').update('svc').digest('hex'))
    expect(stand.createHmac('sha256', 'k').update('svc').digest('hex')).toBe(crypto.createHmac('sha256', 'k').update('svc').digest('hex'))
    expect(stand.randomBytes(12)).toHaveLength(12)
    expect(stand.randomUUID()).toMatch(/^[0-9a-f-]{36}$/)
    expect(stand.timingSafeEqual(Buffer.from('a'), Buffer.from('a'))).toBe(true)
    // Constants and classes are not stood for: importing one fails the build, not the run.
    expect(source).not.toMatch(/export function (constants|webcrypto|subtle|Hash|Hmac|KeyObject|X509Certificate)\b/)
  })

  it('nothing under src/ registers module hooks or loads a dependency by a private path', () => {
    const offenders = files(SRC, /\.tsx?$/).filter((f) => {
      const text = readFileSync(f, 'utf8')
      return /\bregisterHooks\b|\bmodule\.register\(|from 'node:module'[^\n]*\bregister\b|'(undici|zod|ink|react|yoga-layout|es-toolkit)\/(lib|dist|build|cjs|v4\/core)\//.test(text)
    })
    expect(offenders.map((f) => f.slice(ROOT.length))).toEqual([])
  })
})
