import SandboxAccountShow from './show.js'

/**
 * `svc sandbox account` alone is `svc sandbox account show`: a bare topic shows what it holds, as
 * `svc sandbox clock` does, instead of printing help.
 */
export default class SandboxAccount extends SandboxAccountShow {
  static override summary = `${SandboxAccountShow.summary} The same as \`svc sandbox account show\`.`
  static override examples = ['<%= config.bin %> sandbox account', '<%= config.bin %> sandbox account --json | jq .settlementDelayHours']
}
