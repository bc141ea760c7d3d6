/**
 * Loads a live view's module (Ink, React, Yoga and the components) a little lighter: Ink takes
 * only `throttle` from the es-toolkit/compat barrel, which loads hundreds of modules (most of the
 * first frame), so that one import is pointed at the module that defines throttle. The resolve
 * hook is registered here, just before the view is needed, and not at start-up: with a hook in
 * place every module resolution of the process goes through it.
 * test/lib/tui/ink-imports.test.ts fails if an Ink upgrade takes anything else from there.
 */
import { registerHooks } from 'node:module'

const BARREL = /\/dist\/compat\/index\.mjs$/
let registered = false

function lightenInk(): void {
  if (registered) return
  registered = true
  // Node < 22.15 has no registerHooks: the view then loads the barrel, only slower.
  registerHooks?.({
    resolve(specifier, context, next) {
      const resolved = next(specifier, context)
      if (specifier !== 'es-toolkit/compat' || !context.parentURL?.endsWith('/node_modules/ink/build/ink.js')) return resolved
      return { ...resolved, url: resolved.url.replace(BARREL, '/dist/compat/function/throttle.mjs') }
    },
  })
}

/**
 * `load` is the view's `import()`; call this before anything else imports Ink. React and its
 * reconciler pick their development build (twice the code, extra checks on every render) unless
 * NODE_ENV says production: the development build doubles the work of the first frame. A NODE_ENV the user set is left alone
 * here; the bundle (scripts/build-bundle.js) carries the production build alone.
 */
export function loadView<T>(load: () => Promise<T>): Promise<T> {
  lightenInk()
  process.env.NODE_ENV ??= 'production'
  return load()
}

