import SandboxWebhookShow from './show.js'

/**
 * `svc sandbox webhook` alone is `svc sandbox webhook show`: a bare topic shows or lists what it holds, as
 * `svc sandbox deliveries` does, instead of printing help.
 */
export default class SandboxWebhook extends SandboxWebhookShow {
  static override summary = `${SandboxWebhookShow.summary} The same as \`svc sandbox webhook show\`.`
  static override examples = ['<%= config.bin %> sandbox webhook', '<%= config.bin %> sandbox webhook --env live']
}
