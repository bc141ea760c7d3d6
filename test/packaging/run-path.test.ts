/**
 * One run path: bin/run.js runs the bundle (dist-bundle/main.js) and nothing else, and says so
 * plainly when a checkout was never built; the single executable runs that same bundle without
 * patching fs.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

function packageWith(main?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-run-path-'))
  mkdirSync(join(dir, 'bin'))
  copyFileSync(join(ROOT, 'bin', 'run.js'), join(dir, 'bin', 'run.js'))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'svc-cli', type: 'module' }))
  if (main !== undefined) {
    mkdirSync(join(dir, 'dist-bundle'))
    writeFileSync(join(dir, 'dist-bundle', 'main.js'), main)
  }
  return dir
}

describe('bin/run.js', () => {
  it('runs dist-bundle/main.js with the package root and nothing else', () => {
    const dir = packageWith("export async function main({ root }) { process.stdout.write(`main ${root} ${process.argv.slice(2).join(' ')}\\n`) }\n")
    const r = spawnSync(process.execPath, [join(dir, 'bin', 'run.js'), 'charges', 'get', 'X'], { encoding: 'utf8' })
    expect(r.stderr).toBe('')
    expect(r.stdout).toBe(`main ${dir}/ charges get X\n`)
    expect(r.status).toBe(0)
  })

  it('says the checkout is not built, and exits 1, when dist-bundle/ is missing', () => {
    const dir = packageWith()
    const r = spawnSync(process.execPath, [join(dir, 'bin', 'run.js'), '--version'], { encoding: 'utf8' })
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe('svc: dist-bundle/main.js is missing: this checkout is not built. Run `npm run build` and try again.\n')
    expect(r.status).toBe(1)
  })

  it('lets an error inside the bundle surface as itself, not as "not built"', () => {
    const dir = packageWith("import './missing-chunk.js'\nexport async function main() {}\n")
    const r = spawnSync(process.execPath, [join(dir, 'bin', 'run.js')], { encoding: 'utf8' })
    expect(r.stderr).toContain('missing-chunk.js')
    expect(r.stderr).not.toContain('not built')
    expect(r.status).not.toBe(0)
  })
})

describe('the single executable', () => {
  it("runs the npm package's entry and the same bundle, and replaces nothing of fs", () => {
    const text = readFileSync(join(ROOT, 'packaging', 'entries', 'sea-main.js'), 'utf8')
    expect(text).toContain("import { main } from './main.js'")
    expect(text).toContain('dist-bundle/cli.js')
    expect(text).not.toMatch(/\bfs\.\w+\s*=|syncBuiltinESMExports|from 'node:fs'/)
  })
})
