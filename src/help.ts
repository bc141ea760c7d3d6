/**
 * oclif's help, with each command listed once. oclif counts a topic as having children when any
 * topic name *contains* `name:` (so `account` looked like a topic because of `sandbox:account:set`,
 * and was listed under TOPICS and COMMANDS), and lists a command that also has subcommands
 * (`sandbox deliveries`, `sandbox deliveries resend`) under both TOPICS and COMMANDS. Here a
 * topic has children only when a name *starts with* `name:`, and such a command is listed once,
 * as the topic. src/root-help.ts renders the root help the same way without loading oclif.
 */
import { Help, type Interfaces } from '@oclif/core'

export default class SvcHelp extends Help {
  protected override get sortedTopics(): Interfaces.Topic[] {
    const all = this.config.topics
    const seen = new Set<string>()
    return all
      .filter((topic) => all.some((sub) => sub.name.startsWith(`${topic.name}:`)))
      .filter((topic) => this.opts.all || !topic.hidden)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .filter((topic) => !seen.has(topic.name) && seen.add(topic.name))
  }

  override async showTopicHelp(topic: Interfaces.Topic): Promise<void> {
    const { name } = topic
    const depth = name.split(':').length
    const subTopics = this.sortedTopics.filter((t) => t.name.startsWith(`${name}:`) && t.name.split(':').length === depth + 1)
    const commands = this.sortedCommands.filter((c) => c.id.startsWith(`${name}:`) && c.id.split(':').length === depth + 1 && !subTopics.some((t) => t.name === c.id))
    this.log(this.formatTopic(topic))
    if (subTopics.length > 0) {
      this.log(this.formatTopics(subTopics))
      this.log('')
    }
    if (commands.length > 0) {
      this.log(this.formatCommands(commands))
      this.log('')
    }
  }
}
