/** Every command class of src/commands with its id, found the way oclif's pattern strategy finds them. */
import { globSync } from 'node:fs'
import type { Command } from '@oclif/core'

import { ROOT } from './run-command.js'

export { ROOT }

export interface LoadedCommand {
  id: string
  file: string
  command: typeof Command
}

export function commandId(file: string): string {
  return file
    .replace(/\.tsx?$/, '')
    .split('/')
    .filter((part, i, all) => !(part === 'index' && i === all.length - 1))
    .join(':')
}

export async function loadCommands(): Promise<LoadedCommand[]> {
  const files = globSync('**/*.{ts,tsx}', { cwd: `${ROOT}src/commands` })
    .filter((f) => !f.endsWith('.d.ts'))
    .sort()
  return Promise.all(
    files.map(async (file) => {
      const mod = (await import(`${ROOT}src/commands/${file}`)) as { default: typeof Command }
      return { id: commandId(file), file: `src/commands/${file}`, command: mod.default }
    }),
  )
}

/** A command's flags as parsing sees them: the shared base flags, then its own. */
export function allFlags(command: typeof Command): Record<string, { type: string; description?: string; summary?: string; char?: string; options?: readonly string[]; hidden?: boolean; allowNo?: boolean }> {
  return { ...(command.baseFlags ?? {}), ...(command.flags ?? {}) } as never
}
