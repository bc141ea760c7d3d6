/**
 * The entry of the bundled CLI (dist-bundle/cli.js, and the single executable): oclif's own
 * `execute`, Config, Plugin and module loading, fed from what the build already knows instead of
 * what oclif would find on disk at every start (the single executable has no disk to find it on).
 *
 * Two things differ from an unbundled oclif, both by oclif's own seams:
 * - the plugins are handed to Config ready-made (its `plugins` option), each an oclif Plugin whose
 *   manifest is the one packaging/build-bundle.js inlined (`svc-bundle:data`) rather than a file;
 * - every command or hook oclif imports from a plugin's files is the bundle's chunk for that file
 *   (packaging/patches.js, oclif-bundled-modules), so `svc charges get` loads the code of
 *   charges get and nothing of the sandbox, Ink or React.
 */
import { join } from 'node:path'
import { execute, Plugin } from '@oclif/core'
import { MANIFESTS, MODULES, PJSON, PLUGINS } from 'svc-bundle:data'
import { useBundledModules } from 'svc-bundle:oclif-module-loader'

useBundledModules(MODULES)

class BundledPlugin extends Plugin {
  // Plugin#load reads oclif.manifest.json here; the build inlined it.
  async _manifest() {
    const manifest = JSON.parse(MANIFESTS[this.options.name])
    this.hasManifest = true
    this.commandIDs = Object.keys(manifest.commands)
    return manifest
  }
}

/**
 * oclif's `execute({dir})` for the bundled CLI: `root` is the directory that stands for the
 * package root (config.root; where package.json would be).
 */
export async function runCli({ root, argv = process.argv.slice(2) }) {
  const plugins = new Map()
  for (const spec of PLUGINS) {
    // isRoot with a pjson: Plugin#load takes the root given instead of resolving the package on disk.
    const plugin = new BundledPlugin({ isRoot: true, name: spec.name, pjson: spec.pjson, root: join(root, spec.relRoot), type: 'core' })
    await plugin.load()
    plugins.set(spec.name, plugin)
  }
  return execute({ args: argv, loadOptions: { root, pjson: PJSON, plugins } })
}
