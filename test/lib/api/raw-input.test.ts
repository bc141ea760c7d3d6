import { describe, expect, it } from 'vitest'
import { exitCodeForStatus, parseHeaders, prettyBody } from '../../../src/lib/api/raw-input.js'

describe('svc api inputs and answers', () => {
  it('maps a status to the exit code of CLI.md, using the error code when the body has one', () => {
    expect(exitCodeForStatus(200, '{}')).toBe(0)
    expect(exitCodeForStatus(204, '')).toBe(0)
    expect(exitCodeForStatus(301, '')).toBe(1)
    expect(exitCodeForStatus(402, '{"error":{"code":"provider_error"}}')).toBe(7)
    expect(exitCodeForStatus(500, '{"error":{"code":"internal_error"}}')).toBe(1)
    expect(exitCodeForStatus(503, '<html>down</html>')).toBe(7)
    expect(exitCodeForStatus(404, 'Not Found')).toBe(4)
  })

  it('keeps header values with colons and trims around them', () => {
    expect(parseHeaders(['X-Callback:  http://localhost:3000/a ', 'Idempotency-Key:k'])).toEqual({ 'X-Callback': 'http://localhost:3000/a', 'Idempotency-Key': 'k' })
  })

  it('pretty-prints JSON and leaves other text alone', () => {
    expect(prettyBody('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}')
    expect(prettyBody('plain text\n')).toBe('plain text')
  })
})
