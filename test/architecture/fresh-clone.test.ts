/**
 * `npm run typecheck` passes on a fresh clone, before any build, and CI keeps it so: no file the
 * typecheck covers (tsconfig.json's include: src, test, bench) imports a built file (dist/,
 * dist-bundle/, dist-bin/) by a literal path, which would not exist yet; a test of the built
 * package imports it by a computed URL, typed by its source. And .ci/run runs the typecheck
 * before the tests (which build).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return files(p)
    return /\.tsx?$/.test(name) ? [p] : []
  })
}

describe('npm run typecheck on a fresh clone', () => {
  it('no typechecked file imports a built file by a literal path', () => {
    const include = (JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as { include: string[] }).include
    const found: string[] = []
    for (const file of include.flatMap((dir) => files(join(ROOT, dir)))) {
      const text = readFileSync(file, 'utf8')
      for (const m of text.matchAll(/(?:from|import\()\s*['"]((?:\.\.?\/)+dist(?:-bundle|-bin)?\/[^'"]*)['"]/g)) found.push(`${relative(ROOT, file)}: ${m[1]}`)
    }
    expect(found).toEqual([])
  })

  it('.ci/run runs the typecheck after the lint and before the tests, and a failure ends with the tally line', () => {
    const lines = readFileSync(join(ROOT, '.ci/run'), 'utf8').split('\n')
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l))
    const typecheck = at(/^npm run typecheck\b/)
    expect(typecheck).toBeGreaterThan(at(/^npm run lint\b/))
    expect(typecheck).toBeLessThan(at(/^npm test\b/))
    expect(lines[typecheck]).toContain('|| { echo "0 passed, 1 failed"; exit 1; }')
  })
})
