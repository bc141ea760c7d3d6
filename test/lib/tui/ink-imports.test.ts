/**
 * The bundle (packaging/patches.js, ink-throttle-alone) points Ink's `import { throttle } from 'es-toolkit/compat'` at the one module that
 * defines throttle (the barrel loads 415 modules, ~130 ms of a live view's first frame). That is
 * only right while throttle is all Ink takes from there: an Ink upgrade that imports more must
 * fail here, not in a user's terminal.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

const inkBuild = dirname(fileURLToPath(import.meta.resolve('ink')))

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : []))
}

describe("Ink's import from es-toolkit/compat", () => {
  it('is throttle alone, in build/ink.js', () => {
    const uses = jsFiles(inkBuild).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*['"]es-toolkit\/compat['"]/g)].map((m) => [file.slice(inkBuild.length + 1), m[1]!.trim()]))
    expect(uses).toEqual([['ink.js', 'throttle']])
    // No other form (default, namespace, re-export, require) either.
    const any = jsFiles(inkBuild).filter((file) => readFileSync(file, 'utf8').includes('es-toolkit/compat'))
    expect(any.map((f) => f.slice(inkBuild.length + 1))).toEqual(['ink.js'])
  })

  it('resolves to a module that exports throttle', async () => {
    const barrel = import.meta.resolve('es-toolkit/compat', pathToFileURL(join(inkBuild, 'ink.js')).href)
    expect(barrel).toMatch(/\/dist\/compat\/index\.mjs$/)
    const direct = (await import(barrel.replace(/\/dist\/compat\/index\.mjs$/, '/dist/compat/function/throttle.mjs'))) as { throttle?: unknown }
    expect(typeof direct.throttle).toBe('function')
  })
})
