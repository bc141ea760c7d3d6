/**
 * packaging/patches.js: every change the bundle makes to a dependency is written for one exact
 * version. These fail, naming the patch, when what is installed is not what a patch was written
 * for (an upgrade, a lock file drift) or the text a patch rewrites is gone; and they keep the
 * other half of the rule: nothing under src/ redirects a module or reaches into a dependency at
 * run time.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain JavaScript build script, no types
import { installedVersion, PATCHES, packageDir, patchesPlugin, patchProblems } from '../../packaging/patches.js'

interface Patch {
  id: string
  package: string
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

describe('packaging patches', () => {
  it.each(patches.map((p) => [p.id, p] as const))('%s: the installed package is the version it was written for, with the text it rewrites', (_id, patch) => {
    const version = installedVersion(patch.package) as string
    expect(version, `packaging patch ${patch.id}: written for ${patch.package}@${patch.version}, installed is ${version}; check the patch and update packaging/patches.js`).toBe(patch.version)
    const problems = (patchProblems() as string[]).filter((p) => p.startsWith(`packaging patch ${patch.id}:`))
    expect(problems).toEqual([])
  })

  it.each(patches.map((p) => [p.id, p] as const))('%s: package.json (direct dependencies) and the lock file pin that version', (_id, patch) => {
    const direct = pjson.dependencies[patch.package]
    if (direct !== undefined) expect(direct, `packaging patch ${patch.id}: pin ${patch.package} to exactly ${patch.version} in package.json`).toBe(patch.version)
    expect(lock.packages[`node_modules/${patch.package}`]?.version, `packaging patch ${patch.id}: package-lock.json (the shipped npm-shrinkwrap.json) has another ${patch.package}`).toBe(patch.version)
  })

  it('zod-english-only: zod imports its locale barrel only to re-export it, and no svc source reads z.locales', () => {
    const zodV4 = join(packageDir('zod') as string, 'v4')
    const uses = files(zodV4, /\.js$/)
      .filter((f) => !f.includes(join('v4', 'locales')))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .filter((l) => /locales\/index\.js|from "\.\.?\/locales"|from "\.\/locales\/?"/.test(l))
          .map((l) => l.trim()),
      )
    expect(new Set(uses)).toEqual(new Set(['export * as locales from "../locales/index.js";']))
    const readers = files(SRC, /\.tsx?$/).filter((f) => /\bz\.locales\b|\{\s*locales\b|zod\/(v4\/)?locales|\bz\.config\(/.test(readFileSync(f, 'utf8')))
    expect(readers).toEqual([])
  })

  it('zod-english-only: bundled, z.locales is English alone and the messages are intact', async () => {
    const out = await build({
      stdin: { contents: "import { z } from 'zod'\nexport const locales = Object.keys(z.locales)\nexport const message = z.string().safeParse(5).error.issues[0].message\n", resolveDir: ROOT },
      bundle: true,
      format: 'esm',
      platform: 'node',
      write: false,
      logLevel: 'silent',
      plugins: [patchesPlugin({ dist: join(ROOT, 'dist') })],
    })
    const mod = (await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0]!.text).toString('base64')}`)) as { locales: string[]; message: string }
    expect(mod.locales).toEqual(['en'])
    expect(mod.message).toBe('Invalid input: expected string, received number')
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

  it('nothing under src/ registers module hooks or loads a dependency by a private path', () => {
    const offenders = files(SRC, /\.tsx?$/).filter((f) => {
      const text = readFileSync(f, 'utf8')
      return /\bregisterHooks\b|\bmodule\.register\(|from 'node:module'[^\n]*\bregister\b|'(undici|zod|ink|react|yoga-layout|es-toolkit)\/(lib|dist|build|cjs|v4\/core)\//.test(text)
    })
    expect(offenders.map((f) => f.slice(ROOT.length))).toEqual([])
  })
})
