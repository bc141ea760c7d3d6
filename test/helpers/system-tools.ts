/**
 * Tests that need a program the machine may lack (zsh, fish, Chromium, Python 3): `npm test` needs only
 * Node.js and npm. Where the program is missing, such a test is skipped with the note
 * `needs TOOL: INSTALL` (test/helpers/needs-reporter.ts lists them once at the end of the run);
 * in CI (CI=true) it fails instead, so that CI never passes without having run it.
 */
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import type { TestContext } from 'vitest'

export const SYSTEM_TOOLS = {
  zsh: { install: 'apt-get install -y zsh' },
  fish: { install: 'apt-get install -y fish' },
  chromium: { install: 'apt-get install -y chromium' },
  // examples/python/drive_sandbox.py: a merchant's script with no package but the standard library.
  python3: { install: 'apt-get install -y python3' },
} as const

export type SystemTool = keyof typeof SYSTEM_TOOLS

/** Where a skip note names its tool: `needs zsh: apt-get install -y zsh`. */
export const NEEDS_NOTE = /^needs (\S+): (.+)$/

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** The program's path: SVC_CHROMIUM for Chromium, else the first `TOOL` on PATH. */
export function toolPath(tool: SystemTool, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (tool === 'chromium' && env.SVC_CHROMIUM) return executable(env.SVC_CHROMIUM) ? env.SVC_CHROMIUM : undefined
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, tool))) return join(dir, tool)
  }
  return undefined
}

/**
 * In a test (or a beforeEach): the tool's path. Without it the test is skipped, with a note that
 * names the tool and its install line — or, in CI, fails with the same words.
 */
export function needs(ctx: TestContext, tool: SystemTool, env: NodeJS.ProcessEnv = process.env): string {
  const path = toolPath(tool, env)
  if (path) return path
  const note = `needs ${tool}: ${SYSTEM_TOOLS[tool].install}`
  if (env.CI === 'true' || env.CI === '1') throw new Error(`${tool} is not on this machine, and CI runs every test (${note}).`)
  return ctx.skip(note)
}
