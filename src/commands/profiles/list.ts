import { BaseCommand } from '../../lib/command-kit/base.js'
import { profileRowsTsv, profileTable } from '../../lib/config/profile-view.js'
import { listProfiles, type ProfileSummary } from '../../lib/config/profiles.js'
import type { IO } from '../../lib/output/io.js'

export default class ProfilesList extends BaseCommand<typeof ProfilesList, ProfileSummary[]> {
  static override summary = 'List the stored profiles, keys masked.'
  static override description =
    'Shows each profile: name, environment (from the key prefix), base URL, masked API key and webhook secret; `*` marks ' +
    'the default. When stdout is not a terminal: one tab-separated row per profile, no header, columns name, environment, ' +
    'baseUrl, apiKey (masked), default (true/false).'

  static override examples = ['<%= config.bin %> profiles list', '<%= config.bin %> profiles list --json', '<%= config.bin %> profiles list | cut -f1']

  async run(): Promise<ProfileSummary[]> {
    return listProfiles({ env: this.io.env, openProfiles: this.factory.openProfiles })
  }

  protected override render(profiles: ProfileSummary[], io: IO): void {
    if (!io.isStdoutTTY) return io.out(profileRowsTsv(profiles))
    if (profiles.length === 0) return this.note('No profiles yet. Run `svc login`, or `svc sandbox start` for a local sandbox.')
    io.out(profileTable(profiles, io.color))
  }
}
