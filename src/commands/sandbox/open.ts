import { Args, Flags } from '@oclif/core'
import { PanelCommand } from '../../lib/command-kit/sandbox-panel.js'
import { PANEL_PAGES, runSandboxOpen } from '../../lib/services/sandbox-open.js'
import type { IO } from '../../lib/output/io.js'
import type { Environment } from '../../lib/contract/schemas.js'

type OpenResult = Awaited<ReturnType<typeof runSandboxOpen>>

export default class SandboxOpen extends PanelCommand<typeof SandboxOpen, OpenResult> {
  static override summary = "Open the sandbox's web panel in your browser (or print its URL)."
  static override description =
    "The panel of the running sandbox: charges live, a charge's QR, timeline and deliveries, the delivery log with resend, " +
    'the webhook URL, keys, account, clock, and the sandbox bank that pays a QR. The URL carries a one-time ticket valid ' +
    "for 60 s (then a cookie keeps you in), obtained with the sandbox profile's key. PAGE is one of " +
    `${PANEL_PAGES.join(', ')}, or a charge id. Without a graphical session (or with --print, or piped) it prints the URL instead. ` +
    "Only an http(s) URL on the sandbox's own origin is opened or printed (anything else the server answers exits 1), and " +
    "it goes to the system's opener (open, xdg-open, rundll32 on Windows) as one argument, never through a shell."

  static override examples = [
    '<%= config.bin %> sandbox open',
    '<%= config.bin %> sandbox open bank',
    '<%= config.bin %> sandbox open 01a20e8d8eae000000000005',
    '<%= config.bin %> sandbox open deliveries --env live --print',
  ]

  static override args = { page: Args.string({ description: `A page (${PANEL_PAGES.join(', ')}) or a charge id.`, default: 'charges' }) }

  static override flags = {
    env: Flags.string({ description: "Environment shown (default: the key's).", options: ['test', 'live'] }),
    print: Flags.boolean({ description: 'Print the URL instead of opening a browser.' }),
  }

  async run(): Promise<OpenResult> {
    return runSandboxOpen({
      page: this.args.page,
      env: this.flags.env as Environment | undefined,
      target: async () => {
        const { baseUrl, environment } = await this.credentials()
        return { baseUrl, environment }
      },
      panelLink: async () => (await this.panel()).panelLink(),
      print: this.flags.json || this.flags.print || !this.io.isStdoutTTY || !canOpenBrowser(this.io.env),
    })
  }

  protected override toJson(result: OpenResult): unknown {
    return { url: result.url }
  }

  protected override render(result: OpenResult, io: IO): void {
    if (result.kind === 'printed') {
      io.out(`${result.url}\n`)
      if (io.isStderrTTY && !this.flags.print) this.note('No browser could be opened here: open this URL on this machine within 60 s.')
      return
    }
    if (result.kind === 'failed') {
      io.out(`${result.url}\n`)
      this.note('Could not start a browser: open this URL within 60 s.')
      return
    }
    this.note(`Opened the sandbox panel (${result.next}).`)
  }
}

function canOpenBrowser(env: NodeJS.ProcessEnv): boolean {
  if (env.CI) return false
  if (process.platform === 'linux') return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY)
  return true
}
