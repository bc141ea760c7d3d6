import ProfilesList from './list.js'

/**
 * `svc profiles` alone is `svc profiles list`: a bare topic shows or lists what it holds, as
 * `svc sandbox deliveries` does, instead of printing help.
 */
export default class Profiles extends ProfilesList {
  static override summary = `${ProfilesList.summary} The same as \`svc profiles list\`.`
  static override examples = ['<%= config.bin %> profiles', '<%= config.bin %> profiles --json']
}
