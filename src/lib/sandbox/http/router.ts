/**
 * The sandbox's one router: a table of `{ method, pattern, handler }`, used by the API (`/v1/…`),
 * the panel API (`/_sandbox/…`) and the web panel (`/panel/…`). Adding a route is one line in a
 * table.
 *
 * A pattern is a path whose `:name` segments capture one segment each (`/v1/charges/:id/cancel`),
 * optionally constrained by a regular expression in parentheses (`/qr/:id([0-9a-f]{24}).png`).
 * Captured segments are passed as they came (still percent-encoded): decoding is the handler's
 * (a malformed escape names nothing, which each surface answers in its own words).
 *
 * `match` tells three cases apart: a route (with its params), a path that exists for other
 * methods (with the methods it allows: HEAD wherever GET, OPTIONS everywhere, RFC 9110), and no
 * such path. What each surface answers to the last two is its own (JSON errors or HTML pages).
 * HEAD is answered by the GET route unless the table says `headAsGet: false` (the panel API has
 * no HEAD: it answers only the methods it lists).
 */

export interface Route<H> {
  method: string
  pattern: string
  handler: H
}

export type Match<H> =
  | { route: Route<H>; params: Record<string, string> }
  /** The path exists, not with this method. */
  | { allow: string[] }
  /** No route has this path. */
  | undefined

interface Compiled<H> {
  route: Route<H>
  regex: RegExp
  names: string[]
}

const PARAM = /:(\w+)(?:\(([^)]*)\))?/g

export function compilePattern(pattern: string): { regex: RegExp; names: string[] } {
  const names: string[] = []
  let source = ''
  let last = 0
  for (const m of pattern.matchAll(PARAM)) {
    source += escapeRegex(pattern.slice(last, m.index)) + `(${m[2] ?? '[^/]+'})`
    names.push(m[1]!)
    last = m.index + m[0].length
  }
  source += escapeRegex(pattern.slice(last))
  return { regex: new RegExp(`^${source}$`), names }
}

function escapeRegex(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

export class Router<H> {
  private readonly compiled: Compiled<H>[]

  private readonly headAsGet: boolean

  constructor(routes: ReadonlyArray<Route<H>>, opts: { headAsGet?: boolean } = {}) {
    this.compiled = routes.map((route) => ({ route, ...compilePattern(route.pattern) }))
    this.headAsGet = opts.headAsGet ?? true
  }

  /** HEAD is matched as GET (node sends the answer without its body), unless `headAsGet` is false. */
  match(method: string, path: string): Match<H> {
    const wanted = method === 'HEAD' && this.headAsGet ? 'GET' : method
    let methods: string[] | undefined
    for (const c of this.compiled) {
      const m = c.regex.exec(path)
      if (!m) continue
      if (c.route.method === wanted) {
        const params: Record<string, string> = {}
        for (const [i, name] of c.names.entries()) params[name] = m[i + 1]!
        return { route: c.route, params }
      }
      ;(methods ??= []).push(c.route.method)
    }
    return methods && { allow: this.allowList(methods) }
  }

  /** The methods a path answers (HEAD wherever GET, OPTIONS everywhere), or undefined when there is no such path. */
  allowed(path: string): string[] | undefined {
    const methods = this.compiled.filter((c) => c.regex.test(path)).map((c) => c.route.method)
    return methods.length ? this.allowList(methods) : undefined
  }

  private allowList(methods: string[]): string[] {
    const unique = [...new Set(methods)]
    return unique.includes('GET') && this.headAsGet && !unique.includes('HEAD') ? [...unique, 'HEAD', 'OPTIONS'] : [...unique, 'OPTIONS']
  }
}
