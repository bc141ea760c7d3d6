/**
 * How the npm package's bundle imports its own chunks (issue 39.1): a module hook for the files of
 * dist-bundle/ alone, registered by main.js just before it imports cli.js or mcp.js.
 *
 * A command imports 30-odd chunk files of that one directory (`charges get`: 33). For each, Node's
 * default resolver turns the specifier into a URL and a path, stats the file, resolves its real
 * path and walks up to the package.json that says the file is an ES module, and its loader reads
 * that package.json's scope again to find the format: about a tenth of the CPU of `charges get`,
 * for answers the build already knows. The chunks are ES modules, all in dist-bundle/, beside
 * main.js, and they import one another by `./NAME.js` only: this hook answers those imports
 * directly (the URL beside the importer, format module) and reads the file itself. Everything
 * else goes to Node as before: built-ins, the bundle's CommonJS scripts (`require`), any other
 * specifier. A chunk that is missing fails as Node's resolver fails it (ERR_MODULE_NOT_FOUND,
 * naming the file and its importer). Node's compile cache still applies: it keys on the URL and
 * the source, not on who read it. The single executable registers its own hook (sea-main.js) and never runs
 * this one. A headless server (servers.js: `webhooks listen` piped or `--no-tui`, `sandbox start`, `relay serve`) does not
 * register it: with it, the listener spent 0.99–1.025× the CPU per delivery of the build before
 * in five runs of `node bench/tools/forwarder-cpu.js 10 DIR` (no call of the hook after its start),
 * inside the 0.986–1.062× the same code measured in two runs, so no cost could be shown or ruled
 * out, and a headless server's start is not what anyone waits on (`webhooks listen` drawing its
 * live view is watched as it starts, and registers it).
 */
let registered = false

/** A `./NAME.js` import (no directory, no query): the only form the bundle's chunks use for one another. */
const SIBLING = /^\.\/[\w.-]+\.js$/

/** Registers the hook for the chunks in `bundleUrl` (a file URL ending in `/`), once per process. */
export function useBundleLoader(bundleUrl) {
  if (registered) return
  registered = true
  // Taken here, not at the top: main.js holds this module, and `svc --version` takes nothing it does not use.
  const { registerHooks } = process.getBuiltinModule('node:module')
  if (typeof registerHooks !== 'function') return
  const { readFileSync } = process.getBuiltinModule('node:fs')
  const { fileURLToPath } = process.getBuiltinModule('node:url')
  /** The chunks this hook resolved, with their importer. */
  const ours = new Map()
  registerHooks({
    resolve(specifier, context, next) {
      const parent = context.parentURL
      // ES imports only (a require() of the same file would expect CommonJS).
      if (parent?.startsWith(bundleUrl) && SIBLING.test(specifier) && !parent.includes('/', bundleUrl.length) && context.conditions?.includes('import')) {
        const url = bundleUrl + specifier.slice(2)
        if (!ours.has(url)) ours.set(url, parent)
        return { url, format: 'module', shortCircuit: true }
      }
      return next(specifier, context)
    },
    load(url, context, next) {
      if (ours.has(url)) {
        let source
        try {
          source = readFileSync(fileURLToPath(url), 'utf8')
        } catch (err) {
          if (err?.code !== 'ENOENT') throw err
          // As Node's resolver says it (a chunk missing from a broken install), with the importer named.
          throw Object.assign(new Error(`Cannot find module '${fileURLToPath(url)}' imported from ${fileURLToPath(ours.get(url))}`), { code: 'ERR_MODULE_NOT_FOUND', url })
        }
        return { format: 'module', source, shortCircuit: true }
      }
      return next(url, context)
    },
  })
}
