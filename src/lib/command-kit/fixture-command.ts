/**
 * The base of `svc trigger` and `svc fixtures run`: the sandbox's credentials (the `sandbox`
 * profile by default, as for the panel commands), one API client per environment, progress lines
 * on stderr, and the result printed for people, pipes or --json.
 */
import { type Command, Flags } from '@oclif/core'
import type { ApiClient } from '../api/types.js'
import { environmentBadge, painter } from '../output/color.js'
import { safeText } from '../output/safe-text.js'
import type { StepReport } from '../scenarios/runner.js'
import { FixtureStepError } from '../scenarios/runner.js'
import { setWebhookInCliWords } from './next-step-words.js'
import { type FixtureSession, type TriggerResult, keysFor, requireSandbox, triggerSummary } from '../services/trigger.js'
import { PanelCommand } from './sandbox-panel.js'
import { quietFlag } from './base.js'
import type { IO } from '../output/io.js'

export const overrideFlag = Flags.string({
  description: 'Set a field of the request body: path=value (text, or JSON where the fixture holds a number/boolean/object), or path:=json. Repeatable.',
  multiple: true,
})

/** `-q`: the ids of the resources made (a charge, a withdrawal…), for `$(…)`; the events are in --json. */
export const quietFixtureFlag = quietFlag('the ids of the resources it made or moved (charges, withdrawals, sales)')

/** What a trigger or a fixture run made, and the headline of its terminal view. */
export interface FixtureOutcome {
  result: TriggerResult
  headline: string
}

export abstract class FixtureCommand<T extends typeof Command> extends PanelCommand<T, FixtureOutcome | undefined> {
  private readonly clients: ApiClient[] = []

  protected async session(what: string): Promise<FixtureSession> {
    const credentials = await this.credentials()
    await requireSandbox(credentials.baseUrl, what)
    const tty = this.io.isStderrTTY && !this.flags.json
    return {
      keys: keysFor(credentials, this.factory.readProfiles),
      source: credentials.source,
      clientFor: async (apiKey) => {
        const c = await this.newApiClient(apiKey, credentials.baseUrl)
        this.clients.push(c)
        return c
      },
      onStep: tty ? (step) => this.note(`  ${painter(this.io.colorErr)('green', '✓')} ${step.name.padEnd(10)} ${safeText(step.request)} → ${step.status}`) : undefined,
    }
  }

  /** The run's result: --json as the contract says, one event id per line when piped, a summary on a terminal. */
  protected override toJson(outcome: FixtureOutcome | undefined): unknown {
    if (!outcome) return undefined
    const { result } = outcome
    return triggerSummary(result)
  }

  protected override render(outcome: FixtureOutcome | undefined, io: IO): void {
    if (!outcome) return
    const { result, headline } = outcome
    for (const env of result.noWebhook) {
      this.warnUser(`no webhook URL is set for the ${env} environment: the events are in the sandbox's log, but no delivery went out. To receive them, ${setWebhookInCliWords(env)}.`)
    }
    if ((this.flags as { quiet?: boolean }).quiet) return io.out(result.resources.map((r) => `${r.id}\n`).join(''))
    if (!io.isStdoutTTY) {
      io.out(result.events.map((e) => `${e.id}\t${e.type}\n`).join(''))
      return
    }
    const paint = painter(io.color)
    const lines = [`${environmentBadge(paint, result.env)} ${paint('bold', headline)}`]
    for (const r of result.resources) lines.push(`  ${r.object.replace('_', ' ')} ${r.id}${r.status ? `  ${r.status}` : ''}`)
    if (result.events.length === 0) lines.push(paint('dim', '  no event was emitted'))
    for (const e of result.events) lines.push(`  ${paint('dim', 'event')} ${e.id}  ${paint('cyan', e.type)}${e.environment !== result.env ? ` (${e.environment})` : ''}`)
    lines.push(paint('dim', '  Deliveries: svc sandbox deliveries · live view: svc webhooks listen'))
    io.out(`${lines.join('\n')}\n`)
  }

  /** Steps already done are listed before a failing step's error (nothing silently skipped). */
  protected override async catch(err: Error & { exitCode?: number }): Promise<never> {
    if (err instanceof FixtureStepError && err.done.length && !this.flags?.json && this.io) {
      this.note(`Steps done before the failure:\n${err.done.map((d: StepReport) => `  ✓ ${d.name} (${safeText(d.request)} → ${d.status})`).join('\n')}`)
    }
    return super.catch(err)
  }

  protected override async finally(err: Error | undefined): Promise<void> {
    await Promise.all(this.clients.map((c) => c.close().catch(() => {})))
    await super.finally(err)
  }
}
