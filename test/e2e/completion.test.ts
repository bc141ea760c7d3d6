/** `svc completion bash|zsh|fish` from the built binary: the script a user sources completes enum values. */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { svc } from '../helpers/cli.js'
import { EVENT_TYPES } from '../../src/lib/contract/event-types.js'
import { needs } from '../helpers/system-tools.js'

describe('svc completion', () => {
  it('prints a bash script that completes charge statuses after --status', async () => {
    const r = await svc(['completion', 'bash'])
    expect(r.exitCode).toBe(0)
    const script = join(mkdtempSync(join(tmpdir(), 'svc-comp-')), 'svc.bash')
    writeFileSync(script, r.stdout)
    const out = execFileSync('bash', ['--norc', '--noprofile', '-c', `source '${script}'; COMP_WORDS=(svc charges list --status ''); COMP_CWORD=4; COMPREPLY=(); _svc_complete; printf '%s\\n' "\${COMPREPLY[@]}"`], {
      encoding: 'utf8',
    })
    expect(out.split('\n').filter(Boolean).sort()).toEqual(['awaiting_payment', 'canceled', 'created', 'expired', 'failed', 'paid_pending_settlement', 'refunded', 'settled'])
  })

  it('prints a fish script and refuses an unknown shell with exit 2', async () => {
    const fish = await svc(['completion', 'fish'])
    expect(fish.stdout).toContain('complete -c svc')
    const bad = await svc(['completion', 'tcsh'])
    expect(bad.exitCode).toBe(2)
  })

  it('prints a zsh script too: one command for the three shells (issue 16 item 14)', async () => {
    const r = await svc(['completion', 'zsh'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout.startsWith('#compdef svc\n')).toBe(true)
    expect(r.stdout).toContain("children=('cancel:Cancel unpaid charges")
    expect(r.stdout).toMatch(/--status\) compadd -- 'created' 'awaiting_payment' .*'refunded'; return ;;/)
    expect(r.stdout).toContain('compdef _svc svc')
    // zsh ties $path to $PATH: the function must not use it as a variable.
    expect(r.stdout).not.toMatch(/local path\b/)
  })

  it('the zsh script runs in zsh: it offers the subcommands of a topic and the values of a flag', async (ctx) => {
    const zsh = needs(ctx, 'zsh')
    const r = await svc(['completion', 'zsh'])
    const script = join(mkdtempSync(join(tmpdir(), 'svc-comp-')), '_svc')
    writeFileSync(script, r.stdout)
    // compsys stand-ins that print what the function offers (zsh -f: no user config).
    const stubs = `compdef() { :; }; _describe() { local name=\${@[-1]}; print -l -- \${(P)name}; }; compadd() { shift; print -l -- "$@"; }; _message() { print -- "message:$*"; }`
    const complete = (words: string[], prefix = '') =>
      execFileSync(zsh, ['-f', '-c', `${stubs}; source '${script}'; words=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}; PREFIX='${prefix}'; _svc`], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
    expect(complete(['svc', 'sandbox', 'web']).map((l) => l.split(':')[0])).toEqual(expect.arrayContaining(['open', 'reset', 'start', 'status', 'stop', 'webhook']))
    expect(complete(['svc', 'trigger', '--env', ''])).toEqual(['test', 'live'])
    // The event types, as the README promises (issue 24 item 10).
    expect(complete(['svc', 'trigger', ''])).toEqual([...EVENT_TYPES])
    expect(complete(['svc', 'charges', 'list', '--status', ''])).toContain('paid_pending_settlement')
    expect(complete(['svc', 'charges', 'list', '--'], '--').map((l) => l.split(':')[0])).toEqual(expect.arrayContaining(['--status', '--json', '--profile']))
  })

  it('completes the event types after `svc trigger` in bash and fish too (issue 24 item 10)', async () => {
    const bash = await svc(['completion', 'bash'])
    const script = join(mkdtempSync(join(tmpdir(), 'svc-comp-')), 'svc.bash')
    writeFileSync(script, bash.stdout)
    const out = execFileSync('bash', ['--norc', '--noprofile', '-c', `source '${script}'; COMP_WORDS=(svc trigger charge.s); COMP_CWORD=2; COMPREPLY=(); _svc_complete; printf '%s\\n' "\${COMPREPLY[@]}"`], {
      encoding: 'utf8',
    })
    expect(out.split('\n').filter(Boolean).sort()).toEqual(['charge.settled', 'charge.split.completed', 'charge.split.failed'])
    const fish = await svc(['completion', 'fish'])
    for (const type of EVENT_TYPES) expect(fish.stdout).toContain(`complete -c svc -n '__svc_at trigger --next' -f -a '${type}'`)
  })
})
