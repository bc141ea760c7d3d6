/**
 * The one accessor through which the bundle reads the package's own files (package.json, the
 * oclif manifests, fixtures/triggers/, what shell/completions.js reads). packaging/build-bundle.js
 * gives it, in place of node:fs, to the few modules that read them (see EMBEDDED_READERS there);
 * every other module keeps Node's fs untouched.
 *
 * In the npm package it is node:fs. In the single executable (dist-bin/svc) the package root is
 * `<dir of the binary>/.svc-sea/`, which is not on disk: a path under it is answered from the
 * binary's SEA assets (node:sea), keyed by its path from that root; any other path goes to fs.
 */
const fs = process.getBuiltinModule('node:fs')
const { dirname, join, sep } = process.getBuiltinModule('node:path')

/** The package root the single executable stands for (packaging/entries/sea-main.js uses the same). */
export function seaRoot() {
  return join(dirname(process.execPath), '.svc-sea')
}

let sea
/** node:sea and the root when this process is the single executable, else null. */
function embedded() {
  if (sea !== undefined) return sea
  const mod = process.getBuiltinModule('node:sea')
  sea = mod?.isSea() ? { mod, root: seaRoot() + sep } : null
  return sea
}

/** The asset key of `path` (a path or file URL) when it is under the SEA root, else undefined. */
function keyOf(path) {
  const s = embedded()
  if (!s) return undefined
  let p
  if (typeof path === 'string') p = path
  else if (path instanceof URL && path.protocol === 'file:') p = decodeURIComponent(path.pathname)
  else return undefined
  if (!p.startsWith(s.root)) return undefined
  return p.slice(s.root.length).split(sep).join('/')
}

/** Whether `path` names a file of the single executable's assets (then only this module can read it, not Node's loaders). */
export function isEmbedded(path) {
  return keyOf(path) !== undefined
}

/** The embedded file at `key` as text, or undefined when the binary has no such asset. */
function asset(key) {
  try {
    return sea.mod.getAsset(key, 'utf8')
  } catch {
    return undefined
  }
}

export function readFileSync(path, options) {
  const key = keyOf(path)
  const text = key === undefined ? undefined : asset(key)
  if (text === undefined) return fs.readFileSync(path, options)
  const encoding = typeof options === 'string' ? options : options?.encoding
  return encoding ? text : Buffer.from(text)
}

export function existsSync(path) {
  const key = keyOf(path)
  if (key !== undefined) {
    try {
      sea.mod.getRawAsset(key)
      return true
    } catch {
      // not embedded: the file system decides
    }
  }
  return fs.existsSync(path)
}

export default { readFileSync, existsSync }
