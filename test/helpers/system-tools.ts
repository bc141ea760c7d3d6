/**
 * Tests that need a program the machine may lack (zsh, fish, Chromium, Python 3, a Node.js older
 * than the package supports, to see its message): `npm test` needs only
 * Node.js and npm. Where the program is missing, such a test is skipped with the note
 * `needs TOOL: INSTALL` (test/helpers/needs-reporter.ts lists them once at the end of the run);
 * in CI (CI=true) it fails instead, so that CI never passes without having run it.
 */
import { spawnSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import type { TestContext } from 'vitest'
import { MIN_NODE } from '../../src/public/node-guard.js'

export const SYSTEM_TOOLS = {
  zsh: { install: 'apt-get install -y zsh' },
  fish: { install: 'apt-get install -y fish' },
  chromium: { install: 'apt-get install -y chromium' },
  // A `node` outside node_modules older than MIN_NODE (Debian's, or the machine's own: v20 here and in CI).
  'old-node': { install: 'apt-get install -y nodejs (a Node.js older than ' + MIN_NODE + ')' },
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

/** A Node.js older than MIN_NODE: a `node` on PATH outside node_modules (whose .bin holds the pinned one), or /usr/bin's. */
function oldNodePath(env: NodeJS.ProcessEnv): string | undefined {
  const [needMajor, needMinor] = MIN_NODE.split('.').map(Number) as [number, number]
  const dirs = [...(env.PATH ?? '').split(delimiter).filter((d) => d && !d.includes('node_modules')), '/usr/local/bin', '/usr/bin']
  for (const file of new Set(dirs.map((d) => join(d, 'node')))) {
    if (!executable(file)) continue
    const version = spawnSync(file, ['--version'], { encoding: 'utf8', env: {} }).stdout?.trim() ?? ''
    const [major, minor] = version.replace(/^v/, '').split('.').map(Number) as [number, number]
    if (major < needMajor || (major === needMajor && minor < needMinor)) return file
  }
  return undefined
}

/** The program's path: SVC_CHROMIUM for Chromium, an old Node for old-node, else the first `TOOL` on PATH. */
export function toolPath(tool: SystemTool, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (tool === 'chromium' && env.SVC_CHROMIUM) return executable(env.SVC_CHROMIUM) ? env.SVC_CHROMIUM : undefined
  if (tool === 'old-node') return oldNodePath(env)
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
