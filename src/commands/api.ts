import { readFile } from 'node:fs/promises'
import { Args, Flags } from '@oclif/core'
import { ApiCommand } from '../lib/api-command.js'
import { EXIT, exitCodeForApiError } from '../lib/contract/errors.js'
import { UsageError } from '../lib/errors.js'
import { painter } from '../lib/output/color.js'
import { readAllStdin } from '../lib/output/stdin.js'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
/** Set by the client from --api-key / the profile, or by the connection: not from -H. */
const RESERVED = new Set(['authorization', 'host', 'content-length'])

export default class Api extends ApiCommand<typeof Api> {
  static override summary = 'Send a raw authenticated request to the API and print the answer.'
  static override description =
    'For operations the other commands do not cover, e.g. GET /v1/withdrawals/{id} and POST /v1/split-charges. ' +
    'Same key, base URL, timeout and retries as every command (POST /v1/charges gets an Idempotency-Key). ' +
    'The body is printed as received: pretty JSON on a terminal, raw when piped. Exit code from the HTTP status ' +
    '(2xx → 0, 404 → 4, 409 → 5, …).'

  static override examples = [
    '<%= config.bin %> api GET /v1/account',
    '<%= config.bin %> api GET /v1/withdrawals/wd_8c1f2a',
    `<%= config.bin %> api POST /v1/split-charges -d @split.json -H 'Idempotency-Key: order-42'`,
    `<%= config.bin %> api POST /v1/test/charges/65a1f0c2b3d4e5f60718293a/advance -d '{"status":"settled"}'`,
  ]

  static override args = {
    method: Args.string({ description: `HTTP method: ${METHODS.join(', ')}.`, required: true }),
    path: Args.string({ description: 'Path (and query) after the base URL, starting with /, e.g. /v1/charges?limit=5.', required: true }),
  }

  static override flags = {
    data: Flags.string({ char: 'd', description: 'JSON body: the text itself, @FILE to read a file, or @- for stdin.' }),
    header: Flags.string({ char: 'H', description: "Extra header 'Name: value' (repeatable).", multiple: true }),
  }

  async run(): Promise<void> {
    const method = this.args.method.toUpperCase()
    if (!METHODS.includes(method)) throw new UsageError(`METHOD must be one of ${METHODS.join(', ')}, not "${this.args.method}".`, { field: 'method' })
    const { path } = this.args
    if (!path.startsWith('/') || path.startsWith('//')) {
      throw new UsageError(`PATH must start with / (it is relative to the base URL), not "${path}".`, { field: 'path', hint: 'For example: svc api GET /v1/account' })
    }
    const headers = this.parseHeaders(this.flags.header ?? [])
    const body = this.flags.data === undefined ? undefined : await this.readBody(this.flags.data)

    const res = await (await this.client()).raw(method, path, { body, headers })
    const ok = res.status >= 200 && res.status <= 299
    if (this.io.isStderrTTY && !this.flags.json) {
      const paint = painter(this.io.colorErr)
      this.note(`${await this.badge()} ${paint(ok ? 'green' : 'red', `HTTP ${res.status}`)} ${method} ${path}`)
    }
    this.io.out(this.io.isStdoutTTY ? `${pretty(res.body)}\n` : res.body)
    if (!ok) this.exitWith(res.status < 400 ? EXIT.unexpected : exitCodeForApiError(res.status, errorCode(res.body)))
  }

  private parseHeaders(lines: string[]): Record<string, string> {
    const headers: Record<string, string> = {}
    for (const line of lines) {
      const at = line.indexOf(':')
      const name = line.slice(0, Math.max(at, 0)).trim()
      if (at < 1 || !TOKEN.test(name)) throw new UsageError(`-H must look like 'Name: value', not "${line}".`, { field: 'header' })
      if (RESERVED.has(name.toLowerCase())) {
        throw new UsageError(`The ${name} header cannot be set with -H.`, { field: 'header', hint: 'Choose the key with --api-key, SVC_API_KEY or --profile.' })
      }
      headers[name] = line.slice(at + 1).trim()
    }
    return headers
  }

  /** The body is checked to be JSON before anything is sent (all bodies of the API are JSON). */
  private async readBody(data: string): Promise<string> {
    let text = data
    if (data === '@-') text = (await readAllStdin(this.io.stdin)).toString('utf8')
    else if (data.startsWith('@')) {
      text = await readFile(data.slice(1), 'utf8').catch((err: NodeJS.ErrnoException) => {
        throw new UsageError(`Cannot read the body file ${data.slice(1)}: ${err.code ?? err.message}.`, { field: 'data' })
      })
    }
    try {
      JSON.parse(text)
    } catch (err) {
      throw new UsageError(`The body given with -d is not valid JSON: ${(err as Error).message}.`, { field: 'data' })
    }
    return text
  }
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body.replace(/\n$/, '')
  }
}

function errorCode(body: string): string | undefined {
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } })?.error?.code
    return typeof code === 'string' ? code : undefined
  } catch {
    return undefined
  }
}
