/**
 * Where a newcomer finds a file's tests: at the mirrored path, test/<path under src>.test.ts(x).
 * Files without one are listed in test/architecture/untested.txt, so the gap is visible and can
 * only shrink on purpose: a new source file without its test fails here until it gets one (or a
 * line in the list), and a listed file that got its test must leave the list.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const SRC = join(ROOT, 'src')
const LIST = join(import.meta.dirname, 'untested.txt')

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return sources(p)
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [relative(SRC, p)] : []
  })
}

const hasMirroredTest = (rel: string) => {
  const base = join(ROOT, 'test', rel.replace(/\.tsx?$/, ''))
  return existsSync(`${base}.test.ts`) || existsSync(`${base}.test.tsx`)
}

const listed = readFileSync(LIST, 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'))

describe('tests at the mirrored path', () => {
  const all = sources(SRC)

  it('every source file has its test at the mirrored path, or is listed in untested.txt', () => {
    const missing = all.filter((f) => !hasMirroredTest(f) && !listed.includes(f))
    expect(missing, 'add test/<path>.test.ts for these (or, consciously, a line in test/architecture/untested.txt)').toEqual([])
  })

  it('lists no file that has its test now, or that no longer exists', () => {
    const stale = listed.filter((f) => !all.includes(f) || hasMirroredTest(f))
    expect(stale, 'remove these lines from test/architecture/untested.txt').toEqual([])
  })

  // Issue 40 item 8: a newcomer finds the test of most lib modules next to its name. A floor, not
  // a target: new lib files come with their test, so this only fails when many arrive without.
  it('at least 60 % of src/lib files have their test at the mirrored path', () => {
    const lib = all.filter((f) => f.startsWith('lib/'))
    const share = lib.filter(hasMirroredTest).length / lib.length
    expect(share, `src/lib: ${lib.filter(hasMirroredTest).length}/${lib.length} (node scripts/test-map.js --dirs)`).toBeGreaterThanOrEqual(0.6)
  })
})
