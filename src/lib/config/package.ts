/**
 * Where this package is installed, and its version: found by walking up from the running file to
 * the package.json named svc-cli (dist/…, a bundle, or src/ under tests all reach it).
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

let found: { root: string; version: string } | null | undefined

function find(): { root: string; version: string } | null {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 8; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string }
      if (pkg.name === 'svc-cli') return { root: dir, version: pkg.version ?? '0.0.0' }
    } catch {
      // not here; look one level up
    }
    const up = dirname(dir)
    if (up === dir) break
    dir = up
  }
  return null
}

/** The package's root directory, or undefined when it cannot be found. */
export function packageRoot(): string | undefined {
  found ??= find()
  return found?.root
}

export function packageVersion(): string {
  found ??= find()
  return found?.version ?? '0.0.0'
}
