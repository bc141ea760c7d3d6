import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ProfileStore } from '../../../src/lib/config/store.js'
import { CliError } from '../../../src/lib/errors.js'
import { freshConfigDir, TEST_KEY } from '../../helpers/config.js'
import { ROOT } from '../../helpers/run-command.js'

// ProfileStore.read is what every API command uses to find its credentials, without conf.
describe('ProfileStore.read', () => {
  it('sees exactly what ProfileStore.open wrote', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    const writer = await ProfileStore.open(env)
    writer.save('sandbox', { apiKey: TEST_KEY, baseUrl: 'http://127.0.0.1:8787' })
    writer.setDefault('sandbox')
    const reader = ProfileStore.read(env)
    expect(reader.data).toEqual(writer.data)
    expect(reader.defaultProfile).toBe('sandbox')
    expect(reader.get('sandbox')).toEqual({ apiKey: TEST_KEY, baseUrl: 'http://127.0.0.1:8787' })
  })

  it('has no profiles, and creates nothing, when there is no config file yet', () => {
    const dir = join(freshConfigDir(), 'absent')
    const store = ProfileStore.read({ SVC_CONFIG_DIR: dir })
    expect(store.names()).toEqual([])
    expect(store.defaultProfile).toBeUndefined()
    expect(existsSync(dir)).toBe(false)
  })

  it('names the file when it is not JSON, like open does', () => {
    const dir = freshConfigDir()
    writeFileSync(join(dir, 'config.json'), '{"profiles": {')
    const err = (() => {
      try {
        ProfileStore.read({ SVC_CONFIG_DIR: dir })
      } catch (e) {
        return e
      }
    })()
    expect(err).toBeInstanceOf(CliError)
    expect(err).toMatchObject({ code: 'invalid_config', exitCode: 1 })
    expect((err as Error).message).toContain(join(dir, 'config.json'))
  })

  it('narrows a widened file to 0600 and refuses to write', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    const writer = await ProfileStore.open(env)
    writer.save('a', { apiKey: TEST_KEY })
    chmodSync(writer.path, 0o644)
    const reader = ProfileStore.read(env)
    expect(statSync(reader.path).mode & 0o777).toBe(0o600)
    expect(() => reader.save('b', { apiKey: TEST_KEY })).toThrow(/read-only/)
  })

  it('loads no conf: every API command reads its credentials without conf, atomically or when-exit (start-up); open() still writes through conf', () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    writeFileSync(join(env.SVC_CONFIG_DIR, 'config.json'), JSON.stringify({ defaultProfile: 'sandbox', profiles: { sandbox: { apiKey: TEST_KEY } } }), { mode: 0o600 })
    const url = pathToFileURL(join(ROOT, 'dist', 'lib', 'config', 'store.js')).href
    // Which modules a child process resolves, reading the profiles and then opening them to write.
    const probe = `
      import { registerHooks } from 'node:module'
      const seen = new Set()
      registerHooks({ resolve(spec, ctx, next) { const r = next(spec, ctx); seen.add(r.url); return r } })
      const conf = () => [...seen].filter((u) => /node_modules\\/(conf|atomically|when-exit)\\//.test(u)).length
      const { ProfileStore } = await import(${JSON.stringify(url)})
      const env = { SVC_CONFIG_DIR: ${JSON.stringify(env.SVC_CONFIG_DIR)} }
      const read = ProfileStore.read(env)
      const afterRead = conf()
      const open = await ProfileStore.open(env)
      console.log(JSON.stringify({ key: read.get('sandbox')?.apiKey === open.get('sandbox')?.apiKey, afterRead, afterOpen: conf() }))
    `
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8', timeout: 30_000 })) as { key: boolean; afterRead: number; afterOpen: number }
    expect(out.key).toBe(true)
    expect(out.afterRead).toBe(0)
    expect(out.afterOpen).toBeGreaterThan(0)
  })
})
