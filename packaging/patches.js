/**
 * Every change svc makes to how a dependency loads, in one place, applied when bundling
 * (packaging/build-bundle.js adds `patchesPlugin()` to esbuild). Nothing under src/ redirects a
 * module or rewrites a dependency at run time: unbundled (dist/, the library exports and the
 * tests) the dependencies load exactly as published, only slower.
 *
 * Each patch names the package and the exact version it was written for (package.json pins it, and
 * npm-shrinkwrap.json ships the tree), and the text it relies on. test/packaging/patches.test.ts
 * fails, naming the patch, when the installed version or that text changes: re-check the patch
 * against the new release, then update `version` here.
 *
 * packaging/gen-answer-parsers.js (zod's compiled parsers, written out at development time) is the
 * other use of a dependency's internals; it is listed here too, so an upgrade of zod names it.
 */
import { readFileSync } from 'node:fs'
import { dirname, join, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)))

/** The installed directory of `name` (some packages export no package.json: walk up from its entry). */
export function packageDir(name, from = ROOT) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    try {
      const pjson = JSON.parse(readFileSync(join(candidate, 'package.json'), 'utf8'))
      if (pjson.name === name) return candidate
    } catch {
      // not here
    }
    if (dirname(dir) === dir) throw new Error(`packaging: ${name} is not installed (from ${from})`)
  }
}

/** Where the copy a patch is for is installed: `dir` (from the package root) for a nested copy, else the package as resolved from the root. */
export function patchDir(patch, from = ROOT) {
  return patch.dir ? join(from, ...patch.dir.split('/')) : packageDir(patch.package, from)
}

/** The version of the copy a patch is for, as installed. */
export function installedVersion(patch, from = ROOT) {
  return JSON.parse(readFileSync(join(patchDir(patch, from), 'package.json'), 'utf8')).version
}

const MODULE_LOADER_EXPORTS = 'exports.loadWithData = loadWithData;\nexports.loadWithDataFromManifest = loadWithDataFromManifest;'
const OCLIF_TINYGLOBBY = 'const tinyglobby_1 = require("tinyglobby");'
const OCLIF_MINIMATCH = 'const minimatch_1 = require("minimatch");'
const OCLIF_JSON_READ = "const contents = await (0, promises_1.readFile)(path, 'utf8');"
const OCLIF_WSL_PROBE = "return (await import('wsl-utils')).isWsl ? 'wsl' : (0, node_os_1.platform)();"
// A module-level require of oclif's compiled CommonJS, as tsc writes it: `const x_1 = require("x");`, optionally through __importStar/__importDefault.
const OCLIF_TOP_REQUIRE = /^(?:const|var|let) ([A-Za-z_$][\w$]*) = ((?:__importStar\(|__importDefault\()?require\((["'])[^"']+\3\)\)?);$/gm
// index.js's namespaces: `exports.Errors = __importStar(require("./errors"));`.
const OCLIF_INDEX_NAMESPACE = /^exports\.([A-Za-z_$][\w$]*) = (__importStar\(require\("[^"]+"\)\));$/gm
const STRING_WIDTH_ASCII = 'if (/^[\\u0020-\\u007E]*$/.test(string)) {\n\t\treturn string.length;\n\t}'
const YOGA_FETCH_FIRST = 'return w||"function"!=typeof fetch?'
const UNDICI_AGENT_EXPORT = "const Agent = require('./lib/dispatcher/agent')"
const UNDICI_H2_REQUIRE = "const connectH2 = require('./client-h2.js')"
const UNDICI_H2_CALL = 'connectH2(client, socket)'
const MCP_AJV_IMPORT = "import { AjvJsonSchemaValidator } from '../validation/ajv-provider.js';"
const MCP_AJV_DEFAULT = 'options?.jsonSchemaValidator ?? new AjvJsonSchemaValidator()'
const CONF_AJV_IMPORT = "import { Ajv2020 as Ajv } from 'ajv/dist/2020.js';"
const CONF_AJV_FORMATS_IMPORT = "import ajvFormatsModule from 'ajv-formats';"
const CONF_AJV_ONLY_FOR_A_SCHEMA = 'if (!(options.schema ?? options.ajvOptions ?? options.rootSchema)) {'
const CONF_SEMVER_IMPORT = "import semver from 'semver';"
const CONF_SEMVER_ONLY_FOR_MIGRATIONS = 'const snapshot = options.migrations ? this.#snapshotFile() : undefined;'

/**
 * The patches. `package`@`version`: what it was written for. `checks`: files of that package
 * (relative to its directory) and the text each must still contain, or a RegExp it must match.
 */
export const PATCHES = [
  {
    id: 'oclif-bundled-modules',
    package: '@oclif/core',
    version: '5.1.9',
    why: "oclif imports each command and hook from its plugin's files (module-loader.js: loadWithDataFromManifest for a command of a manifest, loadWithData for a hook); in the bundle those files are chunks, so the bundle's module loader takes the chunk for a file it holds (svc-bundle:data's MODULES, by plugin and path from the plugin's root) and leaves anything else to oclif. packaging/entries/cli.js also gives oclif its Plugins ready-made, with their manifests inlined (Plugin#_manifest).",
    checks: [
      ['lib/module-loader.js', MODULE_LOADER_EXPORTS],
      ['lib/module-loader.js', 'async function loadWithDataFromManifest(cached, modulePath) {'],
      ['lib/config/config.js', 'await (0, module_loader_1.loadWithData)(p, await (0, ts_path_1.tsPath)(p.root, hook.target, p));'],
      ['lib/config/plugin.js', 'await (0, module_loader_1.loadWithDataFromManifest)(this.manifest.commands[id], this.root)'],
      ['lib/config/plugin.js', 'this.manifest = await this._manifest();'],
      ['lib/config/plugin-loader.js', 'rootPlugin = plugins.find((p) => p.root === this.options.root) ?? plugins[0];'],
    ],
  },
  {
    id: 'oclif-discovery-on-demand',
    package: '@oclif/core',
    version: '5.1.9',
    why: "oclif's Plugin globs a commands directory when it has no manifest (tinyglobby, with fdir and picomatch) and its PluginLoader matches plugin names against patterns when it finds plugins itself (minimatch); both are required, and evaluated, when oclif loads. The bundle gives oclif its plugins and their manifests (packaging/entries/cli.js), so neither runs; the bundle's oclif requires each at its one use. ~2 % of the CPU of `svc charges get`.",
    checks: [
      ['lib/config/plugin.js', OCLIF_TINYGLOBBY],
      ['lib/config/plugin.js', '(0, tinyglobby_1.glob)('],
      ['lib/config/plugin-loader.js', OCLIF_MINIMATCH],
      ['lib/config/plugin-loader.js', '(0, minimatch_1.minimatch)('],
    ],
  },
  {
    id: 'oclif-inline-requires',
    package: '@oclif/core',
    version: '5.1.9',
    why: "oclif's index requires every module of oclif when it loads, and each module requires what any of its functions may use (help and its text wrapping, semver, readline, child_process, perf_hooks…), ~11 ms of a plain command's start for code it never runs (issue 39.1). In the bundle each module-level require of oclif's lib/ is inlined as Metro's inlineRequires does for React Native: the binding is a stand-in that requires the module at its first use, so a module is evaluated when it is first used, not when a module that might use it loads.",
    checks: [
      ['lib/index.js', 'exports.Errors = __importStar(require("./errors"));'],
      ['lib/command.js', 'const config_1 = require("./config");'],
    ],
  },
  {
    id: 'unicode-fast-path/string-width',
    package: 'string-width',
    dir: 'node_modules/ink/node_modules/string-width',
    version: '8.3.0',
    why: "Ink measures every piece of text with string-width, whose module made an Intl.Segmenter (ICU's grapheme data: 7-11 ms on this machine) and the RGI_Emoji regex (10-17 ms to build, 12-20 ms more at its first use) when it loaded, for the first frame of `charges watch` that is ASCII and box-drawing characters (issue 39.1). In the bundle (every copy of this version: ink's, slice-ansi's, cli-truncate's), the segmenter and the regexes are made at their first use, and text whose every character is in a table the build computes with this string-width itself (width 1, its own grapheme cluster: svc-bundle:unicode) is measured by its length, as printable ASCII already is.",
    checks: [
      ['index.js', 'const segmenter = new Intl.Segmenter();'],
      ['index.js', 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;'],
      ['index.js', STRING_WIDTH_ASCII],
    ],
  },
  {
    id: 'unicode-fast-path/slice-ansi',
    package: 'slice-ansi',
    version: '10.0.1',
    why: 'its tokenizer made an Intl.Segmenter when it loaded: it gets the segmenter of svc-bundle:unicode (ICU at its first need; text of own-cluster characters segmented without it).',
    checks: [['tokenize-ansi.js', "const GRAPHEME_SEGMENTER = new Intl.Segmenter(undefined, {granularity: 'grapheme'});"]],
  },
  {
    id: 'unicode-fast-path/wrap-ansi',
    package: 'wrap-ansi',
    dir: 'node_modules/ink/node_modules/wrap-ansi',
    version: '10.0.2',
    why: 'as slice-ansi: Ink wraps text with it.',
    checks: [['index.js', 'const segmenter = new Intl.Segmenter();']],
  },
  {
    id: 'unicode-fast-path/ansi-tokenize',
    package: '@alcalzone/ansi-tokenize',
    version: '0.3.2',
    why: "as slice-ansi: Ink's output buffer tokenizes every line it writes with it.",
    checks: [['build/tokenize.js', 'const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });']],
  },
  {
    id: 'unicode-fast-path/ink',
    package: 'ink',
    version: '8.0.0',
    why: "as slice-ansi: Ink's line updates.",
    checks: [['build/line-update.js', "const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });"]],
  },
  {
    id: 'unicode-fast-path/cli-truncate',
    package: 'cli-truncate',
    version: '6.2.0',
    why: 'as slice-ansi (it makes its segmenter when it truncates).',
    checks: [['index.js', 'new Intl.Segmenter()']],
  },
  {
    id: 'oclif-json-read-sync',
    package: '@oclif/core',
    version: '5.1.9',
    why: "oclif's Config reads the user's theme.json (in svc's config directory) at every start with readJson, whose `fs/promises` readFile loads node:fs/promises and with it Node's file watchers and readline's interface (~1.3 ms, the one use of it in `svc charges get`; issue 39.1). The bundle's readJson reads the file with readFileSync: the same contents, cache and errors (a rejected promise), for the small JSON files oclif reads.",
    checks: [['lib/util/fs.js', OCLIF_JSON_READ]],
  },
  {
    id: 'oclif-platform-probe-in-bundle',
    package: '@oclif/core',
    version: '5.1.9',
    why: "oclif's Config asks getPlatform() at every start, which imports all of wsl-utils (a chunk of its own, with node:child_process and node:fs/promises behind ES-module facades) to read one boolean, is-wsl's; the bundle's getPlatform takes is-wsl itself, the package wsl-utils re-exports it from, in oclif's chunk: the same answer, 0.97× the wall time of `svc charges get` (31 whole-process A/B pairs; issue 39.1). getShell's powerShellPath (Windows only) still imports wsl-utils.",
    checks: [['lib/util/os.js', OCLIF_WSL_PROBE]],
  },
  {
    id: 'oclif-platform-probe-in-bundle/wsl-utils',
    package: 'wsl-utils',
    version: '0.4.0',
    why: 'its isWsl is is-wsl re-exported: the oclif-platform-probe-in-bundle patch takes is-wsl in its place.',
    checks: [['index.js', "export {default as isWsl} from 'is-wsl';"]],
  },
  {
    id: 'oclif-platform-probe-in-bundle/is-wsl',
    package: 'is-wsl',
    version: '3.1.1',
    why: 'its default export is the answer (computed when it loads), which the oclif-platform-probe-in-bundle patch reads.',
    checks: [['index.js', 'export default process.env.__IS_WSL_TEST__ ? isWsl : isWsl();']],
  },
  {
    id: 'yoga-wasm-without-fetch',
    package: 'yoga-layout',
    version: '3.2.1',
    why: "Yoga (Ink's layout) reads its base64 wasm with fetch() when fetch exists (which loads Node's own undici first), else with a charCodeAt loop: ~25 ms of a view's first frame. Buffer decodes the same bytes natively.",
    checks: [['dist/binaries/yoga-wasm-base64-esm.js', YOGA_FETCH_FIRST]],
  },
  {
    id: 'undici-agent-alone',
    package: 'undici',
    version: '8.12.4',
    why: "net/outbound.ts uses undici's Agent alone; undici's index also loads fetch, WebSocket, the cache and the mocks (~110 modules). The bundle takes the Agent's own module for `import { Agent } from 'undici'`.",
    checks: [
      ['index.js', UNDICI_AGENT_EXPORT],
      ['index.js', 'module.exports.Agent = Agent'],
    ],
  },
  {
    id: 'undici-h2-on-demand',
    package: 'undici',
    version: '8.12.4',
    why: "undici's Client (every Agent's) requires its HTTP/2 half at load, and that half requires node:http2 at its top, which loads node:tls and Node's HTTP/2 core: ~8 % of the CPU of `svc charges get`, whose connection speaks HTTP/1.1 (loopback, or TLS whose ALPN did not pick h2). The bundle's Client requires client-h2.js the first time a socket negotiated h2, the one place it calls it.",
    checks: [
      ['lib/dispatcher/client.js', UNDICI_H2_REQUIRE],
      ['lib/dispatcher/client.js', UNDICI_H2_CALL],
      ['lib/dispatcher/client-h2.js', "http2 = require('node:http2')"],
    ],
  },
  {
    id: 'mcp-server-without-ajv',
    package: '@modelcontextprotocol/sdk',
    version: '1.32.2',
    why: "The SDK's Server imports its Ajv validator (Ajv and its vocabularies) only to build one when no `jsonSchemaValidator` is given, for elicitation answers; `svc mcp` elicits nothing and always gives its own (lib/mcp/server.ts), so the bundle's Server takes a stub that refuses to be built. ~6 % of the CPU to answer `initialize`.",
    checks: [
      ['dist/esm/server/index.js', MCP_AJV_IMPORT],
      ['dist/esm/server/index.js', MCP_AJV_DEFAULT],
    ],
  },
  {
    id: 'conf-without-ajv',
    package: 'conf',
    version: '16.0.0',
    why: "Every command reads config.json through conf (lib/config/store.ts). conf imports ajv and ajv-formats at the top of its module, yet builds a validator only for a `schema`, `rootSchema` or `ajvOptions`, and imports semver (evaluated whole at load) for `migrations` alone; svc passes none of them (its `deserialize` checks the shape by hand), so the bundle's conf takes stubs that refuse to be used. Otherwise ~300 KiB of ajv is parsed and semver evaluated on every command (~18 ms of CPU).",
    checks: [
      ['dist/source/index.js', CONF_AJV_IMPORT],
      ['dist/source/index.js', CONF_AJV_FORMATS_IMPORT],
      ['dist/source/index.js', CONF_AJV_ONLY_FOR_A_SCHEMA],
      ['dist/source/index.js', CONF_SEMVER_IMPORT],
      ['dist/source/index.js', CONF_SEMVER_ONLY_FOR_MIGRATIONS],
    ],
  },
  {
    id: 'zod-compiled-answer-parsers',
    package: 'zod',
    version: '4.6.7',
    why: "packaging/gen-answer-parsers.js writes out the parsers zod's compiler (compileFn of zod/v4/core) makes for the API's answers (src/lib/generated/answer-parsers.ts); test/lib/contract/answer-parsers.test.ts checks they are current and agree with zod.",
    checks: [
      ['v4/core/index.js', 'export * from "./compile.js";'],
      ['v4/core/compile.js', 'export function compileFn(schema, options)'],
      ['v4/core/compile.js', 'Symbol.for("zod.compile.invalid")'],
    ],
  },
]

/**
 * Appended to oclif's module-loader.js (CommonJS): a file the bundle holds comes from its chunk.
 * packaging/entries/cli.js hands over the table (import 'svc-bundle:oclif-module-loader'); were
 * this code to require the table, esbuild would wrap every module the table reaches (an ES module
 * required from CommonJS), which undoes tree-shaking.
 */
const BUNDLED_MODULES = `;(() => {
  const { join, relative, sep } = require('node:path')
  let modules = {}
  exports.useBundledModules = (table) => {
    modules = table
  }
  const fromBundle = async (plugin, file, filePath) => {
    const load = modules[plugin]?.[file.split(sep).join('/')]
    return load ? { filePath, isESM: true, module: await load() } : undefined
  }
  const { loadWithData, loadWithDataFromManifest } = exports
  exports.loadWithData = async (config, modulePath) =>
    (config.type !== undefined && (await fromBundle(config.name, relative(config.root, modulePath), modulePath))) || loadWithData(config, modulePath)
  exports.loadWithDataFromManifest = async (cached, modulePath) =>
    (await fromBundle(cached.pluginName, join(...(cached.relativePath ?? [])), join(modulePath, ...(cached.relativePath ?? [])))) || loadWithDataFromManifest(cached, modulePath)
})()
`

/** Problems of each patch with what is installed: a wrong version, or text a patch relies on that is gone. */
export function patchProblems(from = ROOT) {
  const problems = []
  for (const p of PATCHES) {
    const dir = patchDir(p, from)
    const version = installedVersion(p, from)
    if (version !== p.version) problems.push(`packaging patch ${p.id}: written for ${p.package}@${p.version}, installed is ${version}; check the patch against it and update its version in packaging/patches.js`)
    for (const [file, expected] of p.checks) {
      let text
      try {
        text = readFileSync(join(dir, file), 'utf8')
      } catch {
        problems.push(`packaging patch ${p.id}: ${p.package}/${file} is gone`)
        continue
      }
      const present = typeof expected === 'string' ? text.includes(expected) : expected.test(text)
      if (!present) problems.push(`packaging patch ${p.id}: ${p.package}/${file} no longer has ${expected}`)
    }
  }
  return problems
}

const isIn = (path, name, rest) => path.includes(`${sep}node_modules${sep}${name}${sep}${rest.split('/').join(sep)}`)

/** oclif-bundled-modules: after module-loader.js has set its exports, the two loaders it exports look in the bundle first (oclif's other modules call them through those exports). */
function bundledModuleLoader(src, path, fail) {
  if (!src.includes(MODULE_LOADER_EXPORTS)) fail('oclif-bundled-modules', `${path} no longer exports its loaders as expected`)
  return `${src}\n${BUNDLED_MODULES}`
}

/** oclif-discovery-on-demand: each module's one binding becomes a getter that requires the package. */
function discoveryOnDemand(src, path, fail) {
  const [line, name, lazy] = path.endsWith('plugin.js')
    ? [OCLIF_TINYGLOBBY, 'tinyglobby_1', 'const tinyglobby_1 = { get glob() { return require("tinyglobby").glob } };']
    : [OCLIF_MINIMATCH, 'minimatch_1', 'const minimatch_1 = { get minimatch() { return require("minimatch").minimatch } };']
  // The require and the one use its getter serves: any other use would need the package itself.
  const uses = src.match(new RegExp(`\\b${name}\\b`, 'g')).length
  if (src.split(line).length !== 2 || uses !== 2) fail('oclif-discovery-on-demand', `${path} no longer requires and uses ${name} as expected`)
  return src.replace(line, lazy)
}

/** oclif-json-read-sync: readJson's one read, synchronous (it stays an async function: a missing file still rejects). */
function jsonReadSync(src, path, fail) {
  if (src.split(OCLIF_JSON_READ).length !== 2) fail('oclif-json-read-sync', `${path} no longer reads JSON with fs/promises as expected`)
  return src.replace(OCLIF_JSON_READ, "const contents = (0, node_fs_1.readFileSync)(path, 'utf8');")
}

/** oclif-platform-probe-in-bundle: is-wsl (resolved from wsl-utils, whose dependency it is), required where getPlatform imported wsl-utils. */
function platformProbe(src, path, fail) {
  if (src.split(OCLIF_WSL_PROBE).length !== 2) fail('oclif-platform-probe-in-bundle', `${path} no longer reads isWsl from wsl-utils as expected`)
  const isWsl = JSON.stringify(join(packageDir('is-wsl', packageDir('wsl-utils', dirname(path))), 'index.js'))
  return src.replace(OCLIF_WSL_PROBE, `return require(${isWsl}).default ? 'wsl' : (0, node_os_1.platform)();`)
}

/**
 * oclif-inline-requires: `const x_1 = require("x");` becomes `const x_1 = __svcLazy(() => require("x"));`
 * (svc-bundle:lazy-require), and index.js's `exports.Errors = __importStar(require("./errors"));` a
 * getter of the same. A module with none is left as it is.
 */
function inlineRequires(src, path, fail) {
  let count = 0
  let out = src.replace(OCLIF_TOP_REQUIRE, (_all, name, expr) => {
    count++
    return `const ${name} = __svcLazy(() => ${expr});`
  })
  out = out.replace(OCLIF_INDEX_NAMESPACE, (_all, name, expr) => {
    count++
    return `Object.defineProperty(exports, ${JSON.stringify(name)}, { enumerable: true, configurable: true, get: __svcOnce(() => ${expr}) });`
  })
  if (count === 0) return src
  // After "use strict" and tsc's helpers (they are functions and vars, hoisted), before the first require.
  if (!out.startsWith('"use strict";')) fail('oclif-inline-requires', `${path} does not start with "use strict" as tsc writes it`)
  return `"use strict";\nconst { lazy: __svcLazy, once: __svcOnce } = require("svc-bundle:lazy-require");${out.slice('"use strict";'.length)}`
}

/**
 * svc-bundle:lazy-require. `lazy(load)`: a stand-in for the module `load()` returns, which calls
 * it at the first use of any kind (a property read or write, `in`, its keys) and forwards every
 * use to the module from then on. `once(load)`: load's value, computed at the first call.
 */
export const LAZY_REQUIRE = `exports.once = (load) => {
  let done = false
  let value
  return () => {
    if (!done) {
      value = load()
      done = true
    }
    return value
  }
}
exports.lazy = (load) => {
  const module = exports.once(load)
  // A bound function: callable and constructible like a module that is a function (debug,
  // wordwrap), with no own property a Proxy would have to report as the target's.
  return new Proxy(function lazyModule() {}.bind(null), {
    get: (_, key) => module()[key],
    set: (_, key, value) => {
      module()[key] = value
      return true
    },
    has: (_, key) => key in module(),
    ownKeys: () => Reflect.ownKeys(module()).filter((key) => key !== 'prototype' && key !== 'arguments' && key !== 'caller'),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(module(), key)
      return d && { ...d, configurable: true }
    },
    defineProperty: (_, key, d) => Reflect.defineProperty(module(), key, d),
    deleteProperty: (_, key) => Reflect.deleteProperty(module(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(module()),
    apply: (_, self, args) => Reflect.apply(module(), self, args),
    construct: (_, args, target) => Reflect.construct(module(), args, target),
  })
}
`

/**
 * Whether unicode-fast-path rewrites `path`: a file its entries name, or any copy of string-width
 * of the version its entry names (ink, slice-ansi and cli-truncate each install their own).
 */
function segmenterUser(path) {
  const entries = PATCHES.filter((p) => p.id.startsWith('unicode-fast-path/'))
  const stringWidth = entries.find((p) => p.package === 'string-width')
  if (/[\\/]string-width[\\/]index\.js$/.test(path)) return JSON.parse(readFileSync(join(dirname(path), 'package.json'), 'utf8')).version === stringWidth.version
  return entries.some((p) => p !== stringWidth && p.checks.some(([file]) => path === join(patchDir(p), ...file.split('/'))))
}

/**
 * unicode-fast-path: a module of the list that makes an Intl.Segmenter gets svc-bundle:unicode's
 * instead; string-width's regexes are made at their first use, and its measure takes the table's
 * fast path after the one for printable ASCII.
 */
function unicodeFastPath(src, path, fail) {
  if (!src.includes('new Intl.Segmenter(')) fail('unicode-fast-path', `${path} no longer makes an Intl.Segmenter`)
  let out = src.replaceAll('new Intl.Segmenter(', 'new SvcSegmenter(')
  const imports = ['FastSegmenter as SvcSegmenter']
  if (/[\\/]string-width[\\/]index\.js$/.test(path)) {
    if (!out.includes(STRING_WIDTH_ASCII)) fail('unicode-fast-path/string-width', `${path} no longer has its printable-ASCII fast path`)
    let lazy = 0
    out = out.replace(/^const (\w+Regex) = (\/.*\\p\{.*\/[a-z]+);$/gm, (_all, name, literal) => {
      lazy++
      return `const ${name} = lazyRegExp(() => ${literal});`
    })
    if (lazy !== 4) fail('unicode-fast-path/string-width', `${path} no longer makes its four Unicode-property regexes as expected (${lazy})`)
    out = out.replace(STRING_WIDTH_ASCII, `${STRING_WIDTH_ASCII}\n\n\tif (ambiguousIsNarrow && NARROW_TEXT.test(string)) {\n\t\treturn string.length;\n\t}`)
    imports.push('lazyRegExp', 'NARROW_TEXT')
  }
  return `import { ${imports.join(', ')} } from "svc-bundle:unicode";\n${out}`
}

/** The non-ASCII code points the table considers (old, stable blocks: Latin, Greek, Cyrillic, punctuation, arrows, math, box drawing, shapes, dingbats, braille). */
const NARROW_CANDIDATES = [
  [0xa0, 0x24f],
  [0x370, 0x4ff],
  [0x2010, 0x205e],
  [0x2070, 0x20bf],
  [0x2100, 0x218b],
  [0x2190, 0x23ff],
  [0x2460, 0x24ff],
  [0x2500, 0x2bff],
]

let unicodeSource
/**
 * svc-bundle:unicode, computed when the bundle is built: the code points of NARROW_CANDIDATES that
 * the bundled string-width measures as one column in every neighbourhood tried and that
 * Intl.Segmenter keeps as grapheme clusters of their own (no Extended_Pictographic, emoji,
 * spacing or combining mark, default-ignorable or Hangul), so a text made of them and printable
 * ASCII is as wide as it is long and is segmented one character per cluster.
 */
export async function unicodeModule() {
  unicodeSource ??= (async () => {
    const stringWidth = (await import(pathToFileURL(join(patchDir(PATCHES.find((p) => p.id === 'unicode-fast-path/string-width')), 'index.js')).href)).default
    const segmenter = new Intl.Segmenter()
    const own = []
    for (const [low, high] of NARROW_CANDIDATES) {
      for (let cp = low; cp <= high; cp++) {
        const ch = String.fromCharCode(cp)
        if (!/^\p{Grapheme_Base}$/u.test(ch) || /[\p{Mc}\p{Extended_Pictographic}\p{Emoji}\p{Emoji_Component}\p{Default_Ignorable_Code_Point}\p{Script=Hangul}]/u.test(ch)) continue
        if (stringWidth(ch) !== 1 || stringWidth(ch + ch) !== 2 || stringWidth(`a${ch}${ch}b`) !== 4 || stringWidth(`${ch}\u00e9`) !== 2) continue
        if ([...segmenter.segment(`a${ch}${ch}b`)].length !== 4 || [...segmenter.segment(`${ch}\u00e9`)].length !== 2) continue
        own.push(cp)
      }
    }
    const hex = (cp) => `\\u${cp.toString(16).padStart(4, '0')}`
    const ranges = []
    for (const cp of own) {
      const last = ranges.at(-1)
      if (last && last[1] === cp - 1) last[1] = cp
      else ranges.push([cp, cp])
    }
    const table = ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('')
    return `${UNICODE_MODULE}
export const NARROW_TEXT = /^[\\u0020-\\u007e${table}]*$/
const OWN_CLUSTERS = /^[\\t\\n\\u001b\\u0020-\\u007e${table}]*$/
`
  })()
  return unicodeSource
}

/** svc-bundle:unicode, less its tables (unicodeModule). */
const UNICODE_MODULE = `/**
 * A stand-in for a RegExp made at its first use: what string-width does with its regexes
 * (test, and String's search and match, which call the matching symbol methods).
 */
export function lazyRegExp(make) {
  let made
  const re = () => (made ??= make())
  return {
    test: (text) => re().test(text),
    exec: (text) => re().exec(text),
    [Symbol.search]: (text) => re()[Symbol.search](text),
    [Symbol.match]: (text) => re()[Symbol.match](text),
    [Symbol.matchAll]: (text) => re()[Symbol.matchAll](text),
    [Symbol.replace]: (text, replacement) => re()[Symbol.replace](text, replacement),
    [Symbol.split]: (text, limit) => re()[Symbol.split](text, limit),
  }
}

/**
 * Intl.Segmenter, made at its first need: a grapheme segmentation of a text whose every character
 * is a cluster of its own (OWN_CLUSTERS) is those characters, with Intl.Segmenter's segment data.
 */
export class FastSegmenter {
  #options
  #made
  #graphemes
  constructor(...options) {
    this.#options = options
    this.#graphemes = (options[1]?.granularity ?? 'grapheme') === 'grapheme'
  }
  #segmenter() {
    return (this.#made ??= new Intl.Segmenter(...this.#options))
  }
  segment(input) {
    const text = String(input)
    return this.#graphemes && OWN_CLUSTERS.test(text) ? new OwnClusters(text) : this.#segmenter().segment(text)
  }
  resolvedOptions() {
    return this.#segmenter().resolvedOptions()
  }
}

class OwnClusters {
  #text
  constructor(text) {
    this.#text = text
  }
  containing(index = 0) {
    const at = Math.trunc(Number(index)) || 0
    return at >= 0 && at < this.#text.length ? { segment: this.#text[at], index: at, input: this.#text } : undefined
  }
  *[Symbol.iterator]() {
    const text = this.#text
    for (let index = 0; index < text.length; index++) yield { segment: text[index], index, input: text }
  }
}
`

/** The esbuild plugin that applies every patch; `dist` is the compiled src/ the bundle is made from. */
export function patchesPlugin({ dist }) {
  const fail = (id, what) => {
    throw new Error(`packaging patch ${id}: ${what}; see packaging/patches.js (npx vitest run test/packaging)`)
  }
  return {
    name: 'svc-packaging-patches',
    setup(b) {
      b.onResolve({ filter: /^svc-bundle:oclif-module-loader$/ }, () => ({ path: join(packageDir('@oclif/core'), 'lib', 'module-loader.js') }))
      // Every file of oclif's lib/ goes through one handler: the patches of single files, then
      // oclif-inline-requires on all of them.
      b.onResolve({ filter: /^svc-bundle:lazy-require$/ }, () => ({ path: 'lazy-require', namespace: 'svc-lazy-require' }))
      b.onLoad({ filter: /.*/, namespace: 'svc-lazy-require' }, () => ({ contents: LAZY_REQUIRE, loader: 'js' }))
      b.onLoad({ filter: /[\\/]@oclif[\\/]core[\\/]lib[\\/].*\.js$/ }, (args) => {
        let src = readFileSync(args.path, 'utf8')
        const file = args.path
          .slice(args.path.lastIndexOf(`${sep}lib${sep}`) + 5)
          .split(sep)
          .join('/')
        if (file === 'module-loader.js') src = bundledModuleLoader(src, args.path, fail)
        if (file === 'config/plugin.js' || file === 'config/plugin-loader.js') src = discoveryOnDemand(src, args.path, fail)
        if (file === 'util/os.js') src = platformProbe(src, args.path, fail)
        if (file === 'util/fs.js') src = jsonReadSync(src, args.path, fail)
        return { contents: inlineRequires(src, args.path, fail), resolveDir: dirname(args.path), loader: 'js' }
      })
      // unicode-fast-path: svc-bundle:unicode, and the modules that use it.
      b.onResolve({ filter: /^svc-bundle:unicode$/ }, () => ({ path: 'unicode', namespace: 'svc-unicode' }))
      b.onLoad({ filter: /.*/, namespace: 'svc-unicode' }, async () => ({ contents: await unicodeModule(), loader: 'js' }))
      b.onLoad({ filter: /[\\/](string-width|wrap-ansi|cli-truncate|slice-ansi|ansi-tokenize|ink)[\\/].*\.js$/ }, (args) => {
        if (!segmenterUser(args.path)) return undefined
        return { contents: unicodeFastPath(readFileSync(args.path, 'utf8'), args.path, fail), resolveDir: dirname(args.path), loader: 'js' }
      })
      // yoga-wasm-without-fetch: the wasm bytes become the module's wasmBinary (`w`).
      b.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, (args) => {
        const src = readFileSync(args.path, 'utf8')
        if (src.split(YOGA_FETCH_FIRST).length !== 2) fail('yoga-wasm-without-fetch', `${args.path} no longer reads its wasm as expected`)
        return { contents: src.replace(YOGA_FETCH_FIRST, 'return (w||(w=Buffer.from(H.slice(37),"base64"))),true?'), resolveDir: dirname(args.path), loader: 'js' }
      })
      // mcp-server-without-ajv: only the Server's import; the SDK's client and anything else keep Ajv.
      b.onResolve({ filter: /^\.\.\/validation\/ajv-provider\.js$/ }, (args) => {
        if (!isIn(args.importer, '@modelcontextprotocol/sdk', 'dist/esm/server/index.js')) return undefined
        return { path: 'ajv-provider', namespace: 'svc-mcp-no-ajv' }
      })
      b.onLoad({ filter: /.*/, namespace: 'svc-mcp-no-ajv' }, () => ({
        contents: "export class AjvJsonSchemaValidator { constructor() { throw new Error('svc bundles the MCP Server without Ajv: pass jsonSchemaValidator (packaging/patches.js, mcp-server-without-ajv)') } }\n",
        loader: 'js',
      }))
      // conf-without-ajv: only conf's imports; anything else that imports ajv or semver keeps it.
      b.onResolve({ filter: /^(ajv\/dist\/2020\.js|ajv-formats|semver)$/ }, (args) => {
        if (!isIn(args.importer, 'conf', 'dist/source/index.js')) return undefined
        return { path: args.path, namespace: 'svc-conf-no-ajv' }
      })
      b.onLoad({ filter: /.*/, namespace: 'svc-conf-no-ajv' }, (args) => {
        const refuse = "throw new Error('svc bundles conf without ajv and semver: give conf no schema, rootSchema, ajvOptions or migrations (packaging/patches.js, conf-without-ajv)')"
        const stubs = {
          'ajv/dist/2020.js': `export class Ajv2020 { constructor() { ${refuse} } }`,
          'ajv-formats': `export default { default() { ${refuse} } }`,
          semver: `export default new Proxy({}, { get() { return () => { ${refuse} } } })`,
        }
        return { contents: `${stubs[args.path]}\n`, loader: 'js' }
      })
      // undici-h2-on-demand: connectH2, a function that requires client-h2.js at its first call.
      b.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/ }, (args) => {
        const src = readFileSync(args.path, 'utf8')
        // The require, and one call: anything else that reads connectH2 would need the module itself.
        if (src.split(UNDICI_H2_REQUIRE).length !== 2 || src.match(/\bconnectH2\b/g).length !== 2) fail('undici-h2-on-demand', `${args.path} no longer requires and calls its HTTP/2 half as expected`)
        const lazy = "let clientH2\nfunction connectH2 (client, socket) {\n  clientH2 ??= require('./client-h2.js')\n  return clientH2(client, socket)\n}"
        return { contents: src.replace(UNDICI_H2_REQUIRE, lazy), resolveDir: dirname(args.path), loader: 'js' }
      })
      // undici-agent-alone: `import { Agent } from 'undici'` in dist/lib/net/outbound.js.
      // A getter, so undici's Agent is evaluated when a client is first made, not when the chunk
      // that holds net/outbound.js loads (esbuild's interop reads the export at each use).
      b.onResolve({ filter: /^undici$/ }, (args) => {
        if (args.importer !== join(dist, 'lib', 'net', 'outbound.js')) return undefined
        return { path: 'undici', namespace: 'svc-undici-agent', pluginData: { dir: packageDir('undici', dirname(args.importer)) } }
      })
      b.onLoad({ filter: /.*/, namespace: 'svc-undici-agent' }, (args) => ({
        contents: "module.exports = { get Agent() { return require('./lib/dispatcher/agent.js') } }\n",
        resolveDir: args.pluginData.dir,
        loader: 'js',
      }))
    },
  }
}
