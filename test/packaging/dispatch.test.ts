/**
 * packaging/entries/dispatch.js: a plain invocation of one of svc's commands runs with a Config
 * that holds that command alone. These hold it to oclif's whole Config: the command it names is
 * the one the whole Config would run, a Config holding that command alone reads the same id and
 * arguments from argv, and the built CLI answers the same (output, errors, exit code) either way.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Config, Plugin } from '@oclif/core'
import { normalizeArgv } from '@oclif/core/help'
import { beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain JavaScript build script, no types
import { commandRoutes, pluginSpecs } from '../../packaging/build-bundle.js'
// @ts-expect-error plain JavaScript entry, no types
import { plainCommand } from '../../packaging/entries/dispatch.js'
import { svc } from '../helpers/cli.js'

interface Spec {
  name: string
  dir: string
  pjson: Record<string, unknown>
}
interface Route {
  plugin: string
  key?: string
  direct: boolean
}
type Target = { plugin: string; key: string } | undefined
const dispatch = plainCommand as (argv: string[], opts: { routes: Record<string, Route> | null; pjson: unknown }) => Target
const { rootPjson, specs } = pluginSpecs() as { rootPjson: { name: string; oclif: Record<string, unknown> }; specs: Spec[] }

/** oclif's Config of these plugins, as packaging/entries/cli.js builds it; `only`: the one command it holds. */
async function configOf(only?: Target): Promise<Config> {
  const plugins = new Map<string, Plugin>()
  for (const { name, dir, pjson } of specs) {
    const keep = only === undefined ? undefined : name === only.plugin ? [only.key] : name === rootPjson.name ? [] : null
    if (keep === null) continue
    const plugin = new Plugin({ isRoot: true, name, pjson: (name === rootPjson.name ? rootPjson : pjson) as never, root: dir, type: 'core' })
    await plugin.load()
    // As if its manifest held those commands alone (cli.js gives Plugin#load such a manifest).
    if (keep) {
      plugin.manifest.commands = Object.fromEntries(keep.map((id) => [id, plugin.manifest.commands[id]!]))
      plugin.commands = plugin.commands.filter((c) => keep.includes(c.id))
    }
    plugins.set(name, plugin)
  }
  return Config.load({ root: specs[0]!.dir, pjson: rootPjson as never, plugins })
}

let routes: Record<string, Route>
let whole: Config

beforeAll(async () => {
  routes = await commandRoutes(specs, rootPjson)
  whole = await configOf()
})

/** Every command id, with arguments and flags of every kind after it, and what is not a command. */
function corpus(): string[][] {
  const tails = [[], ['x'], ['x', 'y'], ['--json'], ['--json', 'x'], ['a=b'], ['--flag=v', 'x'], ['--', 'x'], ['--help'], ['x', '--help'], ['-h'], ['--version'], ['--', '--help']]
  const heads = [...whole.commandIDs.map((id) => id.split(':')), ['charges', 'nope'], ['nope'], ['relay'], ['relay', 'channel'], ['charges:get', 'x'], ['help'], ['help', 'charges'], ['--version'], ['--help'], ['-x']]
  return heads.flatMap((head) => tails.map((tail) => [...head, ...tail]))
}

describe('dispatch: the one command of a plain invocation', () => {
  it('routes every command id of the whole Config', () => {
    expect(Object.keys(routes).sort()).toEqual([...whole.commandIDs].sort())
    expect(Object.values(routes).filter((r) => r.direct).length).toBeGreaterThan(50)
  })

  it("names only what oclif's whole Config would run at once, and names it whenever that is one of svc's commands without help or --version", () => {
    for (const argv of corpus()) {
      const target = dispatch(argv, { routes, pjson: rootPjson })
      const [id] = normalizeArgv(whole, [...argv])
      const command = id === undefined ? undefined : whole.findCommand(id)
      const helpOrVersion = argv[0] === '--version' || argv.includes('--help') || argv.length === 0
      if (target) {
        expect(command, argv.join(' ')).toBeDefined()
        expect({ plugin: command!.pluginName, key: command!.id }, argv.join(' ')).toEqual(target)
        expect(helpOrVersion, argv.join(' ')).toBe(false)
      } else if (command && !helpOrVersion) {
        expect(command.pluginName, argv.join(' ')).not.toBe(rootPjson.name)
      }
    }
  })

  it('a Config holding the command alone reads the same id and arguments from argv as the whole Config', async () => {
    const seen = new Map<string, Config>()
    for (const argv of corpus()) {
      const target = dispatch(argv, { routes, pjson: rootPjson })
      if (!target) continue
      if (!seen.has(target.key)) seen.set(target.key, await configOf(target))
      const alone = seen.get(target.key)!
      expect(normalizeArgv(alone, [...argv]), argv.join(' ')).toEqual(normalizeArgv(whole, [...argv]))
      expect(alone.commandIDs).toEqual([target.key])
    }
    expect(seen.size).toBeGreaterThan(50)
  })

  it("gives no routes when a plugin has a hook oclif's main runs around a command (cli.js runs a dispatched command without main)", async () => {
    for (const event of ['init', 'prerun', 'postrun', 'finally']) {
      const hooked = specs.map((s) => (s.name === rootPjson.name ? { ...s, pjson: { ...s.pjson, oclif: { ...rootPjson.oclif, hooks: { [event]: './dist/hooks/command-not-found.js' } } } } : s))
      expect(await commandRoutes(hooked, rootPjson), event).toBeNull()
    }
  })

  it('leaves to the whole Config what it cannot be sure of: no routes, help, --version, help of a command, nothing', () => {
    expect(dispatch(['charges', 'get', 'x'], { routes, pjson: rootPjson })).toEqual({ plugin: rootPjson.name, key: 'charges:get' })
    expect(dispatch(['charges', 'get', 'x'], { routes: null, pjson: rootPjson })).toBeUndefined()
    expect(dispatch(['charges', 'get', '--help'], { routes, pjson: rootPjson })).toBeUndefined()
    expect(dispatch(['charges', 'get', '--', '--help'], { routes, pjson: rootPjson })).toBeUndefined()
    expect(dispatch(['--version'], { routes, pjson: rootPjson })).toBeUndefined()
    expect(dispatch(['help', 'charges'], { routes, pjson: rootPjson })).toBeUndefined()
    expect(dispatch([], { routes, pjson: rootPjson })).toBeUndefined()
  })
})

describe('dispatch: the built CLI answers the same with and without it', () => {
  const configDir = mkdtempSync(join(tmpdir(), 'svc-dispatch-'))
  const cases = [
    ['charges', 'get', '123'],
    ['charges', 'get'],
    ['charges', 'get', '6650a1b2c3d4e5f60718293a', '--nope'],
    ['charges', 'get', '6650a1b2c3d4e5f60718293a', '--json', '--wait', 'nonsense'],
    ['charges', 'gte'],
    ['status', 'extra'],
    ['pix', 'decode', 'not-a-brcode'],
    ['profiles', 'list', '--json'],
    ['profiles', 'show', 'nobody'],
    ['webhooks', 'verify'],
  ]
  it.each(cases.map((argv) => [argv.join(' '), argv] as const))('svc %s', async (_name, argv) => {
    const env = { SVC_CONFIG_DIR: configDir, SVC_API_KEY: undefined, SVC_BASE_URL: 'http://127.0.0.1:9', SVC_PROFILE: undefined }
    const [fast, whole] = await Promise.all([svc([...argv], { env }), svc([...argv], { env: { ...env, SVC_NO_FAST_PATH: '1' } })])
    expect(fast).toEqual(whole)
  })

  it('svc charges get ID with a key and no service: the same network error and exit code', async () => {
    const env = { SVC_CONFIG_DIR: configDir, SVC_API_KEY: 'svc_test_0123456789abcdef0123456789abcdef', SVC_BASE_URL: 'http://127.0.0.1:9', SVC_PROFILE: undefined }
    const argv = ['charges', 'get', '6650a1b2c3d4e5f60718293a']
    const [fast, whole] = await Promise.all([svc(argv, { env }), svc(argv, { env: { ...env, SVC_NO_FAST_PATH: '1' } })])
    expect(fast.exitCode).not.toBe(0)
    expect(fast).toEqual(whole)
  })

  it('is taken: oclif loads the help plugin for the whole path only (its debug log says so)', async () => {
    const env = { SVC_CONFIG_DIR: configDir, DEBUG: 'oclif:config*' }
    const [fast, whole] = await Promise.all([svc(['profiles', 'list', '--json'], { env }), svc(['profiles', 'list', '--json'], { env: { ...env, SVC_NO_FAST_PATH: '1' } })])
    expect(whole.stderr).toContain('@oclif/plugin-help')
    expect(fast.stderr).not.toContain('@oclif/plugin-help')
    expect(fast.stdout).toBe(whole.stdout)
  })
})
