import { describe, expect, it } from 'vitest'
import { suggestCommands } from '../../src/hooks/command-not-found.js'

const ids = ['charges create', 'charges list', 'charges get', 'charges cancel', 'charges watch', 'account', 'webhooks listen']

describe('suggestions for an unknown command', () => {
  it('offers the command one typo away first', () => {
    expect(suggestCommands('chargs list', ids)[0]).toBe('charges list')
    expect(suggestCommands('acount', ids)).toEqual(['account'])
  })

  it('offers nothing for a word unlike any command', () => {
    expect(suggestCommands('xyzzy plugh', ids)).toEqual([])
  })
})
