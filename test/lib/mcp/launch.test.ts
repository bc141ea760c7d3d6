/**
 * Which `svc mcp` command lines the bundle's entry serves without oclif: only the plain flags;
 * anything else (help, other flags, stray words) is left to the oclif command, which reports it.
 */
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain JavaScript build script, no types
import { mcpFlags } from '../../../packaging/build-bundle.js'
import Mcp from '../../../src/commands/mcp.js'
import { type FlagSpec, plainMcpFlags as plain } from '../../../src/lib/mcp/launch.js'

// The command's own flags, as the build hands them to the fast path (from the manifest).
const FLAGS = { ...Mcp.baseFlags, ...Mcp.flags } as unknown as Record<string, FlagSpec>
const plainMcpFlags = (argv: string[]) => plain(argv, FLAGS)

describe('plainMcpFlags', () => {
  it('takes --profile / -p, --tools and --allow-live-writes', () => {
    expect(plainMcpFlags([])).toEqual({ profile: undefined, tools: undefined, allowLiveWrites: false })
    expect(plainMcpFlags(['-p', 'sandbox', '--tools=get_charge,decode_pix', '--allow-live-writes'])).toEqual({ profile: 'sandbox', tools: 'get_charge,decode_pix', allowLiveWrites: true })
  })

  it.each([[['--no-color']], [['--help']], [['-h']], [['--api-key', 'svc_test_x']], [['--timeout', '5s']], [['--base-url', 'http://127.0.0.1:1']], [['--json']], [['serve']], [['--profile']]])(
    'leaves %j to oclif',
    (argv) => {
      expect(plainMcpFlags(argv)).toBeUndefined()
    },
  )

  it("is handed the command's own flags by the build, so it defines none of its own", () => {
    const source = mcpFlags()
    const built = JSON.parse(source.slice(source.indexOf('{'))) as Record<string, FlagSpec>
    const own = Object.fromEntries(Object.entries(FLAGS).map(([name, f]) => [name, f.char ? { type: f.type, char: f.char } : { type: f.type }]))
    expect(built).toEqual(own)
  })
})
