/**
 * The import picture of src/: every folder of src/lib sits on a layer, and an import may only
 * point to the same layer or one below it. This keeps the rooms of the README's architecture
 * paragraph honest as code is added: a view cannot reach into a use-case, the sandbox cannot
 * reach the client it exists to test, and no two folders import each other.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = resolve(import.meta.dirname, '../../src')

/** Lowest first. A folder imports only from its own layer or lower ones. */
const LAYERS: readonly (readonly string[])[] = [
  ['contract', 'domain', 'errors', 'generated'],
  ['output', 'net'],
  ['config'],
  ['api'],
  ['charges', 'webhooks', 'sandbox', 'sandbox-client', 'scenarios'],
  ['tui'],
  ['services'],
  ['command-kit', 'mcp'],
  ['commands', 'hooks', 'public', 'entry'],
]

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return files(p)
    return /\.tsx?$/.test(name) ? [p] : []
  })
}

/** The room a file lives in: the folder under src/lib, or a name for the files around it. */
function roomOf(file: string): string {
  const rel = relative(SRC, file).split('/')
  if (rel[0] === 'lib') return rel.length > 2 ? rel[1]! : rel[1]!.replace(/\.tsx?$/, '')
  if (rel[0] === 'commands' || rel[0] === 'hooks' || rel[0] === 'public') return rel[0]
  return 'entry'
}

function layerOf(room: string): number {
  const i = LAYERS.findIndex((l) => l.includes(room))
  if (i < 0) throw new Error(`src room "${room}" is on no layer: add it to LAYERS in ${relative(process.cwd(), import.meta.filename)}`)
  return i
}

interface Edge {
  from: string
  to: string
  file: string
  spec: string
}

function edges(): Edge[] {
  const out: Edge[] = []
  for (const file of files(SRC)) {
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) {
      const target = resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts')
      if (!target.startsWith(SRC)) continue
      const from = roomOf(file)
      const to = roomOf(target)
      if (from !== to) out.push({ from, to, file: relative(SRC, file), spec: m[1]! })
    }
  }
  return out
}

/**
 * Arrows that the layers alone would allow but that must never exist. `svc mcp` is another front
 * door, not another house: it maps tools to the use-cases the commands call, knows no terminal
 * and no oclif, and nothing below it knows it exists (DESIGN.md, "Where 0.4 goes").
 */
const NEVER: ReadonlyArray<readonly [from: string, to: string, why: string]> = [
  ['mcp', 'commands', 'the MCP server maps tools to use-cases, never to oclif commands'],
  ['mcp', 'command-kit', 'the MCP server has no flags and no oclif base command'],
  ['mcp', 'tui', 'the MCP server has no screen'],
  ['mcp', 'output', 'stdout is the protocol: the MCP server writes no terminal output'],
  ['mcp', 'sandbox', 'the MCP server drives a running sandbox through its panel client, never its server code'],
  ['services', 'mcp', 'use-cases never know the MCP server exists'],
  ['command-kit', 'mcp', 'the command base never knows the MCP server exists'],
]

/** Packages a room must never import directly. */
const NEVER_PACKAGES: ReadonlyArray<readonly [room: string, pkg: RegExp, why: string]> = [
  ['mcp', /^(undici|node:https?|@oclif\/|ink|react)(\/|$)/, 'the MCP server has no HTTP of its own (the API and panel clients do it) and no terminal'],
]

describe('the import picture of src/', () => {
  const all = edges()

  it('has no arrow from a lower layer to a higher one', () => {
    const upward = all.filter((e) => layerOf(e.from) < layerOf(e.to)).map((e) => `${e.file} (${e.from}) → ${e.spec} (${e.to})`)
    expect(upward).toEqual([])
  })

  it('has none of the arrows that must never exist', () => {
    const found = all.filter((e) => NEVER.some(([from, to]) => e.from === from && e.to === to)).map((e) => `${e.file} (${e.from}) → ${e.spec} (${e.to})`)
    expect(found).toEqual([])
    const rooms = new Set(files(SRC).map(roomOf))
    for (const [from, to] of NEVER) expect({ from, to, known: rooms.has(from) && rooms.has(to) }).toEqual({ from, to, known: true })
  })

  it('has no room importing a package it must never use', () => {
    const found: string[] = []
    for (const file of files(SRC)) {
      const room = roomOf(file)
      for (const [r, pkg] of NEVER_PACKAGES) {
        if (r !== room) continue
        for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'([^.'][^']*)'/g)) if (pkg.test(m[1]!)) found.push(`${relative(SRC, file)} → ${m[1]}`)
      }
    }
    expect(found).toEqual([])
  })

  it('has no two rooms importing each other', () => {
    const pairs = new Set(all.map((e) => `${e.from}→${e.to}`))
    const loops = [...pairs].filter((p) => {
      const [a, b] = p.split('→')
      return pairs.has(`${b}→${a}`)
    })
    expect(loops).toEqual([])
  })
})
