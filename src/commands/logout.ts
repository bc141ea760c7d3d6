import { Flags } from '@oclif/core'
import { BaseCommand } from '../lib/command-kit/base.js'
import { type LogoutResult, logout } from '../lib/config/profiles.js'

export default class Logout extends BaseCommand<typeof Logout, LogoutResult> {
  static override summary = 'Remove the stored API key and webhook secret of a profile.'
  static override description =
    'Acts on --profile, else SVC_PROFILE, else the default profile; --all acts on every profile. The profile keeps its ' +
    'name and base URL, so `svc login --profile NAME` needs only the key again; `svc profiles remove NAME` deletes it whole. ' +
    'Logging out of a profile that holds no credentials is not an error.'

  static override examples = ['<%= config.bin %> logout', '<%= config.bin %> logout --profile staging', '<%= config.bin %> logout --all --json']

  static override flags = {
    profile: Flags.string({ char: 'p', description: 'Profile to log out of (or SVC_PROFILE; default: the default profile).', exclusive: ['all'] }),
    all: Flags.boolean({ description: 'Log out of every profile.' }),
  }

  async run(): Promise<LogoutResult> {
    return logout({ profile: this.flags.profile, all: this.flags.all }, { env: this.io.env, openProfiles: this.factory.openProfiles })
  }

  protected override toJson(result: LogoutResult): unknown {
    return { loggedOut: result.loggedOut.map((p) => p.name), alreadyLoggedOut: result.already }
  }

  protected override render(result: LogoutResult): void {
    if (result.loggedOut.length === 0 && result.already.length === 0) return this.note('Not logged in: no profiles are stored.')
    for (const p of result.loggedOut) {
      const removed = [p.apiKey && `key ${p.apiKey}`, p.webhookSecret && `webhook secret ${p.webhookSecret}`].filter(Boolean).join(' and ')
      this.note(`Logged out of profile ${p.name} (removed ${removed}).`)
    }
    for (const name of result.already) this.note(`Profile ${name} was already logged out.`)
  }
}
