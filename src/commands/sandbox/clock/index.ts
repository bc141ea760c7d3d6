import SandboxClockShow from './show.js'

/**
 * `svc sandbox clock` alone is `svc sandbox clock show`: a bare topic shows or lists what it holds, as
 * `svc sandbox deliveries` does, instead of printing help.
 */
export default class SandboxClock extends SandboxClockShow {
  static override summary = `${SandboxClockShow.summary} The same as \`svc sandbox clock show\`.`
  static override examples = ['<%= config.bin %> sandbox clock', '<%= config.bin %> sandbox clock --json | jq -r .now']
}
