/**
 * What `svc sandbox start` shows once the sandbox serves (the command's render, in the foreground
 * and after --detach alike): the ready banner on a terminal's stdout, the next steps on its
 * stderr, and why the profiles were kept when another sandbox holds them.
 */
import { SANDBOX_LIVE_PROFILE, SANDBOX_PROFILE } from '../config/profiles.js'
import type { Paint } from '../output/color.js'

/** A sandbox that serves, as the ready output shows it (services/sandbox-start.ts's SandboxReady). */
export interface ReadyView {
  sandbox: { baseUrl: string; testKey: string; liveKey: string; webhookSecret: string; panelUrl?: string; webhookFaults?: { description: string; seed: number } }
  /** Undefined in memory. */
  dataDir?: string
  /** What became of the sandbox profiles. `keptFor`: not written, they point at this other running sandbox. */
  profiles: { written: boolean; madeDefault: boolean; keptFor?: string }
}

/** Why the profiles were not written, and how to reach this sandbox anyway (stderr). */
export function keptProfilesNote(started: ReadyView): string | undefined {
  const { keptFor } = started.profiles
  if (!keptFor) return undefined
  return (
    `Kept the profiles ${SANDBOX_PROFILE} and ${SANDBOX_LIVE_PROFILE}: they point at the sandbox still running at ${keptFor}. ` +
    `To use this one, export SVC_BASE_URL=${started.sandbox.baseUrl} and SVC_API_KEY=<its test key> (and SVC_WEBHOOK_SECRET), ` +
    'or stop the other sandbox and start this one again.'
  )
}

/** The piped ready output (stdout): one `name<TAB>value` line each, for `cut` and `read`. */
export function readyLines(started: ReadyView): string {
  const { sandbox } = started
  return `baseUrl\t${sandbox.baseUrl}\ntestKey\t${sandbox.testKey}\nliveKey\t${sandbox.liveKey}\nwebhookSecret\t${sandbox.webhookSecret}\n`
}

/** A sandbox `--detach` left running in the background, as its parent reports it (services/sandbox-detach.ts's DetachedSandbox). */
export interface DetachedView extends ReadyView {
  pid: number
  log: string
  stopCommand: string
  stopAllCommand?: string
}

/**
 * The parent's notes after `--detach` (stderr, with --json too: stdout stays the one JSON line,
 * and a script may want the pid): the webhook faults seed it drew, if the user gave none (the
 * foreground logs it; detached, that log is a file, and without it the run cannot be replayed),
 * then where it runs and how to stop it.
 */
export function detachedNotes(started: DetachedView, seedGiven: boolean): string[] {
  const notes: string[] = []
  const faults = started.sandbox.webhookFaults
  if (faults && !seedGiven) notes.push(`Webhook faults seed ${faults.seed} (drawn at random): add --seed ${faults.seed} to replay the same faults.`)
  const orAll = started.stopAllCommand ? ` (or every in-memory one: \`${started.stopAllCommand}\`)` : ''
  notes.push(`Running in the background (pid ${started.pid}); log: ${started.log}. Stop it with \`${started.stopCommand}\`${orAll}.`)
  return notes
}

/** The ready banner for a terminal (stdout): where it listens and the credentials to use. */
export function readyBanner(started: ReadyView, opts: { speed?: number; chaos?: number }, paint: Paint): string {
  const { sandbox, dataDir, profiles } = started
  const rows: Array<[string, string]> = [
    ['Base URL', paint('bold', sandbox.baseUrl)],
    ['Test key', sandbox.testKey],
    ['Live key', sandbox.liveKey],
    ['Webhook secret', sandbox.webhookSecret],
    ...(sandbox.panelUrl ? ([['Panel', paint('cyan', sandbox.panelUrl)]] as Array<[string, string]>) : []),
    ['Data', dataDir ?? paint('yellow', 'in memory (gone when it stops)')],
  ]
  if (opts.speed !== undefined && opts.speed !== 1) rows.push(['Clock', `${opts.speed}× wall time`])
  if (opts.chaos) rows.push(['Chaos', paint('yellow', `${Math.round(opts.chaos * 100)}% of requests get a fault`)])
  const faults = sandbox.webhookFaults
  if (faults) rows.push(['Webhook faults', paint('yellow', `${faults.description} (seed ${faults.seed}: --seed ${faults.seed} replays them)`)])
  if (profiles.keptFor) {
    const use = `use this one with --base-url ${sandbox.baseUrl} and its test key in SVC_API_KEY`
    rows.push(['Profiles', paint('yellow', `not written: ${SANDBOX_PROFILE} and ${SANDBOX_LIVE_PROFILE} point at the sandbox running at ${profiles.keptFor} (${use})`)])
  }
  if (profiles.written) {
    const made = profiles.madeDefault ? `; ${SANDBOX_PROFILE} is now the default` : ''
    rows.push(['Profiles', `${SANDBOX_PROFILE} (test key), ${SANDBOX_LIVE_PROFILE} (live key)${made}`])
  }
  const width = Math.max(...rows.map(([k]) => k.length))
  const lines = rows.map(([k, v]) => `  ${paint('dim', k.padEnd(width))}  ${v}`)
  return `${paint(['bold', 'inverse', 'green'], ' SANDBOX ')} ${paint('bold', 'Local sandbox ready')}\n\n${lines.join('\n')}\n`
}

/**
 * What to try next (stderr, terminal only). Each line must reach this sandbox: through the
 * `sandbox` profile when it was written, else through --base-url and the credentials exported
 * by the first line (never the default profile, which may be the real service). That line is
 * ready to paste, with the test key and webhook secret the banner just printed on this terminal:
 * asking to copy them from the banner by hand was the friction (issue 29 item 25).
 */
export function nextSteps(started: ReadyView, paint: Paint): string {
  const { profiles, sandbox } = started
  let target: string
  let lead = ''
  if (!profiles.written) {
    target = ` --base-url ${sandbox.baseUrl}`
    const why = profiles.keptFor ? `the profiles point at the sandbox at ${profiles.keptFor}` : '--no-profile'
    lead = `${paint('dim', `No profile was written (${why}): paste the first line, then the commands read $SVC_API_KEY and $SVC_WEBHOOK_SECRET.`)}\n`
  } else {
    target = profiles.madeDefault ? '' : ` --profile ${SANDBOX_PROFILE}`
  }
  const steps = [
    ...(profiles.written ? [] : [`export SVC_API_KEY=${sandbox.testKey} SVC_WEBHOOK_SECRET=${sandbox.webhookSecret}`]),
    `svc charges create --amount 1500${target}`,
    `svc webhooks listen --forward localhost:3000/webhooks${target}`,
    `svc test advance CHARGE_ID --status paid_pending_settlement${target}`,
    `svc sandbox clock advance 25h${profiles.written ? '' : target}`,
    `svc sandbox deliveries${profiles.written ? '' : target}`,
  ]
  return `\n${paint('bold', 'Next steps')}\n${lead}${steps.map((s) => `  ${paint('cyan', s)}`).join('\n')}\n\n${paint('dim', 'Press Ctrl+C to stop.')}\n`
}
