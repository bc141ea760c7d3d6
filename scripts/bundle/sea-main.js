/**
 * The main script of the single executable (dist-bin/svc, built by scripts/build-binary.js): what
 * bin/run.js does for the npm package, with the package's files inside the binary.
 *
 * The binary carries, as SEA assets, the ES-module bundle of the npm package (dist-bundle/, the
 * same chunks), the package.json and oclif manifests of the CLI and its plugins, and
 * scripts/completions.js. They live under a virtual package root, `<dir of the binary>/.svc-sea/`:
 * a module hook loads the bundle's chunks from the assets (so each command still loads only its own
 * chunks, and Ink's and yoga's top-level await work as in the package), and reads of the embedded
 * files through fs.readFileSync / fs.existsSync are answered from memory, so the root help,
 * `--version`, oclif and the sandbox's version banner see the same bytes as in the package. Every
 * other path goes to the real file system untouched. Node 24's SEA main script must be CommonJS:
 * this file is, once bundled (dist-sea/svc.cjs), with V8's code cache.
 */
import fs from 'node:fs'
import { enableCompileCache, registerHooks } from 'node:module'
import { dirname, join } from 'node:path'
import { getAsset } from 'node:sea'
import { pathToFileURL } from 'node:url'
import { fastAnswer } from '../../dist/root-help.js'

/* global __SVC_SEA_ASSETS__ */
const ASSETS = new Set(__SVC_SEA_ASSETS__)
const ROOT = join(dirname(process.execPath), '.svc-sea')
const ROOT_URL = `${pathToFileURL(ROOT).href}/`

/** The embedded file at `path` (a path or file URL), as text; undefined if it is not one. */
function embedded(path) {
  let p
  if (typeof path === 'string') p = path
  else if (path instanceof URL && path.protocol === 'file:') p = decodeURIComponent(path.pathname)
  else return undefined
  if (!p.startsWith(ROOT) || p[ROOT.length] !== '/') return undefined
  const key = p.slice(ROOT.length + 1)
  return ASSETS.has(key) ? getAsset(key, 'utf8') : undefined
}

const { readFileSync, existsSync } = fs
fs.readFileSync = function (path, options) {
  const text = embedded(path)
  if (text === undefined) return readFileSync.apply(this, arguments)
  const encoding = typeof options === 'string' ? options : options?.encoding
  return encoding ? text : Buffer.from(text)
}
fs.existsSync = function (path) {
  return embedded(path) !== undefined || existsSync.apply(this, arguments)
}

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

async function main() {
  const argv = process.argv.slice(2)
  let answer
  if (argv.length <= 1 && !process.env.SVC_NO_FAST_PATH) {
    try {
      answer = fastAnswer(ROOT, argv, {
        env: process.env,
        stdoutIsTTY: Boolean(process.stdout.isTTY),
        stderrIsTTY: Boolean(process.stderr.isTTY),
        columns: process.stdout.columns,
      })
    } catch {
      answer = undefined
    }
  }
  if (answer !== undefined) {
    process.stdout.write(answer)
    return
  }
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'
  // As bin/run.js: the reader of our stdout went away, stop as if asked to.
  let pipeClosed = false
  process.stdout.on('error', (err) => {
    if (err.code !== 'EPIPE' || pipeClosed) return
    pipeClosed = true
    process.once('beforeExit', () => process.exit(process.exitCode ?? 0))
    if (process.listenerCount('SIGTERM') > 0) process.emit('SIGTERM')
    else process.exit(0)
  })
  const { runCli } = await import(`${ROOT_URL}dist-bundle/cli.js`)
  await runCli({ root: ROOT, argv })
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`)
  process.exitCode = 1
})
