import RelayChannelList from './list.js'

/** `svc relay channel` alone is `svc relay channel list`, as the other bare topics. */
export default class RelayChannel extends RelayChannelList {
  static override summary = `${RelayChannelList.summary} The same as \`svc relay channel list\`.`
  static override examples = ['<%= config.bin %> relay channel', '<%= config.bin %> relay channel --json']
}
