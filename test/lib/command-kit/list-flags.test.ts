import { describe, expect, it } from 'vitest'
import { listFlags, listOutput } from '../../../src/lib/command-kit/list-flags.js'

describe('listFlags', () => {
  it('declares --ndjson, -q and --csv (with --separator, --bom) once, each excluding the others and --json', () => {
    const flags = listFlags({ ndjson: 'N.', quiet: 'Q.', csv: 'C.' })
    expect(Object.keys(flags)).toEqual(['ndjson', 'quiet', 'csv', 'separator', 'bom'])
    expect(flags.ndjson.exclusive).toEqual(['json', 'quiet', 'csv'])
    expect(flags.quiet.exclusive).toEqual(['json', 'ndjson', 'csv'])
    expect(flags.quiet.char).toBe('q')
    expect(flags.csv.exclusive).toEqual(['json', 'ndjson', 'quiet'])
    expect([flags.ndjson.description, flags.quiet.description, flags.csv.description]).toEqual(['N.', 'Q.', 'C.'])
  })
})

describe('listOutput', () => {
  it('chooses the format once and reads the CSV options; a bad --separator is a usage error before anything runs', () => {
    expect(listOutput({ csv: true, separator: ';', bom: true }, { isStdoutTTY: true })).toEqual({ format: 'csv', csv: { separator: ';', bom: true } })
    expect(listOutput({}, { isStdoutTTY: false }).format).toBe('tsv')
    expect(() => listOutput({ csv: true, separator: '0' }, { isStdoutTTY: false })).toThrow(/--separator/)
  })
})
