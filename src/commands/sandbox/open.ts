import { spawn } from 'node:child_process'
import { Args, Flags } from '@oclif/core'
import { PanelCommand } from '../../lib/command/sandbox-panel.js'
import { UsageError } from '../../lib/errors.js'

const PAGES = ['charges', 'deliveries', 'withdrawals', 'sales', 'webhook', 'keys', 'account', 'clock', 'bank'] as const

export default class SandboxOpen extends PanelCommand<typeof SandboxOpen> {
  static override summary = 'Open the sandbox\'s web panel in your browser (or print its URL).'
  static override description =
    'The panel of the running sandbox: charges live, a charge\'s QR, timeline and deliveries, the delivery log with resend, ' +
    'the webhook URL, keys, account, clock, and the sandbox bank that pays a QR. The URL carries a one-time ticket valid ' +
    'for 60 s (then a cookie keeps you in), obtained with the sandbox profile\'s key. PAGE is one of ' +
    `${PAGES.join(', ')}, or a charge id. Without a graphical session (or with --print, or piped) it prints the URL instead.`

  static override examples = [
    '<%= config.bin %> sandbox open',
    '<%= config.bin %> sandbox open bank',
    '<%= config.bin %> sandbox open 01a20e8d8eae000000000005',
    '<%= config.bin %> sandbox open deliveries --env live --print',
  ]

  static override args = { page: Args.string({ description: `A page (${PAGES.join(', ')}) or a charge id.`, default: 'charges' }) }

  static override flags = {
    env: Flags.string({ description: 'Environment shown (default: the key\'s).', options: ['test', 'live'] }),
    print: Flags.boolean({ description: 'Print the URL instead of opening a browser.' }),
  }

  async run(): Promise<void> {
    const page = this.args.page
    const isCharge = /^[0-9a-f]{24}$/.test(page)
    if (!isCharge && !(PAGES as readonly string[]).includes(page)) {
      throw new UsageError(`PAGE must be one of ${PAGES.join(', ')}, or a charge id (24 hexadecimal characters), not "${page}".`, { field: 'page' })
    }
    const env = (this.flags.env as 'test' | 'live' | undefined) ?? (await this.credentials()).environment
    const { url } = await (await this.panel()).panelLink()
    const next = `/panel/${isCharge ? `charges/${page}` : page}?env=${env}`
    const full = `${url}&next=${encodeURIComponent(next)}`
    if (this.flags.json) return this.printJson({ url: full })
    if (this.flags.print || !this.io.isStdoutTTY || !canOpenBrowser(this.io.env)) {
      this.io.out(`${full}\n`)
      if (this.io.isStderrTTY && !this.flags.print) this.note('No browser could be opened here: open this URL on this machine within 60 s.')
      return
    }
    const opener = process.platform === 'darwin' ? ['open', full] : process.platform === 'win32' ? ['cmd', '/c', 'start', '', full] : ['xdg-open', full]
    const ok = await new Promise<boolean>((resolve) => {
      const child = spawn(opener[0]!, opener.slice(1), { stdio: 'ignore', detached: true })
      child.once('error', () => resolve(false))
      child.once('spawn', () => {
        child.unref()
        resolve(true)
      })
    })
    if (!ok) {
      this.io.out(`${full}\n`)
      this.note('Could not start a browser: open this URL within 60 s.')
      return
    }
    this.note(`Opened the sandbox panel (${next}).`)
  }
}

function canOpenBrowser(env: NodeJS.ProcessEnv): boolean {
  if (env.CI) return false
  if (process.platform === 'linux') return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY)
  return true
}
