import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ProfileStore } from '../../../src/lib/config/store.js'
import { CliError } from '../../../src/lib/errors.js'
import { freshConfigDir, TEST_KEY } from '../../helpers/config.js'

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
})
