import RelayTokenList from './list.js'

/** `svc relay token` alone is `svc relay token list`, as the other bare topics. */
export default class RelayToken extends RelayTokenList {
  static override summary = `${RelayTokenList.summary} The same as \`svc relay token list\`.`
  static override examples = ['<%= config.bin %> relay token', '<%= config.bin %> relay token --json']
}
