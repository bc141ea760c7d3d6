import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import ProfilesList from '../../../src/commands/profiles/list.js'
import ProfilesRemove from '../../../src/commands/profiles/remove.js'
import ProfilesShow from '../../../src/commands/profiles/show.js'
import { ProfileStore } from '../../../src/lib/config/store.js'
import { runCommand } from '../../helpers/run-command.js'
import { freshConfigDir, TEST_KEY } from '../../helpers/config.js'

/** A config dir whose config.json holds `text`, and a way to see whether it was touched. */
function configWith(text: string): { env: Record<string, string>; path: string; unchanged: () => boolean } {
  const dir = freshConfigDir()
  const path = join(dir, 'config.json')
  writeFileSync(path, text, { mode: 0o600 })
  return { env: { SVC_CONFIG_DIR: dir }, path, unchanged: () => readFileSync(path, 'utf8') === text }
}

const BAD_SHAPES: Array<{ text: string; field: string }> = [
  { text: '{"profiles":{"x":{"apiKey":5}},"defaultProfile":"x"}', field: 'profiles.x.apiKey' },
  { text: '{"profiles":"zzz"}', field: 'profiles' },
  { text: '{"profiles":{},"defaultProfile":["a"]}', field: 'defaultProfile' },
  { text: '[]', field: '(the whole file)' },
  { text: 'null', field: '(the whole file)' },
  { text: '{"profiles":{"ok":{"apiKey":"svc_test_x"},"x":null}}', field: 'profiles.x' },
  { text: '{"profiles":{"x":{"apiKey":"svc_test_x","baseUrl":null}}}', field: 'profiles.x.baseUrl' },
  { text: '{"profiles":{"x":{"relayUrl":["wss://r"]}}}', field: 'profiles.x.relayUrl' },
  { text: '{"profiles":{"x":{"relayToken":42}}}', field: 'profiles.x.relayToken' },
]

describe('a config file of the wrong shape', () => {
  it.each(BAD_SHAPES)('$text: invalid_config naming the file and $field, from read() and open(), file untouched', async ({ text, field }) => {
    const { env, path, unchanged } = configWith(text)
    for (const load of [() => Promise.resolve().then(() => ProfileStore.read(env)), () => ProfileStore.open(env)]) {
      const err = await load().then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(err).toMatchObject({ code: 'invalid_config', exitCode: 1, details: [{ field }] })
      expect((err as Error).message).toContain(path)
      expect((err as Error).message).toContain(field)
    }
    expect(unchanged()).toBe(true)
  })

  it('every command says so (exit 1) instead of crashing on key.startsWith or listing characters', async () => {
    const bad = configWith('{"profiles":{"x":{"apiKey":5}},"defaultProfile":"x"}')
    const show = await runCommand(ProfilesShow, [], { env: bad.env })
    expect(show.exitCode).toBe(1)
    expect(show.stderr).toContain('Error [invalid_config]')
    expect(show.stderr).toContain('profiles.x.apiKey')
    expect(show.stderr).toContain('svc profiles remove x')
    expect(show.stderr).not.toContain('startsWith')

    const rows = configWith('{"profiles":"zzz"}')
    const list = await runCommand(ProfilesList, [], { env: rows.env })
    expect(list).toMatchObject({ exitCode: 1, stdout: '' })
    expect(list.stderr).toContain('Error [invalid_config]')
    expect(list.stderr).toContain('Hint: Edit the file')
    expect(rows.unchanged()).toBe(true)
  })

  it('`svc profiles remove NAME` drops the damaged profile, as the hint says, and keeps the others', async () => {
    const { env } = configWith(JSON.stringify({ profiles: { x: { apiKey: 5 }, ok: { apiKey: TEST_KEY } }, defaultProfile: 'ok' }))
    const r = await runCommand(ProfilesRemove, ['x'], { env })
    expect(r.exitCode).toBe(0)
    const store = await ProfileStore.open(env)
    expect(store.names()).toEqual(['ok'])
    expect(store.defaultProfile).toBe('ok')
  })

  it('keeps fields it does not know (a newer version may have written them)', async () => {
    const { env } = configWith(JSON.stringify({ profiles: { a: { apiKey: TEST_KEY, region: 'br' } }, theme: 'dark' }))
    const store = await ProfileStore.open(env)
    store.update('a', { baseUrl: 'https://api.example.com' })
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toMatchObject({ theme: 'dark', profiles: { a: { region: 'br' } } })
  })
})
