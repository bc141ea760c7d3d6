import { painter } from '../../../lib/output/color.js'
import { PanelCommand } from '../../../lib/command-kit/sandbox-panel.js'
import { keysTable, keysTsv } from '../../../lib/sandbox-client/panel-view.js'
import type { IO } from '../../../lib/output/io.js'
import type { PanelKey } from '../../../lib/sandbox-client/panel-client.js'

export default class SandboxKeysList extends PanelCommand<typeof SandboxKeysList, { data: PanelKey[] }> {
  static override summary = "List the sandbox's API keys (masked), test and live, with their state."
  static override description = 'Every key the local sandbox accepts or once accepted, masked as svc_test_…a1b2. A revoked key is answered 401 ' + 'revoked_api_key. Piped: `key env state createdAt`, tab-separated.'

  static override examples = ['<%= config.bin %> sandbox keys list', "<%= config.bin %> sandbox keys list --json | jq '.data[] | select(.revoked | not)'"]

  async run(): Promise<{ data: PanelKey[] }> {
    const { data } = await (await this.panel()).listKeys()
    return { data }
  }

  protected override render({ data }: { data: PanelKey[] }, io: IO): void {
    io.out(io.isStdoutTTY ? keysTable(data, painter(io.color), io.columns) : keysTsv(data))
  }
}
