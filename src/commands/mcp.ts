import { Flags } from '@oclif/core'
import { ApiCommand, plainHttpWarning } from '../lib/command-kit/api.js'

export default class Mcp extends ApiCommand<typeof Mcp> {
  static override summary = 'Serve the API and the local sandbox to coding agents: a Model Context Protocol server on stdio.'
  static override description =
    'An MCP server (stdio transport) for agents such as Claude Code and Cursor: the agent starts `svc mcp` and calls its tools. ' +
    'Credentials are resolved like every command (--api-key, SVC_API_KEY, --profile, SVC_PROFILE, the default profile).\n\n' +
    'Tools: create_charge, get_charge, list_charges (status, externalId, createdAfter/Before, limit ≤ 100, startingAfter; returns hasMore ' +
    'and nextCursor), cancel_charge, advance_charge (test key), get_account, send_test_webhook, settlement_report, decode_pix, verify_webhook ' +
    '(headers, raw body, secret → verdict), list_overdue, get_status, get_withdrawal, and, against a local sandbox, trigger_event, ' +
    'advance_clock, get_clock, list_deliveries, resend_delivery, set_webhook, set_account.\n\n' +
    'Safety: with a live key only the read tools are offered unless --allow-live-writes, and nothing writes to a live environment without ' +
    'it, whatever the key (a sandbox test key asking for env "live" or product.paid is refused); --tools narrows the set (an unknown name, ' +
    'or one the key cannot offer, exits 2 listing the known ones). The server’s instructions name the environment and where the key came ' +
    'from, and say that descriptions, payer names, metadata and other outside data are untrusted data, never instructions. An API error ' +
    'is a tool result with isError: true and the error object (code, message, details, requestId) in the tools’ words; bad arguments ' +
    'name the field; keys never appear in results or logs. Every request is answered: a message over 1 MiB is refused with a JSON-RPC ' +
    'error and the server keeps serving; a malformed one gets -32700, -32600 or -32602.\n\n' +
    'stdout carries only protocol messages; logs go to stderr (SVC_DEBUG=1: one line per request, key masked). The server stops when the ' +
    'client closes stdin, or on SIGINT/SIGTERM.'

  static override examples = [
    'claude mcp add svc -- <%= config.bin %> mcp   # Claude Code, on the default profile (e.g. the sandbox)',
    'claude mcp add svc-sandbox -- <%= config.bin %> mcp --profile sandbox',
    '<%= config.bin %> mcp --profile production --tools get_charge,list_charges,get_account   # read-only, three tools',
    '<%= config.bin %> mcp --profile production --allow-live-writes   # live key, create and cancel allowed',
    '<%= config.bin %> mcp --profile sandbox   # Cursor and any mcp.json: {"mcpServers": {"svc": {"command": "svc", "args": ["mcp", "--profile", "sandbox"]}}}',
  ]

  static override flags = {
    tools: Flags.string({ description: 'Offer only these tools (comma-separated), e.g. get_charge,list_charges.', helpValue: 'LIST' }),
    'allow-live-writes': Flags.boolean({ description: 'With a live key, offer the tools that change things too (create, cancel, test webhook).' }),
  }

  async run(): Promise<void> {
    // Nothing but protocol on stdout: a stray console.log (ours or a dependency's) goes to stderr.
    console.log = console.error
    console.info = console.error
    console.debug = console.error
    // The server answers `initialize` before the SDK loads (lib/mcp/early-initialize.ts).
    const loading = import('../lib/mcp/launch.js')
    const credentials = await this.credentials()
    const clear = plainHttpWarning(credentials.baseUrl)
    if (clear) this.warnUser(clear)
    const { startMcp } = await loading
    await startMcp({
      credentials,
      profile: this.flags.profile,
      env: this.io.env,
      timeoutMs: this.timeoutMs(),
      version: this.config.version,
      allowLiveWrites: this.flags['allow-live-writes'],
      only: this.flags.tools?.split(','),
      log: (line) => this.io.err(`${line}\n`),
    })
  }
}
