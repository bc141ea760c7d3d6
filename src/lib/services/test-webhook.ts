/**
 * `svc webhooks test`: read the account first (GET /v1/account), and send the `charge.test`
 * event (POST /v1/webhooks/test) only to an endpoint the service still delivers to. An endpoint
 * the service deactivated (spec 6.4 items 7 and 8: 24 h without a successful delivery) gets
 * nothing: the event would be logged and skipped, and "Sent" would be a lie. That outcome needs
 * a person, so it ends with exit 9 (CLI.md 0.4) with the typed step to reactivate the endpoint
 * and test again (next-step.ts), which each door words.
 */
import type { ApiClient } from '../api/types.js'
import type { WebhookTestResponse } from '../contract/schemas.js'
import { CliError, EXIT } from '../errors.js'

export interface WebhookTestTarget {
  /** The base URL is the local sandbox (loopback): the endpoint is saved again there, not in the service's panel. */
  sandbox: boolean
}

/** The code of the outcome "the endpoint is inactive, nothing was sent" (exit 9). */
export const WEBHOOK_INACTIVE = 'webhook_inactive'

/** Sends the test event, unless the account says the endpoint is inactive: then a CliError with exit 9, nothing sent. */
export async function sendTestWebhook(client: Pick<ApiClient, 'getAccount' | 'testWebhook'>, target: WebhookTestTarget): Promise<WebhookTestResponse> {
  const account = await client.getAccount()
  const webhook = account.webhook
  if (webhook && !webhook.active) {
    // The message says it all for --json readers; the hint gives the exact step on a terminal.
    throw new CliError(
      `The ${account.environment} webhook endpoint ${webhook.url} is inactive: the service deactivated it after 24 h without a successful delivery and sends it nothing, so no test event was sent. Save the URL again to reactivate it.`,
      {
        exitCode: EXIT.needsAttention,
        code: WEBHOOK_INACTIVE,
        next: { do: 'reactivate_then_test', url: webhook.url, env: account.environment, on: target.sandbox ? 'sandbox' : 'service' },
      },
    )
  }
  return client.testWebhook()
}
