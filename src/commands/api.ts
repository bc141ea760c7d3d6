import { Args, Flags } from '@oclif/core'
import { ApiCommand } from '../lib/command-kit/api.js'
import { checkPath, exitCodeForStatus, parseHeaders, parseMethod, prettyBody, RAW_METHODS, readRequestBody } from '../lib/api/raw-input.js'
import { EXIT } from '../lib/errors.js'
import { STATUS_CODES } from 'node:http'
import { painter } from '../lib/output/color.js'
import { safeText } from '../lib/output/safe-text.js'
import { redact } from '../lib/config/mask.js'

export default class Api extends ApiCommand<typeof Api> {
  static override summary = 'Send a raw authenticated request to the API and print the answer.'
  static override description =
    'For operations no other command covers, e.g. POST /v1/split-charges, or to see an answer exactly as sent ' +
    '(headers with -i); withdrawals have `svc withdrawals get`. ' +
    'Same key, base URL, timeout and retries as every command (POST /v1/charges gets an Idempotency-Key). ' +
    'The body is printed as received: pretty JSON on a terminal, raw when piped (ending with a newline, so the next ' +
    'prompt or line starts on its own). -i prints the status line and the response headers first, as curl -i does. ' +
    'Exit code from the HTTP status (2xx → 0, 404 → 4, 409 → 5, …). HEAD and OPTIONS are sent as given. ' +
    'An API key the server echoes back, whole or in part, is printed masked (svc_test_…a1b2) in the body and the headers.'

  static override examples = [
    '<%= config.bin %> api GET /v1/account',
    '<%= config.bin %> api GET /v1/withdrawals/01a20e83549f57bd65470178',
    `<%= config.bin %> api POST /v1/split-charges -d @split.json -H 'Idempotency-Key: order-42'`,
    `<%= config.bin %> api POST /v1/test/charges/65a1f0c2b3d4e5f60718293a/advance -d '{"status":"settled"}'`,
    '<%= config.bin %> api -i GET /v1/charges?limit=1   # status line and headers (Date, X-Request-Id, …), then the body',
    '<%= config.bin %> api -i HEAD /v1/account',
  ]

  static override args = {
    method: Args.string({ description: `HTTP method: ${RAW_METHODS.join(', ')}.`, required: true }),
    path: Args.string({ description: 'Path (and query) after the base URL, starting with /, e.g. /v1/charges?limit=5.', required: true }),
  }

  static override flags = {
    data: Flags.string({ char: 'd', description: 'JSON body: the text itself, @FILE to read a file, or @- for stdin.' }),
    header: Flags.string({ char: 'H', description: "Extra header 'Name: value' (repeatable).", multiple: true }),
    include: Flags.boolean({ char: 'i', description: 'Print the status line and the response headers before the body.', exclusive: ['json'] }),
  }

  async run(): Promise<void> {
    const method = parseMethod(this.args.method)
    const path = checkPath(this.args.path)
    const headers = parseHeaders(this.flags.header ?? [])
    const body = this.flags.data === undefined ? undefined : await readRequestBody(this.flags.data, this.io.stdin)

    const client = await this.client()
    const answer = await client.raw(method, path, { body, headers })
    // A server (or a proxy) may echo the key it was sent, whole or in part: what is printed is
    // masked as every error is (issue 36.6); the exit code is read from the answer as sent.
    const { apiKey } = await this.credentials()
    const res = { ...answer, body: redact(answer.body, [apiKey]), headers: redactHeaders(answer.headers, apiKey) }
    const exitCode = exitCodeForStatus(answer.status, answer.body)
    if (this.io.isStderrTTY && !this.flags.json) {
      const paint = painter(this.io.colorErr)
      this.note(`${await this.badge('err')} ${paint(exitCode === EXIT.ok ? 'green' : 'red', `HTTP ${res.status}`)} ${method} ${path}`)
    }
    if (this.flags.include) this.io.out(headBlock(res.status, res.headers))
    if (this.io.isStdoutTTY) this.io.out(res.body === '' ? '' : `${prettyBody(res.body)}\n`)
    // Piped: the bytes as received, plus a final newline when they lack one (`svc api … | wc -l`, and the next line of a log).
    else this.io.out(res.body === '' || res.body.endsWith('\n') ? res.body : `${res.body}\n`)
    if (exitCode !== EXIT.ok) this.exitWith(exitCode)
  }
}

function redactHeaders(headers: Record<string, string | string[] | undefined>, apiKey: string): Record<string, string | string[] | undefined> {
  const mask = (v: string) => redact(v, [apiKey])
  return Object.fromEntries(Object.entries(headers).map(([name, v]) => [mask(name), Array.isArray(v) ? v.map(mask) : v === undefined ? v : mask(v)]))
}

/** `HTTP/1.1 200 OK` and one `name: value` line per header, then a blank line (curl -i's shape). */
function headBlock(status: number, headers: Record<string, string | string[] | undefined>): string {
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd()]
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    for (const v of Array.isArray(value) ? value : [value]) lines.push(`${safeText(name)}: ${safeText(v)}`)
  }
  return `${lines.join('\n')}\n\n`
}
