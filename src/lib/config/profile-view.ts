/**
 * How profiles look: a table on a terminal, tab-separated rows (no header, stable columns) in a
 * pipe. Only ProfileSummary goes in, so only masked secrets can come out.
 */
import { painter } from '../output/color.js'
import { renderTable } from '../output/table.js'
import type { ProfileSummary } from './profiles.js'

/** TSV column order, for scripts: name, environment, baseUrl, apiKey (masked), default (true/false). */
export function profileRowsTsv(profiles: ProfileSummary[]): string {
  return profiles.map((p) => `${[p.name, p.environment ?? '', p.baseUrl ?? '', p.apiKey ?? '', String(p.default)].join('\t')}\n`).join('')
}

export function profileTable(profiles: ProfileSummary[], color: boolean): string {
  const paint = painter(color)
  const columns = [{ header: '' }, { header: 'NAME' }, { header: 'ENV' }, { header: 'BASE URL', width: 48 }, { header: 'API KEY' }, { header: 'WEBHOOK SECRET' }]
  const rows = profiles.map((p) => [
    p.default ? paint('green', '*') : ' ',
    p.default ? paint('bold', p.name) : p.name,
    envLabel(p, paint),
    p.baseUrl ?? paint('dim', '-'),
    p.apiKey ?? paint('dim', '(logged out)'),
    p.webhookSecret ?? paint('dim', '-'),
  ])
  return renderTable(columns, rows, paint)
}

function envLabel(p: ProfileSummary, paint: ReturnType<typeof painter>): string {
  if (p.environment === 'test') return paint('yellow', 'test')
  if (p.environment === 'live') return paint('red', 'live')
  return paint('dim', '-')
}

/** `profiles show`: aligned "label  value" lines on a terminal, `field<TAB>value` lines in a pipe. */
export function profileDetails(p: ProfileSummary & { configFile: string }, tty: boolean, color: boolean): string {
  const paint = painter(color)
  if (!tty) {
    const fields: Array<[string, string]> = [
      ['name', p.name],
      ['default', String(p.default)],
      ['environment', p.environment ?? ''],
      ['baseUrl', p.baseUrl ?? ''],
      ['apiKey', p.apiKey ?? ''],
      ['webhookSecret', p.webhookSecret ?? ''],
      ...(p.relayUrl ? ([['relayUrl', p.relayUrl]] as Array<[string, string]>) : []),
      ...(p.relayToken ? ([['relayToken', p.relayToken]] as Array<[string, string]>) : []),
      ['configFile', p.configFile],
    ]
    return fields.map(([k, v]) => `${k}\t${v}\n`).join('')
  }
  const lines: Array<[string, string]> = [
    ['Profile', p.default ? `${paint('bold', p.name)} ${paint('green', '(default)')}` : paint('bold', p.name)],
    ['Environment', envLabel(p, paint)],
    ['Base URL', p.baseUrl ?? paint('dim', '-')],
    ['API key', p.apiKey ?? paint('dim', '(logged out)')],
    ['Webhook secret', p.webhookSecret ?? paint('dim', '-')],
    ...(p.relayUrl ? ([['Relay', p.relayUrl]] as Array<[string, string]>) : []),
    ...(p.relayToken ? ([['Relay token', p.relayToken]] as Array<[string, string]>) : []),
    ['Config file', p.configFile],
  ]
  const width = Math.max(...lines.map(([k]) => k.length))
  return lines.map(([k, v]) => `${paint('dim', k.padEnd(width))}  ${v}\n`).join('')
}
