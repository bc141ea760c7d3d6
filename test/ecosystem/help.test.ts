// `--help` answers the question: every command has a summary, a description, realistic examples
// that only use flags it really has, and a description on every flag and argument.
import { beforeAll, describe, expect, it } from 'vitest'
import { allFlags, type LoadedCommand, loadCommands } from '../helpers/commands.js'

const BIN = '<%= config.bin %>'
let commands: LoadedCommand[] = []

beforeAll(async () => {
  commands = await loadCommands()
})

const exampleText = (e: string | { command: string }) => (typeof e === 'string' ? e : e.command)

/** Each `svc …` invocation in an example (pipelines and `$(…)` hold several): the command id and its words. */
function invocations(example: string, ids: Set<string>): Array<{ id: string | undefined; words: string[] }> {
  const substitutions: string[] = []
  const outer = example.replace(/\$\(([^()]*)\)/g, (_, inner: string) => {
    substitutions.push(inner)
    return 'VALUE'
  })
  return [outer, ...substitutions]
    .flatMap((text) => text.split(/\||;|&&/))
    .filter((segment) => segment.includes(BIN))
    .map((segment) => {
      const own = segment.slice(segment.indexOf(BIN) + BIN.length).split(/\s[12]?>|\s</)[0]!
      const words = own.match(/"[^"]*"|'[^']*'|\S+/g) ?? []
      let id: string | undefined
      let used = 0
      for (let n = 1; n <= words.length; n++) {
        const candidate = words.slice(0, n).join(':')
        if (ids.has(candidate)) [id, used] = [candidate, n]
      }
      return { id, words: words.slice(used) }
    })
}

/** Flags an invocation uses that the command does not have. */
function unknownFlags(words: string[], command: LoadedCommand['command']): string[] {
  const flags = allFlags(command)
  const long = new Set(Object.entries(flags).flatMap(([name, f]) => [name, ...(f.allowNo ? [`no-${name}`] : [])]))
  const short = new Set(
    Object.values(flags)
      .map((f) => f.char)
      .filter(Boolean),
  )
  return words.filter((w) => {
    if (w.startsWith('--')) return !long.has(w.slice(2).split('=')[0]!)
    if (/^-[a-zA-Z]$/.test(w)) return !short.has(w.slice(1))
    return false
  })
}

describe('every command documents itself', () => {
  it('finds the commands', () => {
    expect(commands.map((c) => c.id)).toEqual(expect.arrayContaining(['charges:create', 'charges:cancel', 'webhooks:listen', 'sandbox:start', 'account']))
  })

  it('has a summary, a description and at least two examples that run this very command', () => {
    const problems = commands.flatMap(({ id, file, command }) => {
      const out: string[] = []
      if (!command.summary?.trim()) out.push(`${file}: no summary`)
      if (!command.description?.trim()) out.push(`${file}: no description`)
      const examples = (command.examples ?? []).map(exampleText)
      if (examples.length < 2) out.push(`${file}: ${examples.length} example(s), want at least 2`)
      for (const e of examples) if (!e.includes(`${BIN} ${id.replaceAll(':', ' ')}`)) out.push(`${file}: example does not run \`svc ${id.replaceAll(':', ' ')}\`: ${e}`)
      return out
    })
    expect(problems).toEqual([])
  })

  it('describes every flag and argument', () => {
    const problems = commands.flatMap(({ file, command }) => [
      ...Object.entries(allFlags(command))
        .filter(([, f]) => !f.hidden && !(f.description ?? f.summary)?.trim())
        .map(([name]) => `${file}: --${name} has no description`),
      ...Object.entries((command.args ?? {}) as Record<string, { description?: string }>)
        .filter(([, a]) => !a.description?.trim())
        .map(([name]) => `${file}: argument ${name} has no description`),
    ])
    expect(problems).toEqual([])
  })

  it('uses only real commands and flags in its examples', () => {
    const byId = new Map(commands.map((c) => [c.id, c.command]))
    const ids = new Set(byId.keys())
    const problems = commands.flatMap(({ file, command }) =>
      (command.examples ?? []).map(exampleText).flatMap((example) =>
        invocations(example, ids).flatMap(({ id, words }) => {
          if (!id) return [`${file}: unknown command in: ${example}`]
          const target = byId.get(id)
          return target ? unknownFlags(words, target).map((w) => `${file}: \`svc ${id.replaceAll(':', ' ')}\` has no ${w}: ${example}`) : []
        }),
      ),
    )
    expect(problems).toEqual([])
  })

  it('would catch an example with a flag the command lacks, inside a pipeline or $(…)', () => {
    const byId = new Map(commands.map((c) => [c.id, c.command]))
    const found = invocations(`${BIN} charges get "$(${BIN} charges create --amount 1500 -q)" --colour red | ${BIN} charges cancel -`, new Set(byId.keys()))
    expect(found.map((i) => i.id)).toEqual(['charges:get', 'charges:cancel', 'charges:create'])
    expect(found.map(({ id, words }) => unknownFlags(words, byId.get(id!)!))).toEqual([['--colour'], [], []])
  })

  it('shows the ids pipeline: list -q into cancel -', () => {
    const cancel = commands.find((c) => c.id === 'charges:cancel')!
    expect((cancel.command.examples ?? []).map(exampleText)).toContain(`${BIN} charges list -q --status awaiting_payment --all | ${BIN} charges cancel -`)
  })
})
