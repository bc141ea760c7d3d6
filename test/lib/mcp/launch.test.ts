/**
 * Which `svc mcp` command lines the bundle's entry serves without oclif: only the plain flags;
 * anything else (help, other flags, stray words) is left to the oclif command, which reports it.
 */
import { describe, expect, it } from 'vitest'
import { plainMcpFlags } from '../../../src/lib/mcp/launch.js'

describe('plainMcpFlags', () => {
  it('takes --profile / -p, --tools and --allow-live-writes', () => {
    expect(plainMcpFlags([])).toEqual({ profile: undefined, tools: undefined, allowLiveWrites: false })
    expect(plainMcpFlags(['-p', 'sandbox', '--tools=get_charge,decode_pix', '--allow-live-writes'])).toEqual({ profile: 'sandbox', tools: 'get_charge,decode_pix', allowLiveWrites: true })
  })

  it.each([[['--help']], [['-h']], [['--api-key', 'svc_test_x']], [['--timeout', '5s']], [['--base-url', 'http://127.0.0.1:1']], [['--json']], [['serve']], [['--profile']]])('leaves %j to oclif', (argv) => {
    expect(plainMcpFlags(argv)).toBeUndefined()
  })
})
