import ChargesList from './list.js'

/**
 * `svc charges` alone is `svc charges list`: a bare topic shows or lists what it holds, as
 * `svc sandbox deliveries` does, instead of printing help.
 */
export default class Charges extends ChargesList {
  static override summary = `${ChargesList.summary} The same as \`svc charges list\`.`
  static override examples = ['<%= config.bin %> charges', '<%= config.bin %> charges --status settled']
}
