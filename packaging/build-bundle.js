#!/usr/bin/env node
/**
 * `npm run build:bundle` (the last step of `npm run build`): the CLI as a few bundled files
 * instead of hundreds of modules. It is the one way svc runs: bin/run.js and the single executable
 * both run dist-bundle/main.js.
 *
 *   dist-bundle/main.js  ESM entry: --version and the root help without oclif (root-help.ts),
 *                        the root help read from dist-bundle/root-help.json (packaging/root-help.js),
 *                        the EPIPE bridge, and the lazy import of cli.js for everything else.
 *   dist-bundle/mcp.js   `svc mcp` without oclif (main.js's fast path for an agent's server).
 *   dist-bundle/cli.js   oclif, code-split: oclif and the command base in the first chunks, each
 *                        command in its own, and what only some commands need (Ink/React, the
 *                        sandbox with node:sqlite, qrcode, conf…) in lazy chunks of their own.
 *   --sea                also dist-sea/svc.cjs, the main script of the single executable
 *                        (packaging/build-binary.js), which carries dist-bundle/ as assets.
 *
 * Input is the compiled dist/ and the manifests (`npm run build` runs tsc and `oclif manifest`
 * first), so the bundle runs exactly the code the tests run.
 *
 * One thing in dist/ is rewritten on the way in, so that it means the same thing bundled:
 * `import.meta.url` becomes the URL the module had in dist/ (config/package.ts finds package.json
 * from it). What the bundle changes in dependencies (Yoga's wasm read, undici's Agent alone and
 * its HTTP/2 half on demand…) is all in packaging/patches.js, with the versions it was written for.
 */
import { createHash } from 'node:crypto'
import { build } from 'esbuild'
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { packageDir, patchesPlugin } from './patches.js'
import { rootHelpData } from './root-help.js'

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)))
const DIST = join(ROOT, 'dist')
const OUT = join(ROOT, 'dist-bundle')
const SEA_OUT = join(ROOT, 'dist-sea')

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'))
const posix = (p) => p.split(sep).join('/')

/**
 * The `svc-bundle:data` module: package.json, the plugins' manifests (each command's entry as its
 * own JSON text, so that a dispatched command parses its own alone), the routes of
 * packaging/entries/dispatch.js, and one import() per file a plugin's command or hook is in (by
 * plugin and path from its root), for oclif's module loader.
 */
export async function bundleData() {
  const { pjson, rootPjson, specs } = pluginSpecs()
  const plugins = []
  const manifests = {}
  const modules = {}
  for (const { name, dir, pjson: p } of specs) {
    const manifestPath = join(dir, 'oclif.manifest.json')
    const manifest = readJson(manifestPath)
    if (manifest.version.split('-', 1)[0] !== p.version.split('-', 1)[0]) throw new Error(`build-bundle: ${manifestPath} is for ${manifest.version}, not ${p.version}: run \`oclif manifest\``)
    const { version, commands, ...other } = manifest
    if (Object.keys(other).length > 0) throw new Error(`build-bundle: ${manifestPath} has more than version and commands (${Object.keys(other)}): packaging/entries/cli.js would drop it`)
    manifests[name] = { version, commands: Object.fromEntries(Object.entries(commands).map(([id, c]) => [id, JSON.stringify(c)])) }
    modules[name] = {}
    for (const [id, c] of Object.entries(manifest.commands)) {
      if (!c.relativePath) throw new Error(`build-bundle: ${name} ${id} has no relativePath in its manifest`)
      modules[name][posix(join(...c.relativePath))] = join(dir, ...c.relativePath)
    }
    for (const hook of Object.values(p.oclif?.hooks ?? {}).flat()) {
      const target = typeof hook === 'string' ? hook : hook.target
      modules[name][posix(join(target))] = join(dir, target)
    }
    const { name: n, version: v, type, description, oclif, dependencies, bin } = p
    plugins.push({ name, relRoot: dir === ROOT ? '.' : posix(relative(ROOT, dir)), pjson: { name: n, version: v, type, description, oclif, dependencies, bin } })
  }
  const lazy = (path) => `() => import(${JSON.stringify(path)})`
  const table = (obj, leaf) =>
    `{${Object.entries(obj)
      .map(([k, v]) => `${JSON.stringify(k)}: ${leaf(v)}`)
      .join(',\n')}}`
  return [
    `export const PJSON = JSON.parse(${JSON.stringify(JSON.stringify(rootPjson))})`,
    `export const PLUGINS = JSON.parse(${JSON.stringify(JSON.stringify(plugins.map((p) => (p.name === pjson.name ? { ...p, pjson: rootPjson } : p))))})`,
    `export const MANIFESTS = ${JSON.stringify(manifests)}`,
    `export const ROUTES = JSON.parse(${JSON.stringify(JSON.stringify(await commandRoutes(specs, rootPjson)))})`,
    `export const MODULES = ${table(modules, (files) => table(files, lazy))}`,
  ].join('\n')
}

/**
 * The CLI's plugins, root first: `{ name, dir, pjson }` each; `rootPjson` is the package.json the
 * bundle carries (without scripts and devDependencies).
 */
export function pluginSpecs() {
  const pjson = readJson(join(ROOT, 'package.json'))
  if (typeof pjson.oclif?.commands !== 'string') throw new Error('build-bundle: oclif.commands must be a directory (pattern strategy)')
  const specs = [{ name: pjson.name, dir: ROOT, pjson }]
  for (const name of pjson.oclif.plugins ?? []) {
    const dir = packageDir(name)
    const p = readJson(join(dir, 'package.json'))
    if (p.oclif?.plugins?.length) throw new Error(`build-bundle: nested plugins (${name}) are not supported`)
    specs.push({ name: p.name, dir, pjson: p })
  }
  const rootPjson = { ...pjson }
  delete rootPjson.devDependencies
  delete rootPjson.scripts
  return { pjson, rootPjson, specs }
}

/**
 * ROUTES of `svc-bundle:data`, for packaging/entries/dispatch.js: what oclif's whole Config, built
 * from these plugins as cli.js builds it, answers. Every id of `config.commandIDs` (the table
 * normalizeArgv reads), with what `config.findCommand(id)` gives: its plugin, its id in that
 * plugin's manifest, and what normalizeArgv reads of it (strict, the names of its args). `direct`:
 * a command of svc's own, run with a Config holding it alone (plugin-help's `help` reads every
 * command, so it is not). null when oclif's ids are not plain (flexible taxonomy, single command)
 * or a plugin has a hook that oclif's main runs around a command (cli.js's runOne runs none).
 */
export async function commandRoutes(specs, rootPjson) {
  const { Config, Plugin } = await import('@oclif/core')
  const plugins = new Map()
  for (const { name, dir, pjson } of specs) {
    const plugin = new Plugin({ isRoot: true, name, pjson: name === rootPjson.name ? rootPjson : pjson, root: dir, type: 'core' })
    await plugin.load()
    plugins.set(name, plugin)
  }
  const config = await Config.load({ root: ROOT, pjson: rootPjson, plugins })
  if (config.flexibleTaxonomy || config.isSingleCommandCLI) return null
  // cli.js runs a dispatched command without oclif's main, whose hooks it would skip.
  if (specs.some(({ pjson }) => ['init', 'prerun', 'postrun', 'finally'].some((event) => pjson.oclif?.hooks?.[event]))) return null
  const routes = {}
  for (const id of config.commandIDs) {
    const c = config.findCommand(id)
    // An alias is registered under its own id: it takes oclif's whole path.
    const key = Object.hasOwn(plugins.get(c.pluginName).manifest.commands, c.id) ? c.id : undefined
    const args = Object.fromEntries(Object.keys(c.args ?? {}).map((a) => [a, {}]))
    routes[id] = { plugin: c.pluginName, key, direct: c.pluginName === rootPjson.name && key !== undefined, args, ...(c.strict === false ? { strict: false } : {}) }
  }
  return routes
}

/** `svc-bundle:mcp-flags`: the flags of `svc mcp` as its command defines them (the manifest), for its fast path (lib/mcp/launch.ts). */
export function mcpFlags() {
  const flags = readJson(join(ROOT, 'oclif.manifest.json')).commands.mcp?.flags
  if (!flags) throw new Error('build-bundle: no mcp command in oclif.manifest.json')
  const specs = Object.fromEntries(Object.entries(flags).map(([name, f]) => [name, f.char ? { type: f.type, char: f.char } : { type: f.type }]))
  return `export const MCP_FLAGS = ${JSON.stringify(specs)}`
}

/**
 * The modules that read the package's own files (package.json, manifests, trigger fixtures): they
 * get packaging/entries/embedded-fs.js for node:fs, which the single executable answers from its assets.
 */
const EMBEDDED_READERS = new Set([join(DIST, 'root-help.js'), join(DIST, 'lib', 'config', 'package.js'), join(DIST, 'lib', 'scenarios', 'builtin.js'), join(ROOT, 'shell', 'completions.js')])
const EMBEDDED_FS = join(ROOT, 'packaging', 'entries', 'embedded-fs.js')

/** `hot`: the hot scripts' content hashes by name (buildHotScripts), which their stand-ins hand to loadHotScript. */
function svcPlugin({ hot = {} } = {}) {
  // Every chunk sits in dist-bundle/, one level below the package root.
  const metaUrl = (file) => `new URL(${JSON.stringify(`../${posix(relative(ROOT, file))}`)}, import.meta.url).href`
  return {
    name: 'svc',
    setup(b) {
      b.onResolve({ filter: /^svc-bundle:(data|mcp-flags)$/ }, (args) => ({ path: args.path.slice('svc-bundle:'.length), namespace: 'svc-bundle' }))
      b.onResolve({ filter: /^node:crypto$/ }, (args) => (args.kind === 'import-statement' && args.importer.startsWith(DIST + sep) ? { path: args.path, namespace: 'svc-builtin-on-call' } : undefined))
      // node:crypto is Node's largest built-in a command meets (~3.5 ms to load: its webcrypto,
      // x509, keys…), and a command that reads (charges get, list) never calls it: svc's own
      // modules get a stand-in whose functions take node:crypto at their first call (issue 39.1).
      b.onLoad({ filter: /.*/, namespace: 'svc-builtin-on-call' }, (args) => ({ contents: callTimeBuiltin(args.path), loader: 'js' }))
      b.onLoad({ filter: /.*/, namespace: 'svc-bundle' }, async (args) => ({ contents: args.path === 'data' ? await bundleData() : mcpFlags(), resolveDir: ROOT, loader: 'js' }))
      // oclif is not in the chunks: it is dist-bundle/oclif.cjs (buildHotScripts), which
      // packaging/entries/hot-script.js runs with a code cache made after a run. Every import of
      // it (svc's commands, the entries, plugin-help) gets a CommonJS stand-in that reads the
      // script's exports at each use, as esbuild's interop reads a bundled CommonJS module's, so
      // oclif's own modules are still evaluated at their first use (oclif-inline-requires).
      b.onResolve({ filter: /^(@oclif\/core(\/help)?|svc-bundle:oclif-module-loader)$/ }, (args) => ({ path: OCLIF_PARTS[args.path], namespace: 'svc-oclif' }))
      // undici likewise (dist-bundle/undici.cjs): svc takes its Agent alone, in net/outbound.js.
      b.onResolve({ filter: /^undici$/ }, (args) => (args.importer === join(DIST, 'lib', 'net', 'outbound.js') ? { path: 'undici', namespace: 'svc-undici' } : undefined))
      b.onResolve({ filter: /^svc-bundle:(oclif|undici)-script$/ }, (args) => ({ path: 'script', namespace: args.path.slice('svc-bundle:'.length, -'-script'.length) === 'oclif' ? 'svc-oclif' : 'svc-undici' }))
      for (const name of ['oclif', 'undici']) {
        b.onLoad({ filter: /.*/, namespace: `svc-${name}` }, (args) => ({
          contents:
            args.path === 'script'
              ? `import { loadHotScript } from ${JSON.stringify(join(ROOT, 'packaging/entries/hot-script.js'))}\nexport const script = loadHotScript('${name}.cjs', { hash: ${JSON.stringify(hot[name])} })\n`
              : name === 'undici'
                ? // A getter: the script loads when a client is first made, not when the chunk that holds net/outbound.js does.
                  `module.exports = { get Agent() { return require('svc-bundle:undici-script').script.undici.Agent } }\n`
                : `module.exports = require('svc-bundle:${name}-script').script.${args.path}\n`,
          resolveDir: ROOT,
          loader: 'js',
        }))
      }
      b.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, (args) => {
        if (!args.path.startsWith(DIST + sep)) return undefined
        let src = readFileSync(args.path, 'utf8')
        src = src.replaceAll('import.meta.url', metaUrl(args.path))
        src = takeBuiltins(src, { keepFs: EMBEDDED_READERS.has(args.path) })
        return { contents: src, resolveDir: dirname(args.path), loader: 'js' }
      })
    },
  }
}

/**
 * svc's own modules take Node's built-ins with process.getBuiltinModule, not an ES import: an
 * import makes the built-in's ES-module facade, which reads every export (3.5 ms of CPU over a
 * plain command's chunks; getters such as fs.promises load more of Node, and node:http's
 * WebSocket loads Node's own copy of undici, ~14 ms of `webhooks listen`; no bundled dependency
 * imports node:http, test/e2e/live-view.test.ts holds the bundle to that); destructuring reads
 * the names the module uses, nothing else (issue 39.1). tsc writes each import on one line, at the
 * top of its module, so `const` there binds before any code of the module runs. node:crypto keeps
 * its import for the stand-in of callTimeBuiltin; `keepFs`: the module reads the package's files
 * through embedded-fs.js (embeddedFsPlugin), so its node:fs import stays an import.
 */
export function takeBuiltins(src, { keepFs = false } = {}) {
  const keep = (name, names = '') => name === 'node:crypto' || (keepFs && name === 'node:fs') || /\bdefault\b/.test(names)
  return src
    .replace(/^import \{([^}]*)\} from '(node:[a-z_/]+)';$/gm, (line, names, name) => (keep(name, names) ? line : `const {${names.replace(/\s+as\s+/g, ': ')}} = process.getBuiltinModule('${name}');`))
    .replace(/^import \* as ([A-Za-z_$][\w$]*) from '(node:[a-z_/]+)';$/gm, (line, binding, name) => (keep(name) ? line : `const ${binding} = process.getBuiltinModule('${name}');`))
}

/** What dist-bundle/oclif.cjs exports (buildHotScripts), by the specifier that stands for it. */
const OCLIF_PARTS = { '@oclif/core': 'core', '@oclif/core/help': 'help', 'svc-bundle:oclif-module-loader': 'moduleLoader' }

/**
 * dist-bundle/oclif.cjs and undici.cjs: oclif, and undici's Agent, with packaging/patches.js's
 * patches, each as one CommonJS script that packaging/entries/hot-script.js runs (see there why not
 * chunks). Each part is a getter, so that a part is required at its first use. `hashes`: each
 * script's SHA-256 (16 hex digits), which names its code cache: computed here, so that no run hashes
 * the script (loading node:zlib and hashing 700 KB cost ~4 % of `charges get`).
 */
export async function buildHotScripts() {
  const scripts = {
    oclif: { core: "require('@oclif/core')", help: "require('@oclif/core/help')", moduleLoader: `require(${JSON.stringify(join(packageDir('@oclif/core'), 'lib', 'module-loader.js'))})` },
    // As undici's entry exports it, Agent alone (undici-agent-alone): the rest is not in the script.
    undici: { undici: `{ Agent: require(${JSON.stringify(join(packageDir('undici'), 'lib', 'dispatcher', 'agent.js'))}) }` },
  }
  const outputs = {}
  const hashes = {}
  for (const [name, parts] of Object.entries(scripts)) {
    const contents = `module.exports = {\n${Object.entries(parts)
      .map(([part, load]) => `  get ${part}() { return ${load} },\n`)
      .join('')}}\n`
    const built = await build({
      ...common,
      stdin: { contents, resolveDir: ROOT, loader: 'js', sourcefile: `${name}-script.js` },
      outfile: join(OUT, `${name}.cjs`),
      // Strict as a whole, as the ES-module chunks ran these modules: a server requires the script
      // as a plain CommonJS module (hot-script.js, SERVERS), which would otherwise be sloppy.
      banner: { js: '"use strict";' },
      format: 'cjs',
      plugins: [patchesPlugin({ dist: DIST })],
    })
    Object.assign(outputs, built.metafile.outputs)
    hashes[name] = createHash('sha256')
      .update(readFileSync(join(OUT, `${name}.cjs`)))
      .digest('hex')
      .slice(0, 16)
  }
  return { metafile: { outputs }, hashes }
}

/**
 * A module standing for the built-in `name`, taken at the first call of one of its functions
 * (process.getBuiltinModule): one function per function Node exports, under the same name. An
 * import of anything else (a constant, a class used with instanceof) fails the build: esbuild
 * finds no such export.
 */
export function callTimeBuiltin(name) {
  const functions = Object.entries(Object.getOwnPropertyDescriptors(process.getBuiltinModule(name)))
    // Functions only, not classes (Hash, KeyObject…: a stand-in cannot be constructed or be their instanceof).
    .filter(([key, d]) => typeof d.value === 'function' && /^[a-z_$][\w$]*$/.test(key))
    .map(([key]) => key)
  return [`let builtin\nconst take = () => (builtin ??= process.getBuiltinModule(${JSON.stringify(name)}))`, ...functions.map((key) => `export function ${key}(...args) { return take().${key}(...args) }`)].join('\n')
}

/** main.js imports ./cli.js and ./mcp.js as they are (the ESM build); the SEA script passes its own loader instead. */
function mainPlugin() {
  return { name: 'svc-main', setup: (b) => b.onResolve({ filter: /^\.\/(cli|mcp)\.js$/ }, (args) => (args.importer.endsWith(`${sep}main.js`) ? { path: args.path, external: true } : undefined)) }
}

/** Only the node:fs redirect of svcPlugin (the SEA script compiles root-help in through main.js). */
function embeddedFsPlugin() {
  return { name: 'svc-embedded-fs', setup: (b) => b.onResolve({ filter: /^(node:)?fs$/ }, (args) => (EMBEDDED_READERS.has(args.importer) ? { path: EMBEDDED_FS } : undefined)) }
}

export const common = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  logLevel: 'warning',
  legalComments: 'none',
  loader: { '.node': 'empty' },
  // Ink imports it only when DEV=true, and it is not installed (unbundled, that import fails the same way).
  external: ['react-devtools-core'],
  // The bundle is a production build, as any bundled React app is: React, its reconciler and
  // its scheduler keep only their production modules (their entries switch on NODE_ENV), and
  // oclif's isProd() agrees. Unbundled (dist/, the tests), NODE_ENV decides at run time as usual.
  define: { 'process.env.NODE_ENV': '"production"' },
  metafile: true,
}

export async function buildEsm() {
  rmSync(OUT, { recursive: true, force: true })
  // The hot scripts first: the chunks' stand-ins name each script's code cache by its content's hash.
  const hot = await buildHotScripts()
  const result = await build({
    ...common,
    // mcp.js: `svc mcp` without oclif (main.js's fast path), sharing the chunks of cli.js.
    entryPoints: { cli: join(ROOT, 'packaging/entries/cli.js'), mcp: join(ROOT, 'packaging/entries/mcp.js') },
    outdir: OUT,
    format: 'esm',
    splitting: true,
    // Every chunk beside cli.js, one level below the package root (the import.meta.url rewrite counts on it).
    chunkNames: '[name]-[hash]',
    // CommonJS dependencies call require() for Node's built-ins.
    banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
    plugins: [svcPlugin({ hot: hot.hashes }), embeddedFsPlugin(), patchesPlugin({ dist: DIST })],
  })
  // main.js on its own, one file with nothing shared: `svc --version` and the root help load it
  // alone (a shared chunk or two more to load cost ~5 % of them); it imports ./cli.js for the rest.
  const main = await build({
    ...common,
    entryPoints: { main: join(ROOT, 'packaging/entries/main.js') },
    outdir: OUT,
    format: 'esm',
    plugins: [mainPlugin(), svcPlugin(), embeddedFsPlugin()],
  })
  result.metafile.outputs = { ...result.metafile.outputs, ...hot.metafile.outputs, ...main.metafile.outputs }
  // The root help main.js answers without oclif, as oclif renders it.
  writeFileSync(join(OUT, 'root-help.json'), JSON.stringify(rootHelpData()))
  return result
}

/** The files the single executable carries as SEA assets, by path from the package root (see packaging/entries/sea-main.js and embedded-fs.js). */
export function seaAssets() {
  const pjson = readJson(join(ROOT, 'package.json'))
  const assets = { 'package.json': join(ROOT, 'package.json'), 'oclif.manifest.json': join(ROOT, 'oclif.manifest.json') }
  for (const name of pjson.oclif?.plugins ?? []) {
    const dir = packageDir(name)
    for (const f of ['package.json', 'oclif.manifest.json']) assets[`node_modules/${name}/${f}`] = join(dir, f)
  }
  for (const f of readdirSync(OUT)) if (f.endsWith('.js') || f.endsWith('.cjs') || f === 'root-help.json') assets[`dist-bundle/${f}`] = join(OUT, f)
  // The built-in trigger fixtures (svc trigger, svc fixtures run).
  const triggers = join(ROOT, 'fixtures', 'triggers')
  for (const f of readdirSync(triggers)) if (f.endsWith('.json')) assets[`fixtures/triggers/${f}`] = join(triggers, f)
  return assets
}

/** dist-sea/svc.cjs: the SEA main script (CommonJS, as Node 24 requires); needs dist-bundle/ built. */
export async function buildSea() {
  rmSync(SEA_OUT, { recursive: true, force: true })
  const assets = seaAssets()
  const result = await build({
    ...common,
    entryPoints: { svc: join(ROOT, 'packaging/entries/sea-main.js') },
    outdir: SEA_OUT,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    external: ['node:sea'],
    define: { ...common.define, __SVC_SEA_ASSETS__: JSON.stringify(Object.keys(assets)) },
    plugins: [mainPlugin(), embeddedFsPlugin()],
  })
  return { result, assets }
}

/**
 * The part of dist/ the library exports need (package.json "exports": svc-cli/sandbox,
 * svc-cli/webhooks): their modules and declaration files and everything those import. The CLI
 * runs from dist-bundle/; the rest of dist/ is the bundle's input (and the tests'), not shipped.
 */
export function libraryFiles() {
  const pjson = readJson(join(ROOT, 'package.json'))
  const entries = Object.values(pjson.exports ?? {})
    .flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)))
    .filter((p) => p.startsWith('./dist/'))
  const files = new Set()
  const queue = entries.map((p) => join(ROOT, p).replace(/(\.d\.ts|\.js)$/, ''))
  while (queue.length > 0) {
    const base = queue.pop()
    for (const file of [`${base}.js`, `${base}.d.ts`]) {
      if (files.has(file) || !existsSync(file)) continue
      files.add(file)
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s*)['"](\.{1,2}\/[^'"]+)['"]/gm)) {
        queue.push(join(dirname(file), m[1]).replace(/(\.d\.ts|\.js)$/, ''))
      }
    }
  }
  return files
}

/** dist/.npmignore: npm packs from dist/ only what libraryFiles() names. */
function writeLibraryIgnore() {
  const keep = libraryFiles()
  const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
  const drop = walk(DIST)
    .filter((f) => !keep.has(f) && !f.endsWith('.npmignore'))
    .map((f) => `/${posix(relative(DIST, f))}`)
    .sort()
  const header = '# Written by packaging/build-bundle.js: the CLI runs from dist-bundle/, so the package ships only\n# the part of dist/ that its library exports (svc-cli/sandbox, svc-cli/webhooks) import.\n'
  writeFileSync(join(DIST, '.npmignore'), `${header}${drop.join('\n')}\n`)
  return { kept: keep.size, dropped: drop.length }
}

function summary(result, dir) {
  const outputs = Object.entries(result.metafile.outputs).filter(([f]) => !f.endsWith('.map'))
  const bytes = outputs.reduce((s, [, o]) => s + o.bytes, 0)
  return `${relative(ROOT, dir)}/: ${outputs.length} files, ${(bytes / 1024).toFixed(0)} KiB`
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!existsSync(join(DIST, 'root-help.js')) || !existsSync(join(ROOT, 'oclif.manifest.json'))) {
    process.stderr.write('build-bundle: build first (tsc and oclif manifest): npm run build\n')
    process.exit(1)
  }
  const started = performance.now()
  const esm = await buildEsm()
  let line = summary(esm, OUT)
  const lib = writeLibraryIgnore()
  line += `; dist/ ships ${lib.kept} library files (${lib.dropped} left out by dist/.npmignore)`
  if (process.argv.includes('--sea')) line += `; ${summary((await buildSea()).result, SEA_OUT)}`
  process.stdout.write(`build-bundle: ${line} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
}
