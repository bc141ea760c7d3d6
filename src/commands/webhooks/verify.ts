import { Flags } from '@oclif/core'
import { BaseCommand } from '../../lib/command-kit/base.js'
import { resolveWebhookSecrets, SECRET_FLAG_WARNING } from '../../lib/config/resolve.js'
import { UsageError, EXIT } from '../../lib/errors.js'
import { readInputFile } from '../../lib/input/input-file.js'
import { readAllStdin } from '../../lib/input/stdin.js'
import { verifySignature } from '../../lib/webhooks/signature.js'
import type { IO } from '../../lib/output/io.js'

type Verdict = ReturnType<typeof verifySignature>

export default class WebhooksVerify extends BaseCommand<typeof WebhooksVerify, Verdict> {
  static override summary = 'Check one webhook delivery offline: signature, timestamp and header format.'
  static override description =
    'Recomputes HMAC-SHA256 over `<timestamp>.<raw body>` with each secret and compares in constant time. ' +
    'Exit 0 when valid, 1 when invalid (the reason is printed), 2 on bad usage. The body is read as raw bytes ' +
    'from --body-file or stdin: never re-serialise it.'

  static override examples = [
    'SVC_WEBHOOK_SECRET=whsec_… <%= config.bin %> webhooks verify --timestamp 1763800000 --signature v1=5d41… --body-file body.json',
    'cat body.json | <%= config.bin %> webhooks verify --secret whsec_… --timestamp "$TS" --signature "$SIG"',
    '<%= config.bin %> webhooks verify --secret old --secret new --timestamp "$TS" --signature "$SIG" --body-file body.json --json',
    '<%= config.bin %> webhooks verify --profile sandbox --timestamp "$TS" --signature "$SIG" --body-file body.json   # the profile\'s secret',
  ]

  static override flags = {
    secret: Flags.string({
      description: "Webhook secret (repeat for rotation; or SVC_WEBHOOK_SECRET, or the profile's, as listen and check). Visible to other processes: prefer SVC_WEBHOOK_SECRET or the profile.",
      multiple: true,
    }),
    profile: Flags.string({ char: 'p', description: 'Profile whose webhook secret to use (or SVC_PROFILE; default: the default profile).' }),
    timestamp: Flags.string({ description: 'Value of the X-SVC-Timestamp header (epoch seconds).', required: true }),
    signature: Flags.string({ description: 'Value of the X-SVC-Signature header (v1=…).', required: true }),
    'body-file': Flags.string({ description: 'File with the raw body (default: stdin).' }),
    tolerance: Flags.integer({ description: 'Allowed clock difference in seconds, either way.', default: 300, min: 0 }),
  }

  async run(): Promise<Verdict> {
    if (this.flags.secret?.length) this.warnUser(SECRET_FLAG_WARNING)
    // The same sources as listen and check: --secret, SVC_WEBHOOK_SECRET, then the profile's.
    const secrets = await resolveWebhookSecrets({ secret: this.flags.secret, profile: this.flags.profile }, this.io.env)
    if (secrets.length === 0) {
      throw new UsageError('A webhook secret is required.', { field: 'secret', hint: 'Pass --secret, set SVC_WEBHOOK_SECRET, or use a profile that has one (`svc login`, `svc sandbox start`).' })
    }
    if (!this.flags['body-file'] && this.io.isStdinTTY) {
      throw new UsageError('No body given.', { field: 'body-file', hint: 'Pass --body-file FILE or pipe the raw body on stdin.' })
    }
    const body = this.flags['body-file'] ? await readInputFile(this.flags['body-file'], { given: `--body-file ${this.flags['body-file']}`, field: 'body-file' }) : await readAllStdin(this.io.stdin)
    const result = verifySignature({ body, signature: this.flags.signature, timestamp: this.flags.timestamp, secrets, toleranceSeconds: this.flags.tolerance })
    if (!result.ok) this.failAfterOutput(EXIT.unexpected)
    return result
  }

  protected override toJson(result: Verdict): unknown {
    return result.ok ? { valid: true, secretIndex: result.secretIndex } : { valid: false, reason: result.reason, message: result.message }
  }

  protected override render(result: Verdict, io: IO): void {
    io.out(result.ok ? `valid (secret #${result.secretIndex + 1})\n` : `invalid: ${result.reason}: ${result.message}\n`)
  }
}
