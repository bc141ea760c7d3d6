/**
 * Which one command a plain invocation runs, decided before oclif builds its Config (issue 39.1):
 * oclif's Config of every plugin and command (each manifest parsed, every command, permutation and
 * topic registered, the help plugin loaded) is ~6 % of the CPU of `svc charges get`, which needs
 * one command. When this names the command, packaging/entries/cli.js hands oclif the plugins with
 * that command alone in their manifests, and oclif runs as ever: its execute, Config, hooks,
 * normalizeArgv, Command.run and parse. Anything else (help, --version, a topic, an unknown
 * command, a command of another plugin) gets the whole Config, as before.
 *
 * ROUTES (packaging/build-bundle.js, commandRoutes) is what oclif's whole Config answers, computed
 * at build time from that Config itself: every id `config.commandIDs` holds, with what
 * `config.findCommand(id)` gives for it.
 */
import { normalizeArgv } from '@oclif/core/help'

/**
 * The command `argv` runs, `{ plugin, key }` (its plugin and id in that plugin's manifest), when
 * the whole Config would run it straight away; undefined when oclif must see every command.
 * `routes`: { [id]: { plugin, key, direct, strict, args } } for every command id of the whole
 * Config (packaging/build-bundle.js, commandRoutes), null when no command may take this path.
 */
export function plainCommand(argv, { routes, pjson }) {
  if (!routes || argv.length === 0 || argv[0].startsWith('-')) return undefined
  // oclif's main shows help for any of its help flags before `--`, and the version for these
  // flags first: only oclif's own path answers them.
  const help = new Set(['--help', ...(pjson.oclif.additionalHelpFlags ?? [])])
  const version = new Set(['--version', ...(pjson.oclif.additionalVersionFlags ?? [])])
  if (version.has(argv[0]) || argv.some((a) => help.has(a))) return undefined
  // The whole Config's table of commands, as normalizeArgv reads it.
  const table = { topicSeparator: pjson.oclif.topicSeparator ?? ':', pjson, commandIDs: Object.keys(routes), findCommand: (id) => routes[id] }
  const [id] = normalizeArgv(table, [...argv])
  const route = Object.hasOwn(routes, id) ? routes[id] : undefined
  return route?.direct ? { plugin: route.plugin, key: route.key } : undefined
}
