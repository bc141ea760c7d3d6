/** The words hints suggest must paste into a shell as one argument, with no surprise. */
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { shellWord } from '../../../src/lib/output/shell-word.js'

describe('shellWord', () => {
  it('leaves plain words bare and quotes the rest', () => {
    expect(shellWord('order-42')).toBe('order-42')
    expect(shellWord('http://127.0.0.1:3000/hooks')).toBe('http://127.0.0.1:3000/hooks')
    expect(shellWord('order 42')).toBe("'order 42'")
    expect(shellWord('')).toBe("''")
  })

  it('survives the shell as the same single argument', () => {
    for (const text of ["it's", 'a;b', '$(rm -rf x)', '`id`', '*', '~/x y', '"q"']) {
      const out = execFileSync('sh', ['-c', `printf '%s' ${shellWord(text)}`], { encoding: 'utf8' })
      expect(out).toBe(text)
    }
  })

  it('shows control characters escaped, never raw', () => {
    expect(shellWord('a\u001b[31mb')).not.toContain('\u001b')
  })
})
