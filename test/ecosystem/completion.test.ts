// Tab completion in bash and fish, generated from the command classes: commands, flags, and the
// values of enum flags (statuses, environments, event types). Runs the real shells on the script.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { bashCompletion, completionModel, type CompletionModel, fishCompletion } from '../../shell/completions.js'
import { ADVANCE_TARGETS, CHARGE_STATUSES } from '../../src/lib/domain/charge-states.js'
import { EVENT_TYPES } from '../../src/lib/contract/event-types.js'
import { RAW_METHODS } from '../../src/lib/api/raw-input.js'
import { needs } from '../helpers/system-tools.js'
import { allFlags, loadCommands, ROOT } from '../helpers/commands.js'

let model: CompletionModel
const dir = mkdtempSync(join(tmpdir(), 'svc-completion-'))

beforeAll(async () => {
  const pjson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  const own = (await loadCommands()).map(({ id, command }) => ({ id, summary: command.summary, description: command.description, hidden: command.hidden, flags: allFlags(command), args: command.args }))
  const topics = Object.fromEntries(Object.entries(pjson.oclif.topics as Record<string, { description: string }>).map(([k, v]) => [k, v.description]))
  model = completionModel({ bin: 'svc', commands: own, topics, eventTypes: EVENT_TYPES, methods: RAW_METHODS })
})

/** Each case is the words on the line, the last one being the word under the cursor. */
function bashComplete(cases: string[][]): string[][] {
  const script = join(dir, 'svc.bash')
  writeFileSync(script, bashCompletion(model))
  const q = (w: string) => `'${w.replaceAll("'", "'\\''")}'`
  const driver = [
    `source ${q(script)}`,
    '_c() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=(); _svc_complete 2>/dev/null; printf "%s\\n" "${COMPREPLY[*]}"; }',
    ...cases.map((words) => `_c ${words.map(q).join(' ')}`),
  ].join('\n')
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', driver], { encoding: 'utf8' })
  return out
    .split('\n')
    .slice(0, cases.length)
    .map((line) => line.split(' ').filter(Boolean))
}

describe('bash completion', () => {
  it('completes topics, commands, flags and enum values, including --flag=value', () => {
    const [top, prefix, charges, flags, status, statusEq, wait, advance, env, eventType, eventList, deliveries, completionShell, free, method] = bashComplete([
      ['svc', ''],
      ['svc', 'ch'],
      ['svc', 'charges', ''],
      ['svc', 'charges', 'list', '--st'],
      ['svc', 'charges', 'list', '--status', 'aw'],
      ['svc', 'charges', 'list', '--status', '=', ''],
      ['svc', 'charges', 'get', '6740c0ffee0000000000abcd', '--wait', 'se'],
      ['svc', 'test', 'advance', '6740c0ffee0000000000abcd', '--status', ''],
      ['svc', 'sandbox', 'keys', 'create', '--env', ''],
      ['svc', 'webhooks', 'events', '--type', 'charge.s'],
      ['svc', 'webhooks', 'listen', '--events', 'charge.settled,charge.ex'],
      ['svc', 'sandbox', 'deliveries', ''],
      ['svc', 'completion', ''],
      ['svc', 'charges', 'list', '--external-id', ''],
      ['svc', 'api', 'P'],
    ])
    expect(top).toEqual(expect.arrayContaining(['account', 'api', 'charges', 'completion', 'login', 'profiles', 'sandbox', 'test', 'webhooks']))
    expect(prefix).toEqual(['charges'])
    expect(charges).toEqual(['cancel', 'create', 'get', 'list', 'watch'])
    expect(flags).toEqual(['--status', '--starting-after'])
    expect(status).toEqual(['awaiting_payment'])
    expect(statusEq).toEqual([...CHARGE_STATUSES])
    expect(wait).toEqual(['settled'])
    expect(advance).toEqual([...ADVANCE_TARGETS])
    expect(env).toEqual(['test', 'live'])
    expect(eventType).toEqual(['charge.settled', 'charge.split.completed', 'charge.split.failed'])
    expect(eventList).toEqual(['charge.settled,charge.expired'])
    expect(deliveries).toEqual(['resend'])
    expect(completionShell).toEqual(['bash', 'zsh', 'fish'])
    expect(top).not.toContain('autocomplete') // one completion command, not oclif's plugin beside it
    expect(free).toEqual([]) // a free-form value: bash falls back to its default (file names)
    expect(method).toEqual(['POST', 'PUT', 'PATCH'])
  })

  it('offers every visible flag of every command, and no hidden command', () => {
    const visible = model.commands.filter((c) => !c.hidden)
    const results = bashComplete(visible.map((c) => ['svc', ...c.id.split(':'), '--']))
    visible.forEach((command, i) => {
      const expected = command.flags.flatMap((f) => [`--${f.name}`, ...(f.allowNo ? [`--no-${f.name}`] : [])])
      expect(new Set(results[i]), command.id).toEqual(new Set(expected))
    })
  })
})

describe('fish completion', () => {
  it('completes commands with their summaries, flags and enum values', () => {
    const script = fishCompletion(model)
    expect(script).toContain("complete -c svc -n '__svc_at charges:list' -l status -x -a 'created awaiting_payment paid_pending_settlement settled expired canceled failed refunded'")
    expect(script).toContain("complete -c svc -n '__svc_at sandbox:keys:create' -l env -x -a 'test live'")
  })

  it('the script runs in fish: commands, flags and enum values complete', (ctx) => {
    const fish = needs(ctx, 'fish')
    const file = join(dir, 'svc.fish')
    writeFileSync(file, fishCompletion(model))
    const complete = (line: string) =>
      execFileSync(fish, ['--no-config', '-c', `source ${file}; complete -C ${JSON.stringify(line)}`], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0])
    expect(complete('svc charges li')).toEqual(['list'])
    expect(complete('svc charges list --status aw')).toEqual(['awaiting_payment'])
    expect(complete('svc test advance x --status ')).toEqual([...ADVANCE_TARGETS].sort())
    expect(complete('svc webhooks events --type charge.se')).toEqual(['charge.settled'])
    expect(complete('svc api P')).toEqual(['PATCH', 'POST', 'PUT'])
    expect(complete('svc charges list --st')).toEqual(['--starting-after', '--status'])
    expect(complete('svc ')).toEqual(expect.arrayContaining(['charges', 'webhooks', 'sandbox', 'account']))
  })
})

describe('the generated scripts', () => {
  it('do not depend on the order the manifest lists commands in (two builds of the same sources differ)', async () => {
    const own = (await loadCommands()).map(({ id, command }) => ({ id, summary: command.summary, description: command.description, hidden: command.hidden, flags: allFlags(command), args: command.args }))
    const shuffled = completionModel({ bin: 'svc', commands: [...own].reverse(), eventTypes: EVENT_TYPES, methods: RAW_METHODS })
    const ordered = completionModel({ bin: 'svc', commands: own, eventTypes: EVENT_TYPES, methods: RAW_METHODS })
    expect(bashCompletion(shuffled)).toBe(bashCompletion(ordered))
    expect(fishCompletion(shuffled)).toBe(fishCompletion(ordered))
  })
})
