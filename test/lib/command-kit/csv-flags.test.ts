import { describe, expect, it } from 'vitest'
import { csvFlags, csvOptions } from '../../../src/lib/command-kit/csv-flags.js'

describe('csvFlags', () => {
  it('declares --csv with the exclusions given, and --separator and --bom that need --csv', () => {
    const flags = csvFlags({ description: 'CSV.', exclusive: ['json'] })
    expect(Object.keys(flags)).toEqual(['csv', 'separator', 'bom'])
    expect(flags.csv.exclusive).toEqual(['json'])
    expect(flags.separator.relationships).toEqual([{ type: 'all', flags: ['csv'] }])
    expect(flags.bom.relationships).toEqual([{ type: 'all', flags: ['csv'] }])
  })

  it('reads the writer options; a bad separator is a usage error naming --separator', () => {
    expect(csvOptions({})).toEqual({ separator: ',', bom: false })
    expect(csvOptions({ separator: 'tab', bom: true })).toEqual({ separator: '\t', bom: true })
    expect(() => csvOptions({ separator: '0' })).toThrow(/--separator/)
  })
})
