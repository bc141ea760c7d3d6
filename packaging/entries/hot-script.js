/**
 * The scripts of the bundle that a command runs (dist-bundle/oclif.cjs: oclif, and undici.cjs:
 * undici's Agent, each one CommonJS script), loaded with a V8 code cache made after a run (issue 39.1).
 *
 * Node's compile cache keeps the code V8 compiles when a module is first compiled: the module's
 * top level, not the functions compiled while it runs, so every start compiles again the hundreds
 * of functions a command calls (oclif's Config, parser, Command). `vm.Script#createCachedData`
 * made after a run holds those too, and it is the one way Node offers without flags, for a
 * classic script: so the bundle builds oclif and undici as such, and this loads them. At the end of the first
 * run of each command, the cache is made again from the script as it is then: what earlier runs
 * compiled (the cache they left) and what this one did. The command is the one the entry names
 * (ranCommand: cli.js once oclif has found it, mcp.js for its own server), by its id: a run that
 * names none (help, a mistyped command) makes no cache, and nothing of argv is written (its words
 * may hold a key or a path), so the cache is made again at most once per command and build.
 *
 * The cache lives beside Node's own compile cache (module.getCompileCacheDir(), which bin/run.js
 * and the single executable turn on), in a file named for the Node version, the architecture, the
 * script's content (the hash the build computed) and, for a script on disk, its
 * size and modification time (an edit in place names another cache); V8 also refuses a cache made
 * by another V8 or other flags. The three most recent caches of a script are kept in that
 * directory, so that two installs of svc used in turn each keep theirs, and older builds' go. A
 * directory or a file not owned by this user is not read (a cache is code), a cache is written
 * through a new file of its own (never one that exists, or a link planted there), and anything that
 * fails (no compile cache, a read-only directory, a cache V8 rejects) only means the script
 * compiles as it would without one.
 *
 * A headless long-running server (servers.js) takes the script as a plain CommonJS module instead, through
 * Node's own loader and compile cache: a code cache only pays at start-up, and the listener run
 * through vm.Script answered 0.976× the deliveries per second of the previous build at 1.026× the
 * CPU per delivery (medians of 8 alternating rounds), where through require it is 1.005× / 0.998×.
 * `webhooks listen` with its live view is not headless: its first frame is a start-up target.
 * The single executable, whose scripts Node's loader cannot read, runs them through vm.Script always.
 */
import { isEmbedded, readFileSync } from './embedded-fs.js'
import { headlessServer } from './servers.js'

const fs = process.getBuiltinModule('node:fs')
const vm = process.getBuiltinModule('node:vm')
const { createRequire, getCompileCacheDir } = process.getBuiltinModule('node:module')
const { dirname, join } = process.getBuiltinModule('node:path')
const { fileURLToPath } = process.getBuiltinModule('node:url')

/**
 * Runs dist-bundle/`name` (a CommonJS script) once and returns its exports. `hash`: the script's
 * content hash, from the build. `cacheDir` and `argv` are the process's; they are parameters so
 * that tests can give their own.
 */
export function loadHotScript(name, { hash, dir = fileURLToPath(new URL('.', import.meta.url)), cacheDir = getCompileCacheDir?.(), argv = process.argv.slice(2) } = {}) {
  const filename = join(dir, name)
  if (headlessServer(argv) && !isEmbedded(filename)) return createRequire(filename)(filename)
  const source = readFileSync(filename, 'utf8')
  const cache = cacheDir ? cacheFiles(cacheDir, name, filename, hash) : undefined
  const cachedData = cache ? readOwn(cache.data) : undefined
  // The script's source on one line with the wrapper's head: line numbers in stack traces stay the
  // file's. Strict, as the modules it bundles are and as the bundle's ES-module chunks ran them: a
  // sloppy wrapper cost undici ~7 % more CPU per request (mapped arguments objects).
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {"use strict";${source}\n})`, {
    filename,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  })
  const module = { exports: {} }
  script.runInThisContext()(module.exports, createRequire(filename), module, filename, dirname(filename))
  if (cache) {
    const runs = (cachedData && !script.cachedDataRejected && readRuns(cache.runs)) || []
    process.once('exit', () => {
      if (ran !== undefined && !runs.includes(ran)) saveCache(script, cache, [...runs, ran])
    })
  }
  return module.exports
}

/** The id of the command this process runs, once the entry knows it (ranCommand); undefined: none. */
let ran

/** Names the command this process runs (an oclif id, e.g. `charges:get`): its exit may then make the caches again. */
export function ranCommand(id) {
  ran = id
}

function cacheFiles(cacheDir, name, filename, content) {
  let identity = ''
  try {
    if (!ownedByMe(fs.statSync(cacheDir))) return undefined
    if (!isEmbedded(filename)) {
      const stat = fs.statSync(filename)
      identity = `-${stat.size.toString(36)}-${Math.trunc(stat.mtimeMs).toString(36)}`
    }
  } catch {
    return undefined
  }
  const prefix = `svc-${name}-${process.version}-${process.arch}-`
  const base = join(cacheDir, `${prefix}${content}${identity}`)
  return { dir: cacheDir, prefix, data: `${base}.cache`, runs: `${base}.runs.json` }
}

/** How many caches of one script a directory keeps (the most recently written). */
const KEPT = 3

function ownedByMe(stat) {
  return typeof process.getuid !== 'function' || stat.uid === process.getuid()
}

function readOwn(path) {
  try {
    const fd = fs.openSync(path, 'r')
    try {
      return ownedByMe(fs.fstatSync(fd)) ? fs.readFileSync(fd) : undefined
    } finally {
      fs.closeSync(fd)
    }
  } catch {
    return undefined
  }
}

function readRuns(path) {
  try {
    const runs = JSON.parse(readOwn(path)?.toString('utf8') ?? 'null')
    return Array.isArray(runs) ? runs : undefined
  } catch {
    return undefined
  }
}

/** Writes the cache and the runs it holds, each through a temporary file and a rename; any failure leaves things as they were. */
function saveCache(script, cache, runs) {
  const write = (path, data) => {
    const tmp = `${path}.${process.pid}.tmp`
    try {
      // wx: created here, or not at all (a file or a link already at that name is never written through).
      fs.writeFileSync(tmp, data, { mode: 0o600, flag: 'wx' })
      fs.renameSync(tmp, path)
    } catch {
      try {
        fs.rmSync(tmp, { force: true })
      } catch {
        // nothing to clean
      }
    }
  }
  try {
    write(cache.data, script.createCachedData())
    write(cache.runs, JSON.stringify(runs))
    prune(cache)
  } catch {
    // no cache this time
  }
}

/** Removes the caches of this script beyond the KEPT most recently written (other builds', other installs'). */
function prune(cache) {
  const caches = fs
    .readdirSync(cache.dir)
    .filter((f) => f.startsWith(cache.prefix) && f.endsWith('.cache'))
    .map((f) => ({ f, at: fs.statSync(join(cache.dir, f)).mtimeMs }))
    .sort((a, b) => b.at - a.at)
  for (const { f } of caches.slice(KEPT)) {
    for (const path of [join(cache.dir, f), join(cache.dir, `${f.slice(0, -'.cache'.length)}.runs.json`)]) fs.rmSync(path, { force: true })
  }
}
