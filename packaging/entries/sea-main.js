/**
 * The main script of the single executable (dist-bin/svc, built by packaging/build-binary.js): the
 * npm package's entry, packaging/entries/main.js, compiled in (so `--version` and the root help run
 * from the SEA's code cache, as before), running the same dist-bundle/ chunks as bin/run.js.
 *
 * The binary carries dist-bundle/ (the same chunks), the package.json and oclif manifests of the
 * CLI and its plugins, and the trigger fixtures as SEA assets, under a virtual package root,
 * `<dir of the binary>/.svc-sea/` (embedded-fs.js). Node cannot import an ES module from a SEA
 * asset by itself, so past the fast path this registers one module hook, for URLs under that root
 * alone: it resolves and loads the bundle's chunks from the assets (each command still loads only
 * its own chunks, and Ink's and yoga's top-level await work as in the package). Nothing else is
 * patched: the bundle reads the embedded package files through its own accessor (embedded-fs.js),
 * not through fs. Node 24's SEA main script must be CommonJS: this file is, once bundled
 * (dist-sea/svc.cjs), with V8's code cache.
 */
import { enableCompileCache, registerHooks } from 'node:module'
import { getAsset } from 'node:sea'
import { pathToFileURL } from 'node:url'
import { seaRoot } from './embedded-fs.js'
import { main } from './main.js'

/* global __SVC_SEA_ASSETS__ */
const ASSETS = new Set(__SVC_SEA_ASSETS__)
const ROOT = seaRoot()
const ROOT_URL = `${pathToFileURL(ROOT).href}/`

/** dist-bundle/cli.js from the assets. */
function loadCli() {
  // As bin/run.js: V8's code cache of the chunks, kept on disk across runs (the SEA's own code
  // cache covers this main script only).
  enableCompileCache?.()
  registerHooks({
    resolve(specifier, context, next) {
      const parent = context.parentURL
      if (specifier.startsWith(ROOT_URL) || (parent?.startsWith(ROOT_URL) && (specifier.startsWith('./') || specifier.startsWith('../')))) {
        const url = new URL(specifier, parent).href
        if (ASSETS.has(url.slice(ROOT_URL.length))) return { url, format: 'module', shortCircuit: true }
      }
      return next(specifier, context)
    },
    load(url, context, next) {
      if (url.startsWith(ROOT_URL)) {
        const key = url.slice(ROOT_URL.length)
        if (ASSETS.has(key)) return { format: 'module', source: getAsset(key, 'utf8'), shortCircuit: true }
      }
      return next(url, context)
    },
  })
  return import(`${ROOT_URL}dist-bundle/cli.js`)
}

// loadMcp: null: `svc mcp` runs through oclif here (its fast path would need the module hook first).
main({ root: ROOT, argv: process.argv.slice(2), loadCli, loadMcp: null }).catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`)
  process.exitCode = 1
})
