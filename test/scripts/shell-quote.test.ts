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

  it('scripts/demo.js echoes through it', () => {
    const demo = readFileSync(new URL('../../scripts/demo.js', import.meta.url), 'utf8')
    expect(demo).toContain('`$ svc ${shellLine(args)}`')
    expect(demo).not.toContain("args.join(' ')")
  })
})
