/**
 * What CI must prove about the package as users get it: the tarball installs globally and runs
 * (version, help, a sandbox round trip), and the generated command reference matches --help.
 * Both run the scripts a developer runs by hand (`npm run pack:check`, `npm run docs:check`),
 * on the build `npm test` made.
 */
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/run-command.js'

function script(args: string[]) {
  return spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, SVC_CONFIG_DIR: undefined } })
}

describe('the package as users get it', () => {
  it('installs from the packed tarball into a fresh prefix and runs a sandbox round trip', () => {
    const r = script(['scripts/check-pack.js'])
    expect(r.stdout + r.stderr).toContain('pack check: passed')
    expect(r.status).toBe(0)
  }, 180_000)

  it('has a command reference identical to what --help prints', () => {
    const r = script(['scripts/docs.js', '--check'])
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
  }, 120_000)
})
