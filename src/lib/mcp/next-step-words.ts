/**
 * `svc mcp`'s words for a typed next step (next-step.ts): the tool to call and its arguments, or
 * what the user has to do where an agent cannot (restart svc mcp with other credentials). The
 * CLI words the same steps as its commands (command-kit/next-step-words.ts).
 */
import type { NextStep } from '../next-step.js'

export function nextStepInAgentWords(step: NextStep): string {
  switch (step.do) {
    case 'fix_credentials':
      return 'The API key svc mcp runs with was refused: the user has to fix the key svc mcp uses (its profile or SVC_API_KEY) and restart svc mcp.'
    case 'replace_revoked_key':
      return 'The API key svc mcp runs with was revoked: the user has to create a new one in the panel and restart svc mcp with it.'
    case 'use_test_key':
      return 'This works only in the test environment: it needs svc mcp to run with a svc_test_ key.'
    case 'repeat_create_same_key':
      return 'The original request is still being processed: call create_charge again with the same idempotencyKey in a moment.'
    case 'find_charge_by_external_id':
      return 'This externalId already names a charge with a different body: find it with list_charges {"externalId": …}.'
    case 'see_order_charge':
      // The externalId is the caller's data: not echoed into the sentence.
      return 'A charge for this externalId already exists (created with a different body). Fetch it with list_charges {"externalId": …} and then get_charge; do not create another charge for the same order.'
    case 'retry_create':
      return `It may have been created: call create_charge again with idempotencyKey "${step.idempotencyKey}" to get it without creating a second one.`
    case 'see_charge':
      return `A charge reaches ${step.status} only from: ${step.from.join(', ')}. See its state with get_charge {"id": "${step.id}"}.`
    case 'start_sandbox':
    case 'point_at_sandbox':
      return 'This tool drives a local sandbox, and svc mcp is not running against one: the user starts the sandbox and svc mcp with its profile.'
    case 'set_webhook':
      return `Set one with set_webhook {"url": …, "env": "${step.env}"}.`
    case 'list_deliveries': {
      const other = step.env === 'test' ? 'live' : 'test'
      return `List the deliveries with list_deliveries; an event of the ${other} environment needs env "${other}".`
    }
    case 'use_env':
      return `Use env "${step.env}".`
    case 'check_connection': {
      const retry = 'Reading again is safe; a create_charge may have gone through, so call it again only with the same idempotencyKey.'
      if (step.cause === 'timeout') return `The service did not answer in time. ${retry}`
      if (step.cause === 'sandbox' || step.cause === 'panel') return `svc mcp could not reach the local sandbox: it is not running, and the user starts it. ${retry}`
      return `svc mcp could not reach the service: the user checks the network and the base URL svc mcp runs with. ${retry}`
    }
    case 'report_bad_answer':
      return 'The server did not answer as the API specifies: the user checks the base URL svc mcp runs with, or runs svc mcp with SVC_DEBUG=1 and quotes its stderr to support.'
    case 'use_sandbox_key':
      return `This needs the sandbox's ${step.env} key: the user restarts svc mcp with the ${step.profile} profile, or with SVC_API_KEY set to a svc_${step.env}_ key.`
    case 'set_webhook_for_trigger':
      return `No webhook URL is set for the ${step.env} environment of the sandbox, so it has nowhere to send the event: set one with set_webhook {"url": …, "env": "${step.env}"}. ${step.done ?? ''}`.trim()
    case 'reactivate_then_test':
      return step.on === 'sandbox'
        ? `Save the URL again with set_webhook {"url": "${step.url}", "env": "${step.env}"}, then call send_test_webhook again.`
        : "The user saves it again in the service's panel (API, Webhook); then call send_test_webhook again."
    // get_status's items: a clause after the item's kind and count.
    case 'list_overdue':
      return 'list_overdue lists them; the service settles them, ask its support quoting the ids'
    case 'reactivate_webhook':
      return step.on === 'sandbox'
        ? `save the URL again to reactivate it: set_webhook {"url": "${step.url}", "env": "${step.env}"}`
        : "the user saves the URL again in the service's panel (Webhooks) to reactivate it; events sent meanwhile were not retried"
    case 'resend_failed_deliveries':
      return 'the sandbox gave up on these: fix the app, then resend_delivery {"eventId": …} for each'
    case 'replay_failed_forwards':
      return "the app did not take these: fix it, then the user replays them from this machine's listener event log"
  }
}
