/**
 * The CLI's words for a typed next step (next-step.ts): the command to type and its flags, the
 * `Hint:` line under an error. `svc mcp` words the same steps as its tools (mcp/next-step-words.ts).
 */
import type { CliError } from '../errors.js'
import type { NextStep } from '../next-step.js'
import { shellWord } from '../output/shell-word.js'

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
    case 'see_order_charge':
      // The order id itself, ready to paste, not a placeholder.
      return `A charge for this externalId already exists (created with a different body): see it with \`svc charges list --external-id ${shellWord(step.externalId)}\`; do not create another charge for the same order.`
    case 'retry_create':
      return `It may have been created: run again with --idempotency-key ${step.idempotencyKey} to get it without creating a second one.`
    case 'see_charge':
      return `A charge reaches ${step.status} only from: ${step.from.join(', ')}. See its state with \`svc charges get ${step.id}\`.`
    case 'start_sandbox':
      return 'Start one with `svc sandbox start` and use its profile (`--profile sandbox`), or pass --base-url of a running sandbox.'
    case 'point_at_sandbox':
      return `Is ${step.baseUrl} a local sandbox? The panel exists only in \`svc sandbox start\`.`
    case 'set_webhook':
      return `Set one with \`svc sandbox webhook set URL --env ${step.env}\`, or run \`svc webhooks listen\`.`
    case 'list_deliveries': {
      const other = step.env === 'test' ? 'live' : 'test'
      return `List the deliveries with \`svc sandbox deliveries\`; an event of the ${other} environment needs --env ${other}.`
    }
    case 'use_env':
      return `Use --env ${step.env}.`
    case 'check_connection':
      return {
        timeout: 'Raise --timeout (e.g. --timeout 60s), or check the service status.',
        sandbox: 'Is the sandbox running? Start it with `svc sandbox start`, or check --base-url.',
        panel: 'Start it with `svc sandbox start`, or point --base-url / --profile at the running sandbox.',
        dns: 'Check --base-url (or SVC_BASE_URL / the profile) and your network.',
        network: 'Check your network connection and --base-url, then try again.',
      }[step.cause]
    case 'report_bad_answer':
      return 'The server did not answer as the API specifies. Check --base-url, or retry with SVC_DEBUG=1 and quote the output to support.'
    case 'use_sandbox_key':
      return `Pass --profile ${step.profile} (written by \`svc sandbox start\`), or SVC_API_KEY with a svc_${step.env}_ key.`
    case 'set_webhook_for_trigger':
      return `No webhook URL is set for the ${step.env} environment of the sandbox, so it has nowhere to send the event: ${setWebhookInCliWords(step.env)}. ${step.done ?? ''}`.trim()
    case 'reactivate_then_test':
      return step.on === 'sandbox'
        ? `Run \`svc sandbox webhook set ${shellWord(step.url)} --env ${step.env}\` (or save it in the sandbox's panel, \`svc sandbox open\`), then \`svc webhooks test\` again.`
        : 'Save it in the panel (API, Webhook), then run `svc webhooks test` again.'
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

/** How to give an environment of the sandbox a webhook URL, as `svc webhooks test` and `svc trigger` say it. */
export function setWebhookInCliWords(env: string): string {
  return `run \`svc webhooks listen\` (it registers itself), or \`svc sandbox webhook set URL --env ${env}\``
}

/** `svc account`'s words for an inactive endpoint: save the URL again, in the panel or with the sandbox's command. */
export function reactivationInCliWords(url: string, environment: string, on: 'sandbox' | 'service'): string {
  return on === 'sandbox'
    ? `Save the URL again to reactivate it: \`svc sandbox webhook set ${shellWord(url)} --env ${environment}\` (or in the sandbox's panel, \`svc sandbox open\`).`
    : 'Save the URL again in the panel (API, Webhook) to reactivate it.'
}

/** An error's hint in the CLI's words: its typed step when it has one, else its plain hint. */
export function cliHintOf(err: Pick<CliError, 'hint' | 'next'>): string | undefined {
  return err.next ? nextStepInCliWords(err.next) : err.hint
}
