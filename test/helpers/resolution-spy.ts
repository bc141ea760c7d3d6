/**
 * A module hook registered before svc's own (`--import` it): it records every URL Node's resolver
 * gives, and writes them at exit. What a test reads from it: the files of dist-bundle/ that Node,
 * not the bundle's own hook, resolved.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT } from './run-command.js'

export function resolutionSpy(): { importFlag: string; byNode(): string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-resolution-spy-'))
  const spy = join(dir, 'spy.mjs')
  const seen = join(dir, 'resolved.json')
  writeFileSync(
    spy,
    `import { registerHooks } from 'node:module'\nimport { writeFileSync } from 'node:fs'\nconst byNode = []\nregisterHooks({ resolve(specifier, context, next) { const r = next(specifier, context); byNode.push(r.url); return r } })\nprocess.on('exit', () => writeFileSync(${JSON.stringify(seen)}, JSON.stringify(byNode)))\n`,
  )
  const bundle = `${pathToFileURL(join(ROOT, 'dist-bundle')).href}/`
  return {
    importFlag: `--import=${pathToFileURL(spy).href}`,
    byNode: () => (JSON.parse(readFileSync(seen, 'utf8')) as string[]).filter((u) => u.startsWith(bundle)).map((u) => u.slice(bundle.length)),
  }
}
