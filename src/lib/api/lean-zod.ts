/**
 * zod's entry re-exports every locale as `z.locales` (a barrel of dozens of modules, loaded by every API
 * command's start), while zod itself uses English alone, imported directly. Before the API client
 * first loads zod, that barrel is pointed at a module exporting only `en`. Nothing in svc reads
 * z.locales; test/lib/api/lean-zod.test.ts fails if that changes or if zod starts to use the
 * barrel itself. The resolve hook is registered here, late, because once a hook is in place every
 * module resolution of the process goes through it.
 */
import { registerHooks } from 'node:module'

const BARREL = '/zod/v4/locales/index.js'
let registered = false

export function leanZod(): void {
  if (registered) return
  registered = true
  // Node < 22.15 has no registerHooks: zod then loads every locale, only slower.
  registerHooks?.({
    resolve(specifier, context, next) {
      const resolved = next(specifier, context)
      if (!resolved.url.endsWith(BARREL)) return resolved
      const en = new URL('./en.js', resolved.url).href
      return { ...resolved, url: `data:text/javascript,export { default as en } from ${JSON.stringify(en)}` }
    },
  })
}
