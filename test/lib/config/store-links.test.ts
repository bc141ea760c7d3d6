import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ProfileStore } from '../../../src/lib/config/store.js'
import { svc } from '../../helpers/cli.js'
import { TEST_KEY } from '../../helpers/config.js'

const mode = (path: string) => statSync(path).mode & 0o777

describe('the config file is never written where others can read it', () => {
  it('refuses to write through a dangling symlink, and writes nothing where it points', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-links-'))
    const outside = join(mkdtempSync(join(tmpdir(), 'svc-elsewhere-')), 'stolen.json')
    symlinkSync(outside, join(dir, 'config.json'))
    await expect(ProfileStore.open({ SVC_CONFIG_DIR: dir })).rejects.toMatchObject({ code: 'invalid_config', message: expect.stringMatching(/symbolic link to .*stolen\.json/) })
    expect(existsSync(outside)).toBe(false)
  })

  it('refuses a symlink that leads out of the config dir, leaving its target as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-links-'))
    const outside = join(mkdtempSync(join(tmpdir(), 'svc-elsewhere-')), 'shared.json')
    writeFileSync(outside, '{"profiles":{}}', { mode: 0o644 })
    symlinkSync(outside, join(dir, 'config.json'))
    const r = await svc(['login', '--with-key-stdin', '--base-url', 'http://127.0.0.1:1'], { env: { SVC_CONFIG_DIR: dir }, stdin: `${TEST_KEY}\n` })
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toMatch(/Error \[invalid_config\]: .*symbolic link .*outside the config directory/)
    expect(readFileSync(outside, 'utf8')).toBe('{"profiles":{}}')
  })

  it('keeps using a symlink to a file inside the config dir', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-links-'))
    mkdirSync(join(dir, 'real'), { mode: 0o700 })
    writeFileSync(join(dir, 'real', 'config.json'), '{"profiles":{}}', { mode: 0o600 })
    symlinkSync(join(dir, 'real', 'config.json'), join(dir, 'config.json'))
    const store = await ProfileStore.open({ SVC_CONFIG_DIR: dir })
    store.save('a', { apiKey: TEST_KEY })
    expect(ProfileStore.read({ SVC_CONFIG_DIR: dir }).names()).toEqual(['a'])
  })

  it('narrows a config dir open to others to 0700 and says so in one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-wide-'))
    chmodSync(dir, 0o777)
    writeFileSync(join(dir, 'config.json'), '{"profiles":{}}', { mode: 0o600 })
    const r = await svc(['profiles', 'list'], { env: { SVC_CONFIG_DIR: dir } })
    expect(r.exitCode).toBe(0)
    expect(mode(dir)).toBe(0o700)
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^Warning: the config directory .* was open to other users \(mode 777\); it holds API keys and is now 0700\.$/)])
    const again = await svc(['profiles', 'list'], { env: { SVC_CONFIG_DIR: dir } })
    expect(again.stderr).toBe('')
  })
})
