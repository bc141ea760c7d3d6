// loadView() loads Ink with throttle's own module instead of the es-toolkit/compat barrel.
import { registerHooks } from 'node:module'
import { describe, expect, it } from 'vitest'
import { loadView } from '../../../src/lib/tui/load-view.js'

describe('loadView', () => {
  it("points Ink's es-toolkit/compat import at throttle's module, and Ink works", async () => {
    const resolved: string[] = []
    let observer: { deregister(): void } | undefined
    const ink = await loadView(() => {
      // Registered after loadView's hook, so it sees what that hook answered.
      observer = registerHooks({
        resolve(specifier, context, next) {
          const r = next(specifier, context)
          if (r.url.includes('/es-toolkit/')) resolved.push(r.url)
          return r
        },
      })
      return import('ink')
    })
    observer?.deregister()
    expect(typeof ink.render).toBe('function')
    expect(resolved.some((u) => u.endsWith('/dist/compat/function/throttle.mjs'))).toBe(true)
    expect(resolved.filter((u) => u.endsWith('/dist/compat/index.mjs'))).toEqual([])
  })
})
