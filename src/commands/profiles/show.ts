import { Args } from '@oclif/core'
import { BaseCommand } from '../../lib/command-kit/base.js'
import { profileDetails } from '../../lib/config/profile-view.js'
import { showProfile } from '../../lib/config/profiles.js'
import type { IO } from '../../lib/output/io.js'

type Shown = Awaited<ReturnType<typeof showProfile>>

export default class ProfilesShow extends BaseCommand<typeof ProfilesShow, Shown> {
  static override summary = 'Show one profile, key and secret masked.'
  static override description =
    'Shows the named profile, else the one SVC_PROFILE names, else the default: environment, base URL, masked API key and ' +
    'webhook secret, and where the config file is. --json masks them too. In a pipe: `field<TAB>value` lines.'

  static override examples = ['<%= config.bin %> profiles show', '<%= config.bin %> profiles show sandbox --json']

  static override args = {
    name: Args.string({ description: 'Name of the profile (default: SVC_PROFILE, else the default profile).' }),
  }

  async run(): Promise<Shown> {
    return showProfile(this.args.name, { env: this.io.env, openProfiles: this.factory.openProfiles })
  }

  protected override render(profile: Shown, io: IO): void {
    io.out(profileDetails(profile, io.isStdoutTTY, io.color))
  }
}
