// How many src/lib files have their test at the mirrored path (test/<path>.test.ts(x)), the figure
// of issue 40 item 8, and which test files under test/lib name no source file.
// `node scripts/test-map.js` prints the figure; `--dirs` adds it per directory, `--orphans` lists them.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const walk = (dir) => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]))
const mirrored = (rel) => ['.test.ts', '.test.tsx'].some((ext) => existsSync(join(ROOT, 'test', rel.replace(/\.tsx?$/, '') + ext)))

const lib = walk(join(ROOT, 'src/lib'))
  .filter((p) => /\.tsx?$/.test(p) && !p.endsWith('.d.ts'))
  .map((p) => relative(join(ROOT, 'src'), p))
const covered = lib.filter(mirrored)
console.log(`src/lib files with a test at the mirrored path: ${covered.length}/${lib.length} = ${((100 * covered.length) / lib.length).toFixed(1)} %`)

if (process.argv.includes('--dirs')) {
  const dirs = new Map()
  for (const f of lib) {
    const d = f.split('/').length > 2 ? f.split('/')[1] : '(lib)'
    const [a, b] = dirs.get(d) ?? [0, 0]
    dirs.set(d, [a + (mirrored(f) ? 1 : 0), b + 1])
  }
  for (const [d, [a, b]] of [...dirs].sort()) console.log(`  ${d}: ${a}/${b}`)
}

const orphans = walk(join(ROOT, 'test/lib'))
  .filter((p) => /\.test\.tsx?$/.test(p))
  .filter((t) => {
    const base = join(ROOT, 'src', relative(join(ROOT, 'test'), t).replace(/\.test\.tsx?$/, ''))
    return !existsSync(`${base}.ts`) && !existsSync(`${base}.tsx`)
  })
console.log(`test files under test/lib that name no source file: ${orphans.length}`)
if (process.argv.includes('--orphans')) for (const o of orphans) console.log(`  ${relative(ROOT, o)}`)
