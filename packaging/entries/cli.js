/**
 * The entry of the bundled CLI (dist-bundle/cli.js, and the single executable): runs oclif from
 * what the build already knows instead of what oclif would find on disk at every start.
 *
 * oclif's own start (`execute`) reads package.json and oclif.manifest.json of the CLI and of each
 * plugin, resolves the plugins through node_modules, and loads each command or hook as a file. Here
 * the same package.json and manifests are inlined by packaging/build-bundle.js (`svc-bundle:data`),
 * the plugins are handed to oclif's Config as ready-made plugin objects (Config supports that:
 * `plugins` in its options), and each command id and hook maps to an `import()` of its own chunk,
 * so `svc charges get` loads the code of charges get and nothing of the sandbox, Ink or React.
 * The flow after the Config is oclif's own `run` (init hook, --version, help, topic help,
 * findCommand, runCommand with prerun/postrun, finally) and `execute` (flush, handle).
 */
import { join } from 'node:path'
import * as core from '@oclif/core'
import { getHelpFlagAdditions, normalizeArgv } from '@oclif/core/help'
import { COMMANDS, HOOKS, MANIFESTS, PJSON, PLUGINS } from 'svc-bundle:data'

/** The oclif plugin objects, built from the inlined package.json and manifests. */
function makePlugins(root) {
  const plugins = new Map()
  for (const spec of PLUGINS) {
    const isRoot = spec.relRoot === '.'
    const pluginRoot = isRoot ? root : join(root, spec.relRoot)
    const manifest = JSON.parse(MANIFESTS[spec.name])
    const loaders = COMMANDS[spec.name] ?? {}
    const plugin = {
      _base: spec.base,
      alias: spec.name,
      alreadyLoaded: false,
      children: [],
      commandIDs: Object.keys(manifest.commands),
      commands: [],
      hasManifest: true,
      hooks: spec.hooks,
      isRoot,
      manifest,
      moduleType: spec.pjson.type === 'module' ? 'module' : 'commonjs',
      name: spec.name,
      options: { isRoot, name: spec.name, root: pluginRoot, type: 'core' },
      pjson: spec.pjson,
      root: pluginRoot,
      tag: undefined,
      type: 'core',
      valid: true,
      version: spec.pjson.version,
      get topics() {
        return topicsToArray(this.pjson.oclif.topics || {})
      },
      async findCommand(id, opts = {}) {
        const load = loaders[id]
        const cmd = load ? searchForCommandClass(await load()) : undefined
        if (!cmd) {
          if (opts.must) throw new Error(`command ${id} not found`)
          return undefined
        }
        cmd.id = id
        cmd.plugin = plugin
        return cmd
      },
      async load() {},
    }
    plugin.commands = Object.entries(manifest.commands)
      .map(([id, c]) => ({
        ...c,
        load: async () => plugin.findCommand(id, { must: true }),
        pluginAlias: plugin.alias,
        pluginType: c.pluginType === 'jit' ? 'jit' : plugin.type,
      }))
      .sort((a, b) => a.id.localeCompare(b.id))
    plugins.set(spec.name, plugin)
  }
  return plugins
}

// oclif's Plugin helpers (config/plugin.js), same behaviour.
function topicsToArray(input, base) {
  if (!input) return []
  base = base ? `${base}:` : ''
  if (Array.isArray(input)) return [...input, input.flatMap((t) => topicsToArray(t.subtopics, `${base}${t.name}`))]
  return Object.keys(input).flatMap((k) => {
    input[k].name = k
    return [{ ...input[k], name: `${base}${k}` }, ...topicsToArray(input[k].subtopics, `${base}${input[k].name}`)]
  })
}

function searchForCommandClass(cmd) {
  if (typeof cmd.run === 'function') return cmd
  if (cmd.default?.run) return cmd.default
  return Object.values(cmd).find((c) => typeof c?.run === 'function')
}

/** oclif's Config, with hooks loaded from their chunks instead of from files. */
function bundledConfigClass(core) {
  const { Config, Errors, ux } = core
  const ROOT_ONLY_HOOKS = new Set(['preparse'])
  return class BundledConfig extends Config {
    // config/config.js#runHook, the module loading aside.
    async runHook(event, opts, timeout, captureErrors) {
      const search = (m) => {
        if (typeof m === 'function') return m
        if (m.default && typeof m.default === 'function') return m.default
        return Object.values(m).find((f) => typeof f === 'function')
      }
      const withTimeout = async (ms, promise) => {
        let id
        const timer = new Promise((_, reject) => {
          id = setTimeout(() => reject(new Error(`Timed out after ${ms} ms.`)), ms).unref()
        })
        return Promise.race([promise, timer]).then((result) => {
          clearTimeout(id)
          return result
        })
      }
      const final = { failures: [], successes: [] }
      const plugins = ROOT_ONLY_HOOKS.has(event) ? [this.rootPlugin] : [...this.plugins.values()]
      await Promise.all(
        plugins.map(async (p) => {
          const context = {
            config: this,
            debug() {},
            error(message, options = {}) {
              Errors.error(message, options)
            },
            exit(code = 0) {
              Errors.exit(code)
            },
            log(message, ...args) {
              ux.stdout(message, ...args)
            },
            warn(message) {
              Errors.warn(message)
            },
          }
          const hooks = p.hooks[event] || []
          const loaders = HOOKS[p.name]?.[event] ?? []
          for (const [i, hook] of hooks.entries()) {
            try {
              const load = loaders[i]
              if (!load) continue
              const module = await load()
              const hookFn = module[hook.identifier] ?? (hook.identifier === 'default' ? search(module) : undefined)
              if (!hookFn) continue
              const result = timeout ? await withTimeout(timeout, hookFn.call(context, { ...opts, config: this, context })) : await hookFn.call(context, { ...opts, config: this, context })
              final.successes.push({ plugin: p, result })
            } catch (error) {
              final.failures.push({ error, plugin: p })
              if (!captureErrors && error.oclif?.exit !== undefined && error.oclif?.exit !== 0 && error.code !== 'MODULE_NOT_FOUND') throw error
            }
          }
        }),
      )
      return final
    }
  }
}

/**
 * oclif's `execute({dir})` for the bundled CLI: `root` is the directory that stands for the
 * package root (config.root; where package.json would be).
 */
export async function runCli({ root, argv = process.argv.slice(2) }) {
  const { flush, handle } = core
  try {
    await run(core, argv, root)
    await flush()
  } catch (error) {
    return handle(error instanceof Error ? error : new Error(String(error)))
  }
}

// main.js#run, with the Config made from the inlined plugins.
async function run(core, argv, root) {
  const { loadHelpClass, Performance } = core
  const BundledConfig = bundledConfigClass(core)
  const options = { root, pjson: PJSON, plugins: makePlugins(root) }
  const config = new BundledConfig(options)
  await config.load()
  if (config.isSingleCommandCLI) throw new Error('single-command CLIs are not bundled')
  const [id, ...argvSlice] = normalizeArgv(config, argv)
  const showHelp = async (helpArgv) => {
    const HelpClass = await loadHelpClass(config)
    const help = new HelpClass(config, config.pjson.oclif.helpOptions ?? config.pjson.helpOptions)
    await help.showHelp(helpArgv)
  }
  const runFinally = async (cmd, error) => {
    await Performance.collect()
    Performance.debug()
    await config.runHook('finally', { argv: argvSlice, Command: cmd, error, id })
  }
  await config.runHook('init', { argv: argvSlice, id })
  const versionFlags = [...new Set(['--version', ...(config.pjson.oclif.additionalVersionFlags ?? [])])]
  if (versionFlags.includes(argv[0])) {
    core.ux.stdout(config.userAgent)
    await runFinally()
    return
  }
  if (helpAddition(argv, config)) {
    await showHelp(argv)
    await runFinally()
    return
  }
  const cmd = config.findCommand(id)
  if (!cmd) {
    const topic = config.flexibleTaxonomy ? null : config.findTopic(id)
    if (topic) {
      await showHelp([id])
      await runFinally()
      return
    }
  }
  let err
  try {
    return await config.runCommand(id, argvSlice, cmd)
  } catch (error) {
    err = error
    throw error
  } finally {
    await runFinally(cmd, err)
  }
}

function helpAddition(argv, config) {
  if (argv.length === 0 && !config.isSingleCommandCLI) return true
  const mergedHelpFlags = getHelpFlagAdditions(config)
  for (const arg of argv) {
    if (mergedHelpFlags.includes(arg)) return true
    if (arg === '--') return false
  }
  return false
}
