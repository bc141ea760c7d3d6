import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configDir, ProfileStore } from '../../../src/lib/config/store.js'
import { type CliError, UsageError } from '../../../src/lib/errors.js'
import { freshConfigDir, TEST_KEY, WEBHOOK_SECRET } from '../../helpers/config.js'

const mode = (path: string) => statSync(path).mode & 0o777

describe('ProfileStore', () => {
  it('creates the config dir 0700 and config.json 0600 under SVC_CONFIG_DIR', async () => {
    const dir = join(freshConfigDir(), 'nested', 'svc')
    const store = await ProfileStore.open({ SVC_CONFIG_DIR: dir })
    store.save('default', { apiKey: TEST_KEY, baseUrl: 'http://127.0.0.1:8787' })
    expect(store.path).toBe(join(dir, 'config.json'))
    expect(mode(dir)).toBe(0o700)
    expect(mode(store.path)).toBe(0o600)
  })

  it('keeps the file 0600 after every write, even when someone widened it', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    const store = await ProfileStore.open(env)
    store.save('a', { apiKey: TEST_KEY })
    chmodSync(store.path, 0o644)
    store.update('a', { webhookSecret: WEBHOOK_SECRET })
    expect(mode(store.path)).toBe(0o600)
    chmodSync(store.path, 0o644)
    store.setDefault('a')
    expect(mode(store.path)).toBe(0o600)
    chmodSync(store.path, 0o644)
    store.remove('a')
    expect(mode(store.path)).toBe(0o600)
    chmodSync(store.path, 0o644)
    await ProfileStore.open(env)
    expect(mode(store.path)).toBe(0o600)
  })

  it('persists profiles and the default across opens', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    const a = await ProfileStore.open(env)
    a.save('prod', { apiKey: TEST_KEY, baseUrl: 'https://api.example.com' })
    a.setDefault('prod')
    const b = await ProfileStore.open(env)
    expect(b.get('prod')).toEqual({ apiKey: TEST_KEY, baseUrl: 'https://api.example.com' })
    expect(b.defaultProfile).toBe('prod')
    expect(b.names()).toEqual(['prod'])
  })

  it('update merges fields, removes the ones given as undefined, and never stores empty strings', async () => {
    const store = await ProfileStore.open({ SVC_CONFIG_DIR: freshConfigDir() })
    store.save('p', { apiKey: TEST_KEY, baseUrl: 'https://a.example', webhookSecret: WEBHOOK_SECRET })
    expect(store.update('p', { apiKey: undefined, webhookSecret: '' })).toEqual({ baseUrl: 'https://a.example' })
    expect(store.get('p')).toEqual({ baseUrl: 'https://a.example' })
  })

  it('forgets the default when that profile is removed', async () => {
    const store = await ProfileStore.open({ SVC_CONFIG_DIR: freshConfigDir() })
    store.save('a', { apiKey: TEST_KEY })
    store.setDefault('a')
    expect(store.remove('a')).toBe(true)
    expect(store.defaultProfile).toBeUndefined()
    expect(store.remove('a')).toBe(false)
  })

  it('does not take an inherited property for a profile', async () => {
    const store = await ProfileStore.open({ SVC_CONFIG_DIR: freshConfigDir() })
    expect(store.get('constructor')).toBeUndefined()
    expect(store.get('toString')).toBeUndefined()
  })

  it('refuses a profile name that is not safe in a table or a shell (exit 2)', async () => {
    const store = await ProfileStore.open({ SVC_CONFIG_DIR: freshConfigDir() })
    for (const bad of ['', 'a b', '-x', '../up', 'a\tb', 'x'.repeat(65)]) {
      expect(() => store.save(bad, { apiKey: TEST_KEY })).toThrow(UsageError)
    }
    expect(() => store.save('sandbox-live', {})).not.toThrow()
  })

  it('unknown profile: exit 3, naming the known ones', async () => {
    const store = await ProfileStore.open({ SVC_CONFIG_DIR: freshConfigDir() })
    store.save('sandbox', { apiKey: TEST_KEY })
    const error = (() => {
      try {
        store.require('sandbx')
      } catch (e) {
        return e as CliError
      }
    })()
    expect(error?.exitCode).toBe(3)
    expect(error?.code).toBe('profile_not_found')
    expect(error?.hint).toContain('Known profiles: sandbox.')
    expect(error?.hint).toContain('svc profiles list')
  })

  it('says where a damaged config file is instead of crashing or wiping it', async () => {
    const dir = freshConfigDir()
    const path = join(dir, 'config.json')
    writeFileSync(path, '{"profiles": {', { mode: 0o600 })
    await expect(ProfileStore.open({ SVC_CONFIG_DIR: dir })).rejects.toMatchObject({ code: 'invalid_config', exitCode: 1 })
    expect(existsSync(path)).toBe(true)
  })
})

describe('configDir', () => {
  it('uses SVC_CONFIG_DIR, else XDG_CONFIG_HOME/svc', () => {
    expect(configDir({ SVC_CONFIG_DIR: '/tmp/x' })).toBe('/tmp/x')
    if (process.platform !== 'darwin') expect(configDir({ XDG_CONFIG_HOME: '/home/u/.cfg' })).toBe('/home/u/.cfg/svc')
  })
})
