import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { PromptCancelled, promptConfirm, promptHidden, promptText } from '../../../src/lib/input/prompt.js'
import { testIO } from '../../helpers/test-io.js'

/** A fake terminal: stdin we type into (with raw mode that records its changes), stderr we read. */
function terminal(opts: { interactive?: boolean } = {}) {
  const stdin = new PassThrough() as PassThrough & { isTTY: boolean; isRaw: boolean; setRawMode: (m: boolean) => void; rawChanges: boolean[] }
  stdin.isTTY = true
  stdin.isRaw = false
  stdin.rawChanges = []
  stdin.setRawMode = (m: boolean) => {
    stdin.isRaw = m
    stdin.rawChanges.push(m)
  }
  const interactive = opts.interactive ?? true
  const { io, err } = testIO({ tty: true, stdin, env: interactive ? {} : { CI: 'true' } })
  return { io, stdin, stderr: err }
}

describe('promptHidden', () => {
  it('reads a line in raw mode, echoes nothing of it, and restores the terminal', async () => {
    const t = terminal()
    const answer = promptHidden(t.io, 'API key:')
    t.stdin.write('svc_test_secretkey1234\r')
    expect(await answer).toBe('svc_test_secretkey1234')
    expect(t.stdin.rawChanges).toEqual([true, false])
    expect(t.stderr()).toBe('API key: \n')
  })

  it('handles backspace, Ctrl-U and arrow keys typed into it, and a paste split across chunks', async () => {
    const t = terminal()
    const answer = promptHidden(t.io, 'Key:')
    t.stdin.write('wrong\u0015svc_te')
    t.stdin.write('st_abcX\u007f\u001b[Ddef\n')
    expect(await answer).toBe('svc_test_abcdef')
  })

  it('Ctrl-C cancels with exit 2 and restores the terminal', async () => {
    const t = terminal()
    const answer = promptHidden(t.io, 'Key:')
    t.stdin.write('svc_\u0003')
    await expect(answer).rejects.toBeInstanceOf(PromptCancelled)
    await expect(answer).rejects.toMatchObject({ exitCode: 2 })
    expect(t.stdin.isRaw).toBe(false)
  })

  it('leaves what follows the line for the next question', async () => {
    const t = terminal()
    t.stdin.write('first\nsecond\n')
    expect(await promptHidden(t.io, 'A:')).toBe('first')
    expect(await promptHidden(t.io, 'B:')).toBe('second')
  })

  it('ends with a clear error when the input closes before an answer', async () => {
    const t = terminal()
    const answer = promptHidden(t.io, 'Key:')
    t.stdin.end()
    await expect(answer).rejects.toMatchObject({ code: 'cancelled' })
  })

  it('refuses to ask when the session is not interactive (never hangs a pipe or CI)', async () => {
    const t = terminal({ interactive: false })
    await expect(promptHidden(t.io, 'Key:')).rejects.toMatchObject({ exitCode: 2, code: 'not_interactive' })
    expect(t.stderr()).toBe('')
  })
})

describe('promptText and promptConfirm', () => {
  it('reads a trimmed line without raw mode, with a fallback for Enter', async () => {
    const t = terminal()
    const first = promptText(t.io, 'Name?', { fallback: 'default' })
    t.stdin.write('  prod  \n')
    expect(await first).toBe('prod')
    expect(t.stdin.rawChanges).toEqual([])
    const second = promptText(t.io, 'Name?', { fallback: 'default' })
    t.stdin.write('\n')
    expect(await second).toBe('default')
    expect(t.stderr()).toBe('Name? (default) Name? (default) ')
  })

  it('confirm takes y/yes and falls back on Enter', async () => {
    const t = terminal()
    t.stdin.write('yes\n\nn\n')
    expect(await promptConfirm(t.io, 'Go?')).toBe(true)
    expect(await promptConfirm(t.io, 'Go?', true)).toBe(true)
    expect(await promptConfirm(t.io, 'Go?', true)).toBe(false)
  })
})
