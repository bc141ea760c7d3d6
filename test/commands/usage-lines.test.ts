/**
 * Every command's USAGE line is clean (issue 36.22): oclif's docopts drew
 * `[--csv |  | [--ndjson | --json | -q] | ]` and `[--bom ]` for commands whose flags exclude or
 * need each other. docopts groups a flag with its `exclusive` list and joins it to its
 * `dependsOn` flags, consuming them, so: a group of flags that exclude one another is declared
 * whole on each of them (the first one drawn names all the others), and a flag that needs
 * another, or excludes flags that do not all exclude one another, says so with `relationships`,
 * which the parser enforces with the same messages and docopts does not draw.
 * The line is rendered here as `svc COMMAND --help` renders it, for every command.
 */
import { readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type Command, CommandHelp, Config } from '@oclif/core'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/run-command.js'

const COMMANDS = join(ROOT, 'src/commands')

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    return statSync(p).isDirectory() ? files(p) : /\.ts$/.test(name) ? [p] : []
  })
}

type CommandClass = typeof Command & { baseFlags?: Record<string, object>; flags?: Record<string, object>; args?: Record<string, object> }

/** The command as oclif's help sees it (Command.Loadable: names on flags and args). */
function loadable(id: string, cls: CommandClass): Command.Loadable {
  const named = (defs: Record<string, object> = {}) => Object.fromEntries(Object.entries(defs).map(([name, d]) => [name, { ...d, name }]))
  return { id, usage: cls.usage, flags: named({ ...cls.baseFlags, ...cls.flags }), args: named(cls.args), strict: cls.strict } as unknown as Command.Loadable
}

/** oclif's command help, its usage section exposed. */
class Usage extends CommandHelp {
  line(): string {
    return this.usage()
  }
}

const GARBLED = [/\|\s*\|/, /\|\s*\]/, /\[\s*\|/, /\|\s*\)/, /\(\s*\|/, /\[\s*\]/, /\s\]/, /\[\s/]

describe('USAGE of every command', async () => {
  const config = await Config.load(ROOT)
  const commands = await Promise.all(
    files(COMMANDS).map(async (file) => {
      const id = relative(COMMANDS, file)
        .replace(/\.ts$/, '')
        .replace(/\/index$/, '')
        .replaceAll('/', ':')
      return [id, (await import(pathToFileURL(file).href)).default as CommandClass] as const
    }),
  )

  it('finds the commands', () => expect(commands.length).toBeGreaterThan(40))

  it.each(commands.map(([id, cls]) => [id.replaceAll(':', ' '), id, cls] as const))('svc %s: no empty alternative, no empty or padded group', (_name, id, cls) => {
    const line = new Usage(loadable(id, cls), config, { maxWidth: 100_000, stripAnsi: true } as never).line().replace(/\s+/g, ' ')
    for (const bad of GARBLED) expect(line, `${bad}`).not.toMatch(bad)
    // Every visible flag is in it.
    for (const [name, f] of Object.entries({ ...cls.baseFlags, ...cls.flags }) as Array<[string, { hidden?: boolean; char?: string }]>) {
      if (!f.hidden) expect(line).toMatch(new RegExp(`(--${name}|-${f.char ?? '\\0'})\\b`))
    }
  })
})
