import { Args } from '@oclif/core'
import { RAW_METHODS } from '../lib/api/raw-input.js'
import { BaseCommand } from '../lib/command-kit/base.js'
import { EVENT_TYPES } from '../lib/contract/event-types.js'

export default class Completion extends BaseCommand<typeof Completion> {
  static override summary = 'Print the shell completion script for bash, zsh or fish.'
  static override description =
    'Completes commands, flags and fixed values (statuses, --env test|live, event types, HTTP methods), generated ' +
    'from the installed commands so it never drifts. One command for the three shells: save its output where the shell ' +
    'loads completions, or source it for this shell only.'

  static override examples = [
    '<%= config.bin %> completion bash > ~/.local/share/bash-completion/completions/svc',
    '<%= config.bin %> completion zsh > ~/.zfunc/_svc   # with fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc',
    '<%= config.bin %> completion fish > ~/.config/fish/completions/svc.fish',
    'source <(<%= config.bin %> completion bash)   # this shell only',
  ]

  static override args = {
    shell: Args.string({ description: 'The shell to complete in.', required: true, options: ['bash', 'zsh', 'fish'] }),
  }

  async run(): Promise<void> {
    // shell/completions.js ships in the package beside dist/ and has no dependencies; the bundle carries it.
    const gen = (await import('../../shell/completions.js')) as unknown as {
      loadModel(root?: string, values?: { eventTypes: readonly string[]; methods: readonly string[] }): Promise<unknown>
      bashCompletion(model: unknown): string
      zshCompletion(model: unknown): string
      fishCompletion(model: unknown): string
    }
    // The value lists come from here, bundled with the command, so the single executable has them too.
    const model = await gen.loadModel(this.config.root, { eventTypes: EVENT_TYPES, methods: RAW_METHODS })
    const generate = { bash: gen.bashCompletion, zsh: gen.zshCompletion, fish: gen.fishCompletion }[this.args.shell as 'bash' | 'zsh' | 'fish']
    this.io.out(generate(model))
  }
}
