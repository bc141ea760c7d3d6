/**
 * The install instructions a new user follows must work (issue 16 item 23): svc-cli is not on the
 * npm registry, so the README installs it from the packed tarball, and says that an installed
 * `svc` runs on the shell's node, which must be at least the version package.json's engines names.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/run-command.js'

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
const pjson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; engines: { node: string }; private?: boolean }

describe('the release', () => {
  it("CHANGELOG.md: an Unreleased section first, then package.json's version, dated (issue 29 item 26)", () => {
    const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8')
    const sections = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((m) => ({ name: m[1], date: m[2] }))
    expect(sections[0]).toEqual({ name: 'Unreleased', date: undefined })
    expect(sections[1]?.name).toBe(pjson.version)
    expect(sections[1]?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  })

  it('package-lock.json carries the same version as package.json', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { version: string; packages: Record<string, { version?: string }> }
    expect(lock.version).toBe(pjson.version)
    expect(lock.packages['']?.version).toBe(pjson.version)
  })
})

describe('README install instructions', () => {
  it('never tells to install svc-cli from the registry, where it is not published', () => {
    const fromRegistry = readme.split('\n').filter((l) => /npm (install|i)\b[^#\n]*\bsvc-cli(@[\w.-]+)?(\s|$)/.test(l) && !/\.tgz/.test(l))
    expect(fromRegistry).toEqual([])
  })

  it('installs from the tarball npm pack writes, for this version', () => {
    expect(readme).toContain('npm pack')
    expect(readme).toContain(`npm install -g ./svc-cli-${pjson.version}.tgz`)
  })

  it('says the installed svc needs the engines Node on PATH, unlike the npm scripts', () => {
    const min = pjson.engines.node.replace(/^>=\s*/, '')
    expect(readme).toContain(`Node.js ≥ ${min}`)
    expect(readme).toMatch(/runs on the `node` your shell finds on `PATH`/)
  })
})
