import { Args } from '@oclif/core'
import { BaseCommand } from '../../lib/command-kit/base.js'
import { type RemoveResult, removeProfile } from '../../lib/config/profiles.js'

export default class ProfilesRemove extends BaseCommand<typeof ProfilesRemove, RemoveResult> {
  static override summary = 'Delete a profile: its key, webhook secret and base URL.'
  static override description =
    'Deletes the profile from the config file. When it was the default, no profile is the default afterwards: choose ' +
    'one with `svc profiles use NAME`. To keep the profile and drop only its credentials, use `svc logout --profile NAME`.'

  static override examples = ['<%= config.bin %> profiles remove staging', '<%= config.bin %> profiles remove sandbox-live --json']

  static override args = {
    name: Args.string({ description: 'Name of the profile.', required: true }),
  }

  async run(): Promise<RemoveResult> {
    return removeProfile(this.args.name, { env: this.io.env, openProfiles: this.factory.openProfiles })
  }

  protected override toJson(result: RemoveResult): unknown {
    return result.removed
  }

  protected override render(result: RemoveResult): void {
    this.note(`Removed profile ${result.removed.name}.`)
    if (result.defaultCleared && result.remaining.length > 0) {
      this.note(`There is no default profile now: choose one with \`svc profiles use NAME\` (${result.remaining.join(', ')}).`)
    }
  }
}
