/**
 * What a person or an agent should do next after an error, typed rather than worded (issue 40
 * item 1): the use-cases and the API client say which step, with its parameters; each door words
 * it at its edge, the CLI as the command to type (command-kit/next-step-words.ts), `svc mcp` as
 * the tool to call with its arguments (mcp/next-step-words.ts). A hint that is the same sentence
 * at every door (no flag, no command, no tool) stays a plain `hint`.
 */
import type { Environment } from './contract/schemas.js'

export type NextStep =
  /** invalid_api_key: the key was refused; the credentials svc uses need fixing. */
  | { do: 'fix_credentials' }
  /** revoked_api_key: a new key from the panel. */
  | { do: 'replace_revoked_key' }
  /** not_available_in_live: a test key is needed (`by`: the service refused, or svc before sending). */
  | { do: 'use_test_key'; by: 'service' | 'svc' }
  /** charge_processing: the same creation again, with the same idempotency key, in a moment. */
  | { do: 'repeat_create_same_key' }
  /** external_id_conflict: the charge that order already has, found by its externalId. */
  | { do: 'find_charge_by_external_id' }
  /** A creation for the order `externalId` met external_id_conflict: read that charge, do not create another. */
  | { do: 'see_order_charge'; externalId: string }
  /** A creation's network failed: it may have gone through; the same idempotency key gets it without a second charge. */
  | { do: 'retry_create'; idempotencyKey: string }
  /** invalid_transition: the charge reaches `status` only from `from`; read it to see where it is. */
  | { do: 'see_charge'; id: string; status: string; from: readonly string[] }
  /** not_a_sandbox: the operation needs a local sandbox. */
  | { do: 'start_sandbox' }
  /** The sandbox's panel answered 404 from `baseUrl`, which is no local sandbox. */
  | { do: 'point_at_sandbox'; baseUrl: string }
  /** The environment has no webhook URL (404 webhook_not_configured from the sandbox's panel). */
  | { do: 'set_webhook'; env: Environment }
  /** No delivery with this event id in `env`: list the deliveries; the other environment may hold it. */
  | { do: 'list_deliveries'; env: Environment }
  /** A fixture cannot run in the environment asked for: run it in `env`. */
  | { do: 'use_env'; env: Environment }
  /** status: settlements are late; the overdue list names them (the service settles them). */
  | { do: 'list_overdue' }
  /** A network failure: why (`sandbox`: a loopback host, likely a sandbox not running; `panel`: the sandbox's panel). */
  | { do: 'check_connection'; cause: 'timeout' | 'sandbox' | 'panel' | 'dns' | 'network' }
  /** The server answered something that is not the API's shape. */
  | { do: 'report_bad_answer' }
  /** A fixture needs the sandbox's key of `env`, and the credentials given hold none. */
  | { do: 'use_sandbox_key'; env: Environment; profile: string }
  /** trigger: the sandbox has no webhook URL for `env`, so the event had nowhere to go; `done` says what ran before. */
  | { do: 'set_webhook_for_trigger'; env: Environment; done?: string }
  /** webhooks test: the endpoint `url` is inactive, nothing was sent; save it again (`on` the local sandbox, or in the service's panel), then test again. */
  | { do: 'reactivate_then_test'; url: string; env: Environment; on: 'sandbox' | 'service' }
  /** status: the endpoint `url` was deactivated; saving it again reactivates it (`on` the local sandbox, or in the service's panel). */
  | { do: 'reactivate_webhook'; url: string; env: Environment; on: 'sandbox' | 'service' }
  /** status: the sandbox gave up on deliveries; fix the app, then resend each. */
  | { do: 'resend_failed_deliveries' }
  /** status: the listener could not forward events to the app; fix it, then replay each from the event log. */
  | { do: 'replay_failed_forwards' }

/** The steps' names, for tests that render each one at each door. */
export type NextStepName = NextStep['do']
