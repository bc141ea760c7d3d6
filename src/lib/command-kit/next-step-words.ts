/**
 * The CLI's words for a typed next step (next-step.ts): the command to type and its flags, the
 * `Hint:` line under an error. `svc mcp` words the same steps as its tools (mcp/next-step-words.ts).
 */
import type { CliError } from '../errors.js'
import type { NextStep } from '../next-step.js'

export function nextStepInCliWords(step: NextStep): string {
  switch (step.do) {
    case 'fix_credentials':
      return 'Check the key: `svc profiles show`, or log in again with `svc login`.'
    case 'replace_revoked_key':
      return 'This key was revoked: create a new one in the panel (API section) and run `svc login`.'
    case 'use_test_key':
      return step.by === 'service' ? 'This is a sandbox-only operation: use a svc_test_ key (e.g. --profile sandbox).' : 'Use a svc_test_ key: --api-key, SVC_API_KEY, or a test profile (e.g. --profile sandbox).'
    case 'repeat_create_same_key':
      return 'The original request is still being processed: run the same command again with the same --idempotency-key.'
    case 'find_charge_by_external_id':
      return 'This externalId already names a charge with a different body: use `svc charges list --external-id <your order id>` to see it.'
    case 'see_charge':
      return `A charge reaches ${step.status} only from: ${step.from.join(', ')}. See its state with \`svc charges get ${step.id}\`.`
    case 'start_sandbox':
      return 'Start one with `svc sandbox start` and use its profile (`--profile sandbox`), or pass --base-url of a running sandbox.'
    case 'set_webhook':
      return `Set one with \`svc sandbox webhook set URL --env ${step.env}\`, or run \`svc webhooks listen\`.`
    case 'list_deliveries': {
      const other = step.env === 'test' ? 'live' : 'test'
      return `List the deliveries with \`svc sandbox deliveries\`; an event of the ${other} environment needs --env ${other}.`
    }
    case 'use_env':
      return `Use --env ${step.env}.`
    // status's items: a clause after the item's headline, as status has always worded them.
    case 'list_overdue':
      return 'svc charges list --overdue lists them; the service settles them, ask its support quoting the ids'
    case 'reactivate_webhook':
      return step.on === 'sandbox'
        ? `save the URL again to reactivate it: svc sandbox webhook set ${step.url}`
        : "save the URL again in the service's panel (Webhooks) to reactivate it; events sent meanwhile were not retried"
    case 'resend_failed_deliveries':
      return 'the sandbox gave up on these: fix your app, then svc sandbox deliveries resend EVENT_ID'
    case 'replay_failed_forwards':
      return 'your app did not take these: fix it, then svc webhooks replay EVENT_ID'
  }
}

/** An error's hint in the CLI's words: its typed step when it has one, else its plain hint. */
export function cliHintOf(err: Pick<CliError, 'hint' | 'next'>): string | undefined {
  return err.next ? nextStepInCliWords(err.next) : err.hint
}
