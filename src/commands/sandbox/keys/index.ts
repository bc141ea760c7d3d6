import SandboxKeysList from './list.js'

/**
 * `svc sandbox keys` alone is `svc sandbox keys list`: a bare topic shows or lists what it holds, as
 * `svc sandbox deliveries` does, instead of printing help.
 */
export default class SandboxKeys extends SandboxKeysList {
  static override summary = `${SandboxKeysList.summary} The same as \`svc sandbox keys list\`.`
  static override examples = ['<%= config.bin %> sandbox keys', '<%= config.bin %> sandbox keys --json']
}
