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
  ['contract', 'domain', 'errors', 'next-step', 'generated'],
  ['output', 'input', 'net'],
  ['config'],
  ['api'],
  ['charges', 'webhooks', 'sandbox', 'sandbox-client', 'scenarios', 'relay'],
  ['tui'],
  ['services'],
  ['command-kit', 'mcp'],
  ['commands', 'hooks', 'public', 'entry'],
]

/**
 * The board's "never" rules (shared/architecture.json), room by room. The layers above imply most
 * of them; these also hold the ones within a layer or pointing down that the layers allow: the
 * sandbox never uses the client it exists to test, the listener never the sandbox, and so on.
 */
const NEVER: readonly (readonly [from: string, to: string, why: string])[] = [
  ...(['api', 'sandbox', 'webhooks', 'tui', 'commands', 'output', 'input', 'net'] as const).map((to) => ['domain', to, 'the domain is pure'] as const),
  ...(['api', 'sandbox', 'webhooks', 'tui'] as const).map((from) => [from, 'commands', 'lib never reaches up into commands'] as const),
  ['sandbox', 'api', 'the emulator must not depend on the client it tests'],
  ['sandbox', 'tui', 'the server has no screen'],
  ['api', 'tui', 'the client has no screen'],
  ['webhooks', 'sandbox', 'the listener must work against the real service'],
  ...(['api', 'sandbox', 'commands'] as const).map((to) => ['contract', to, 'the contract is the spec, no I/O'] as const),
  ['webhooks', 'tui', 'the machinery has no screen; a service hands it the view'],
  ['sandbox', 'sandbox-client', 'the server never depends on its own client'],
  ['services', 'commands', 'use-cases never reach up into commands'],
  ['public', 'commands', 'the library never loads oclif commands'],
  ['public', 'tui', 'the library has no screen'],
  ['net', 'api', 'the wire helper knows no API'],
  ['net', 'sandbox', 'the wire helper knows no sandbox'],
  ['sandbox', 'services', 'the emulator knows no use-case'],
  ['webhooks', 'services', 'machinery never reaches up'],
  ['tui', 'services', 'views get their feed handed in'],
  // `svc mcp` is another front door, not another house: it maps tools to the use-cases the
  // commands call, knows no terminal and no oclif, and nothing below it knows it exists.
  ['mcp', 'commands', 'the MCP server maps tools to use-cases, never to oclif commands'],
  ['mcp', 'command-kit', 'the MCP server has no flags and no oclif base command'],
  ['mcp', 'tui', 'the MCP server has no screen'],
  ['mcp', 'output', 'stdout is the protocol: the MCP server writes no terminal output'],
  ['mcp', 'input', 'stdin is the protocol: the MCP server asks no questions and reads no files the user names'],
  ['mcp', 'sandbox', 'the MCP server drives a running sandbox through its panel client, never its server code'],
  ['services', 'mcp', 'use-cases never know the MCP server exists'],
  ['command-kit', 'mcp', 'the command base never knows the MCP server exists'],
  // `svc relay` faces the internet: it shares only the contract, the one verifier and the wire
  // helpers. The listener reaches it only through the wire (contract/relay-stream.ts).
  ...(['sandbox', 'tui', 'commands', 'services', 'mcp', 'api', 'sandbox-client', 'command-kit'] as const).map((to) => ['relay', to, 'the relay is its own server: contract, the verifier and net only'] as const),
  ['sandbox', 'relay', 'the emulator knows no relay'],
  ['webhooks', 'relay', 'the listener reaches a relay only through the wire contract'],
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
    for (const m of text.matchAll(/(?:from|import\(|^import)\s*'(\.{1,2}\/[^']+)'/gm)) {
      const target = resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts')
      if (!target.startsWith(SRC)) continue
      const from = roomOf(file)
      const to = roomOf(target)
      if (from !== to) out.push({ from, to, file: relative(SRC, file), spec: m[1]! })
    }
  }
  return out
}

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

  it('breaks none of the board\'s "never" rules', () => {
    const broken = all.flatMap((e) => NEVER.filter(([from, to]) => e.from === from && e.to === to).map(([, , why]) => `${e.file} (${e.from}) → ${e.spec} (${e.to}): ${why}`))
    expect(broken).toEqual([])
  })

  it('names only rooms that exist in its "never" rules (a renamed room cannot silently drop a rule)', () => {
    const rooms = new Set(files(SRC).map(roomOf))
    const unknown = [...NEVER.map(([from]) => from), ...NEVER.map(([, to]) => to)].filter((r) => !rooms.has(r))
    expect([...new Set(unknown)]).toEqual([])
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

/**
 * Inside the sandbox (src/lib/sandbox/<room>/, issue 33): the store keeps, the engine decides,
 * deliveries send, http/ and web/ are the faces, sandbox.ts assembles them. types.ts and
 * api-error.ts at its root are the shared vocabulary.
 */
const SANDBOX = join(SRC, 'lib/sandbox')
const SANDBOX_NEVER: readonly (readonly [from: string, to: string, why: string])[] = [
  ...(['engine', 'deliveries', 'faults', 'http', 'web', 'state'] as const).map((to) => ['store', to, 'the store keeps; it knows no behaviour'] as const),
  ...(['deliveries', 'faults', 'http', 'web', 'state'] as const).map((to) => ['engine', to, 'the engine speaks no HTTP and sends through the sink it is handed'] as const),
  ...(['faults', 'http', 'web'] as const).map((to) => ['deliveries', to, 'the worker knows no face'] as const),
  ...(['web', 'deliveries', 'faults'] as const).map((to) => ['http', to, 'the API is handed the panel and the worker'] as const),
  ...(['store', 'engine', 'deliveries', 'faults', 'http', 'web', 'state'] as const).map((from) => [from, 'sandbox', 'only the assembly wires the rooms'] as const),
]

function sandboxRoomOf(file: string): string {
  const rel = relative(SANDBOX, file).split('/')
  return rel.length > 1 ? rel[0]! : rel[0]!.replace(/\.tsx?$/, '')
}

describe("the sandbox's rooms", () => {
  it('breaks none of their "never" rules', () => {
    const broken: string[] = []
    for (const file of files(SANDBOX)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import\(|^import)\s*'(\.{1,2}\/[^']+)'/gm)) {
        const target = resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts')
        if (!target.startsWith(`${SANDBOX}/`)) continue
        const from = sandboxRoomOf(file)
        const to = sandboxRoomOf(target)
        for (const [f, t, why] of SANDBOX_NEVER) if (f === from && t === to) broken.push(`${relative(SRC, file)} → ${m[1]}: ${why}`)
      }
    }
    expect(broken).toEqual([])
  })

  it('names only rooms that exist', () => {
    const rooms = new Set(files(SANDBOX).map(sandboxRoomOf))
    expect([...new Set([...SANDBOX_NEVER.map(([f]) => f), ...SANDBOX_NEVER.map(([, t]) => t)].filter((r) => !rooms.has(r)))]).toEqual([])
  })
})

/**
 * Commands stay thin (issue 40.10): a command file is a door. It declares its flags and help,
 * maps them to one use-case (services/, charges/) and hands the result to a view (output/) or to
 * the base command's printers (command-kit/). The machinery it drives (the sandbox server, the
 * listener's store and forwarder, the relay, the raw API client) is reached through those rooms,
 * never imported by the door itself: then a second door (MCP, the relay) reuses the use-case
 * instead of copying the command.
 *
 * The budget, 120 lines a file: help text is the contract's prose and takes 20 to 45 lines,
 * flags 10 to 25, a run() that maps flags to a use-case and a render 30 to 50; 120 holds every
 * command but three of 2026-11, and a command past it is doing a use-case's work. Today's
 * exceptions are named below with their reason and a ceiling (their size, rounded up), and a
 * stale one fails too, so the list only shrinks.
 */
const COMMANDS = join(SRC, 'commands')
const COMMAND_LINES = 120

/** Rooms of src/lib any command may import (besides the ones below). */
const COMMAND_ROOMS = new Set([
  'command-kit', // the base command, shared flags, the clients' makers
  'services', // use-cases
  'charges', // the charges' typed inputs, ids and list views (their use-cases are in services/)
  'output', // views and the printers
  'contract', // the spec's types
  'domain', // pure rules
  'errors', // the typed errors every door maps to exit codes
  'input', // what the user typed, piped or named: reading it is the door's own job
  'sandbox-client', // the panel's client and its views, what command-kit/sandbox-panel.ts hands a command
])

/** Single files of other rooms any command may import, each a door's own concern. */
const COMMAND_FILES: Readonly<Record<string, string>> = {
  'config/mask.ts': 'the one masker, to show a secret the user just typed or made',
  'config/profiles.ts': 'the profile store is what login, logout and profiles open and close',
  'config/profile-view.ts': "the profiles' view, beside the profiles' type (README: a view lives beside its data)",
}

/** Files of those rooms no command imports: the base command and the list printer use them. */
const COMMAND_NEVER_FILES: Readonly<Record<string, string>> = {
  'output/csv.ts': 'CSV is written by the one list printer (printList, csvList), with the shared --csv flags',
}

/** Today's exceptions: a command, a lib file it may still import, and why (what would remove it). */
const COMMAND_IMPORT_EXCEPTIONS: ReadonlyArray<readonly [command: string, lib: string, why: string]> = [
  ...(['account.ts', 'status.ts', 'sandbox/start.ts', 'webhooks/listen.ts'] as const).map((c) => [c, 'net/loopback.ts', 'isLoopbackHost(new URL(…).hostname) four times: issue 40.9 makes it one helper'] as const),
  ['api.ts', 'api/raw-input.ts', '`svc api` is the raw door onto the client; its request reader has no use-case yet'],
  ['completion.ts', 'api/raw-input.ts', "completes `svc api`'s methods from the list the raw door accepts"],
  ['mcp.ts', 'mcp/launch.ts', 'the other front door: `svc mcp` only starts it (issue 40.4 drops its second flag parser)'],
  ['webhooks/check.ts', 'webhooks/check/check-view.ts', "a view lives beside the data it shows (README, Rooms and layers): the check's report, in webhooks/check/"],
  ['fixtures/run.ts', 'scenarios/fixture.ts', 'the fixture runner has no use-case in services/ yet'],
  ['trigger.ts', 'scenarios/fixture.ts', 'the scenario runner has no use-case in services/ yet'],
  ['trigger.ts', 'scenarios/builtin.ts', 'the built-in scenarios are listed by the command itself'],
  ['sandbox/export.ts', 'config/private-file.ts', 'writes a secret file itself: issue 40.5 gives every secret file one way'],
  ...(['webhooks/check.ts', 'webhooks/listen.ts', 'webhooks/replay.ts', 'webhooks/verify.ts'] as const).map(
    (c) => [c, 'config/resolve.ts', "reads the webhook secret's source (flag, env, profile) itself: a use-case would"] as const,
  ),
  ['webhooks/check.ts', 'webhooks/check/endpoint.ts', 'the endpoint check has no use-case in services/ yet'],
  ['webhooks/events.ts', 'webhooks/events-view.ts', "a view lives beside its data (README): the event log's, in webhooks/"],
  ['webhooks/listen.ts', 'webhooks/event-filter.ts', 'parses --events itself: services/ listens with a typed filter (issue 40.1)'],
  ['webhooks/listen.ts', 'webhooks/forward.ts', 'parses --forward routes itself (issue 40.1)'],
  ['webhooks/replay.ts', 'webhooks/forward.ts', 'parses --to itself (issue 40.1)'],
  ['webhooks/replay.ts', 'webhooks/replay.ts', 'the replay has no use-case in services/ yet'],
  ['webhooks/verify.ts', 'webhooks/signature.ts', 'verifies a signature itself: the one verifier, with no use-case around it'],
]

/** Commands over the budget today, each with a ceiling it may not pass. */
const COMMAND_SIZE_EXCEPTIONS: Readonly<Record<string, readonly [ceiling: number, why: string]>> = {
  'sandbox/start.ts': [165, "its flags' help is long (faults, seeds, takeover), and it runs a server: a foreground run, the --detach parent and child in one command"],
  'webhooks/listen.ts': [140, "its help holds the listener's contract with and without a relay (CLI.md 0.5), 45 lines of text; the work is in services/listen*.ts"],
  'pix/decode.ts': [130, 'reads a code from argv, stdin or a paste and renders its own view: the view belongs in output/'],
}

/**
 * Commands that call JSON.stringify: output goes through the base (printJson, printJsonLine) or the
 * one list printer (output/list-printer.ts), so a new format is written once. Issue 40.3 allows 4.
 */
const COMMAND_JSON_EXCEPTIONS: Readonly<Record<string, string>> = {
  'sandbox/export.ts': "the export is a file format (indented, the same on a terminal and in a file), not the command's result",
  'withdrawals/get.ts': 'quotes the id the user typed in an error message, no output',
}

function commandImports(file: string): string[] {
  const out: string[] = []
  for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import\(|^import)\s*'(\.{1,2}\/[^']+)'/gm)) {
    const target = resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts')
    if (target.startsWith(join(SRC, 'lib/'))) out.push(relative(join(SRC, 'lib'), target))
  }
  return out
}

describe('commands stay thin', () => {
  const commands = files(COMMANDS).map((f) => [relative(COMMANDS, f), f] as const)

  it(`import only use-cases, views and the command kit (plus the exceptions named here)`, () => {
    const found: string[] = []
    for (const [name, file] of commands)
      for (const lib of commandImports(file)) {
        const room = lib.includes('/') ? lib.split('/')[0]! : lib.replace(/\.ts$/, '')
        if (COMMAND_NEVER_FILES[lib]) {
          found.push(`commands/${name} → lib/${lib}: ${COMMAND_NEVER_FILES[lib]}`)
          continue
        }
        if (COMMAND_ROOMS.has(room) || COMMAND_FILES[lib]) continue
        if (COMMAND_IMPORT_EXCEPTIONS.some(([c, l]) => c === name && l === lib)) continue
        found.push(`commands/${name} → lib/${lib}: reach it through a use-case in services/ (or name the exception and why)`)
      }
    expect(found).toEqual([])
  })

  it('lists no import exception that is no longer needed', () => {
    const imports = new Map(commands.map(([name, file]) => [name, new Set(commandImports(file))]))
    const stale = COMMAND_IMPORT_EXCEPTIONS.filter(([c, l]) => !imports.get(c)?.has(l)).map(([c, l]) => `${c} → ${l}`)
    expect(stale).toEqual([])
  })

  it(`are at most ${COMMAND_LINES} lines, or under the ceiling of a named exception`, () => {
    const fat = commands.flatMap(([name, file]) => {
      const lines = readFileSync(file, 'utf8').split('\n').length - 1
      const [ceiling] = COMMAND_SIZE_EXCEPTIONS[name] ?? [COMMAND_LINES]
      return lines > ceiling ? [`commands/${name}: ${lines} lines, over ${ceiling}: move the work into a use-case or a view`] : []
    })
    expect(fat).toEqual([])
  })

  it('write no JSON by hand (the base and the list printer do), but the exceptions named here', () => {
    const hand = commands.filter(([name, file]) => !COMMAND_JSON_EXCEPTIONS[name] && readFileSync(file, 'utf8').includes('JSON.stringify')).map(([name]) => `commands/${name}`)
    expect(hand).toEqual([])
    const stale = Object.keys(COMMAND_JSON_EXCEPTIONS).filter((name) => !readFileSync(join(COMMANDS, name), 'utf8').includes('JSON.stringify'))
    expect(stale).toEqual([])
    expect(Object.keys(COMMAND_JSON_EXCEPTIONS).length).toBeLessThanOrEqual(4)
  })

  it("read no clock of the machine's: now is the run's factory's (`this.now()`), so a test's clock reaches every timestamp", () => {
    const clocked = commands.filter(([, file]) => /new Date\(\)|Date\.now\(\)/.test(readFileSync(file, 'utf8'))).map(([name]) => `commands/${name}`)
    expect(clocked).toEqual([])
  })

  it('lists no size exception that now fits the budget', () => {
    const sizes = new Map(commands.map(([name, file]) => [name, readFileSync(file, 'utf8').split('\n').length - 1]))
    const stale = Object.keys(COMMAND_SIZE_EXCEPTIONS).filter((name) => (sizes.get(name) ?? 0) <= COMMAND_LINES)
    expect(stale).toEqual([])
  })
})

/**
 * The stored profiles are one of the run's factory's members (issue 40.6): a use-case gets them
 * handed in (`openProfiles`), so a test gives its own and a run opens the file once. Only the
 * factory opens them, and config/ itself (the store, and what it says about itself).
 */
const PROFILE_OPENERS = new Set(['lib/command-kit/factory.ts'])

describe('the stored profiles', () => {
  it("are opened (ProfileStore.open) only by the run's factory and by config/ itself", () => {
    const openers = files(SRC)
      .map((f) => relative(SRC, f))
      .filter((f) => !f.startsWith('lib/config/') && !PROFILE_OPENERS.has(f))
      .filter((f) => /ProfileStore\s*\.\s*open\s*\(/.test(readFileSync(join(SRC, f), 'utf8')))
    expect(openers).toEqual([])
  })
})
