/**
 * The entry of the bundled CLI (dist-bundle/cli.js, and the single executable): oclif's own
 * `execute`, Config, Plugin and module loading, fed from what the build already knows instead of
 * what oclif would find on disk at every start (the single executable has no disk to find it on).
 *
 * Three things differ from an unbundled oclif, all by oclif's own seams:
 * - the plugins are handed to Config ready-made (its `plugins` option), each an oclif Plugin whose
 *   manifest is the one packaging/build-bundle.js inlined (`svc-bundle:data`) rather than a file;
 * - every command or hook oclif imports from a plugin's files is the bundle's chunk for that file
 *   (packaging/patches.js, oclif-bundled-modules), so `svc charges get` loads the code of
 *   charges get and nothing of the sandbox, Ink or React;
 * - a plain invocation of one of svc's commands (dispatch.js) gets plugins whose manifests hold
 *   that command alone, so oclif's Config registers one command instead of all of them.
 */
import { join } from 'node:path'
import { Config, execute, flush, handle, Plugin } from '@oclif/core'
import { normalizeArgv } from '@oclif/core/help'
import { MANIFESTS, MODULES, PJSON, PLUGINS, ROUTES } from 'svc-bundle:data'
import { useBundledModules } from 'svc-bundle:oclif-module-loader'
import { plainCommand } from './dispatch.js'
import { ranCommand } from './hot-script.js'

useBundledModules(MODULES)

class BundledPlugin extends Plugin {
  // Plugin#load reads oclif.manifest.json here; the build inlined it, each command's entry as its
  // own JSON text. `only`: the ids to keep (the dispatched command), else every command.
  async _manifest() {
    const { version, commands } = MANIFESTS[this.options.name]
    const ids = this.options.only ?? Object.keys(commands)
    const manifest = { version, commands: Object.fromEntries(ids.map((id) => [id, JSON.parse(commands[id])])) }
    this.hasManifest = true
    this.commandIDs = ids
    return manifest
  }
}

/**
 * oclif's `execute({dir})` for the bundled CLI: `root` is the directory that stands for the
 * package root (config.root; where package.json would be).
 */
export async function runCli({ root, argv = process.argv.slice(2) }) {
  const target = process.env.SVC_NO_FAST_PATH ? undefined : plainCommand(argv, { routes: ROUTES, pjson: PJSON })
  const plugins = new Map()
  for (const spec of PLUGINS) {
    // Dispatched: the command's plugin with that command alone, the root plugin and any plugin
    // with hooks (they run as ever) with none; other plugins are left out.
    let only
    if (target) {
      if (spec.name === target.plugin) only = [target.key]
      else if (spec.relRoot === '.' || spec.pjson.oclif?.hooks) only = []
      else continue
    }
    // isRoot with a pjson: Plugin#load takes the root given instead of resolving the package on disk.
    const plugin = new BundledPlugin({ isRoot: true, name: spec.name, pjson: spec.pjson, root: join(root, spec.relRoot), type: 'core', only })
    await plugin.load()
    plugins.set(spec.name, plugin)
  }
  const loadOptions = { root, pjson: PJSON, plugins }
  return target ? runOne(argv, loadOptions) : execute({ args: argv, loadOptions })
}

/**
 * A dispatched command, run as oclif's execute runs it (its Config, normalizeArgv, the command's
 * `_run`, flush, and `handle` for what escapes), less two things it cannot need (issue 39.1):
 * - main.run's hooks (init, prerun, postrun, finally) and its help and version checks: no plugin of
 *   svc has such a hook (dispatch.js takes this path only then) and dispatch.js never names a
 *   command for help or --version;
 * - the second Config: `Command.run(argv, config)` loads a new Config from the one it is given
 *   (Config.load of a Config reloads it); the command is made with the Config itself instead.
 */
async function runOne(argv, loadOptions) {
  try {
    const config = await Config.load(loadOptions)
    const [id, ...args] = normalizeArgv(config, argv)
    const command = await config.findCommand(id, { must: true }).load()
    ranCommand(command.id ?? id)
    const result = await new command(args, config)._run()
    await flush()
    return result
  } catch (error) {
    return handle(error instanceof Error ? error : new Error(String(error)))
  }
}
