import { Args } from '@oclif/core'
import { BaseCommand } from '../../lib/command-kit/base.js'
import { type ProfileSummary, useProfile } from '../../lib/config/profiles.js'

export default class ProfilesUse extends BaseCommand<typeof ProfilesUse, ProfileSummary> {
  static override summary = 'Make a profile the default.'
  static override description = 'Commands use the default profile when neither --profile nor SVC_PROFILE names one (and no --api-key / SVC_API_KEY is given). A name that is not a stored profile exits 4 (not found).'

  static override examples = ['<%= config.bin %> profiles use sandbox', '<%= config.bin %> profiles use production']

  static override args = {
    name: Args.string({ description: 'Name of the profile.', required: true }),
  }

  async run(): Promise<ProfileSummary> {
    return useProfile(this.args.name, { env: this.io.env, openProfiles: this.factory.openProfiles })
  }

  protected override render(profile: ProfileSummary): void {
    const where = [profile.environment, profile.baseUrl].filter(Boolean).join(', ')
    this.note(`Default profile: ${profile.name}${where ? ` (${where})` : ''}`)
  }
}
