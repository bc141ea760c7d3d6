import SandboxWebhookShow from './show.js'

/**
 * `svc sandbox webhook` alone is `svc sandbox webhook show`: a bare topic shows or lists what it holds, as
 * `svc sandbox deliveries` does, instead of printing help.
 */
export default class SandboxWebhook extends SandboxWebhookShow {
  static override summary = `${SandboxWebhookShow.summary} The same as \`svc sandbox webhook show\`, except with no URL set.`
  static override description =
    'The URL the sandbox delivers to, whether it is active or was deactivated after 24 h without a successful delivery, and ' +
    'when a delivery last succeeded. With no URL set it says so and how to set one, and exits 0 (`svc sandbox webhook show` exits 4, for scripts). ' +
    'Piped: `key<TAB>value` lines (`url` empty when none is set); --json: `"url": null` when none is set.'

  static override examples = ['<%= config.bin %> sandbox webhook', '<%= config.bin %> sandbox webhook --env live']
  protected override noUrlIsAnAnswer = true
}
