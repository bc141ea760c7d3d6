import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { shellLine } from '../../scripts/shell-quote.js'

/** What a POSIX shell makes of a pasted line: its arguments, one per line. */
function parsedByShell(line: string): string[] {
  const r = spawnSync('sh', ['-c', `for a in ${line}; do printf '%s\\n' "$a"; done`], { encoding: 'utf8' })
  return r.stdout.split('\n').slice(0, -1)
}

describe('the demo echoes commands that can be pasted (issue 24 item 16)', () => {
  it.each([[['charges', 'create', '--amount', '1500', '--payer-tax-number', '529.982.247-25', '--description', 'Demo order']], [['x', "it's", 'a "b"', '$HOME', '*', 'semi;colon', '']]])(
    'a shell reads back exactly the arguments of %j',
    (args) => {
      expect(parsedByShell(shellLine(args))).toEqual(args)
    },
  )

  it('leaves plain arguments unquoted and quotes a description with a space', () => {
    expect(shellLine(['charges', 'create', '--description', 'Demo order', '--external-id', 'demo-order-1'])).toBe("charges create --description 'Demo order' --external-id demo-order-1")
  })

  it('both demos echo through it (their shared kit, scripts/demo-kit.js)', () => {
    const kit = readFileSync(new URL('../../scripts/demo-kit.js', import.meta.url), 'utf8')
    expect(kit).toContain('svc ${shellLine(args)}`')
    expect(kit).not.toContain("args.join(' ')")
    for (const demo of ['demo.js', 'demo-relay.js']) {
      const text = readFileSync(new URL(`../../scripts/${demo}`, import.meta.url), 'utf8')
      expect(text, demo).toContain("from './demo-kit.js'")
      expect(text, demo).not.toContain("args.join(' ')")
    }
  })
})
