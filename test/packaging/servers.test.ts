import { describe, expect, it } from 'vitest'
// @ts-expect-error plain JavaScript entry, no types
import { commandWords, headlessServer } from '../../packaging/entries/servers.js'

const terminal = () => true
const piped = () => false
/** stdin (fd 0) a terminal, stdout (fd 1) piped: `svc webhooks listen | jq`. */
const stdoutPiped = (fd: number) => fd === 0

describe('servers: which process loads the bundle on Node’s own path', () => {
  it('names the command by its first two words, in either form', () => {
    expect(commandWords(['webhooks', 'listen', '--port', '0'])).toBe('webhooks listen')
    expect(commandWords(['webhooks:listen', 'x'])).toBe('webhooks listen')
    expect(commandWords(['relay', '--help'])).toBe('relay')
  })

  it('a headless server: sandbox start and relay serve, on a terminal or not', () => {
    for (const argv of [
      ['sandbox', 'start'],
      ['sandbox:start', '--port', '0'],
      ['relay', 'serve', '--db', 'x'],
    ]) {
      expect(headlessServer(argv, terminal)).toBe(true)
      expect(headlessServer(argv, piped)).toBe(true)
    }
  })

  it('webhooks listen drawing its live view is not headless: a person waits for its first frame', () => {
    expect(headlessServer(['webhooks', 'listen', '--forward', 'localhost:3000'], terminal)).toBe(false)
    expect(headlessServer(['webhooks:listen', '--relay', 'https://r.example', '--forward', 'localhost:3000'], terminal)).toBe(false)
    // A `--json` after `--` is not the flag.
    expect(headlessServer(['webhooks', 'listen', '--forward', 'localhost:3000', '--', '--json'], terminal)).toBe(false)
  })

  it('webhooks listen without its view is headless: piped either way, --no-tui or --json', () => {
    const argv = ['webhooks', 'listen', '--forward', 'localhost:3000']
    expect(headlessServer(argv, piped)).toBe(true)
    expect(headlessServer(argv, stdoutPiped)).toBe(true)
    expect(headlessServer(argv, (fd: number) => fd === 1)).toBe(true)
    expect(headlessServer([...argv, '--no-tui'], terminal)).toBe(true)
    expect(headlessServer([...argv, '--json'], terminal)).toBe(true)
  })

  it('any other command is not a server, and asks nothing of the terminal', () => {
    const asked: number[] = []
    const spy = (fd: number) => {
      asked.push(fd)
      return false
    }
    for (const argv of [['charges', 'get', 'ch_1'], ['charges', 'watch', 'ch_1'], ['webhooks', 'events'], []]) expect(headlessServer(argv, spy)).toBe(false)
    expect(asked).toEqual([])
  })
})
