import { describe, expect, it } from 'vitest'
import { type Comparison, checkBudget, confirmed, formatBudget, suitesToConfirm, worseBy } from '../../bench/lib/budget.js'

const startup = (mine: number | number[], theirs: number | number[], name = 'svc --version'): Comparison => ({ suite: 'startup', name, mine, theirs, better: 'lower', unit: ' ms' })
const forwarder = (mine: number | number[], theirs: number | number[]): Comparison => ({ suite: 'forwarder', name: 'deliveries/s', mine, theirs, better: 'higher', unit: '/s' })

describe('the performance budget (bench/run.js --check)', () => {
  it('passes figures within 10 % of the other build, in either direction of "better"', () => {
    const result = checkBudget([startup(27.5, 25), forwarder(9_100, 10_000), startup(20, 25), forwarder(12_000, 10_000)])
    expect(result.ok).toBe(true)
    expect(result.verdicts.map((v) => v.status)).toEqual(['ok', 'ok', 'ok', 'ok'])
  })

  it('fails a time more than 10 % longer, and a rate more than 10 % lower (measured as the other build over this one)', () => {
    const result = checkBudget([startup(27.6, 25), forwarder(9_000, 10_000), forwarder(9_091, 10_000)])
    expect(result.ok).toBe(false)
    // 10 000 / 9 000 = 11.1 % worse; 10 000 / 9 091 = 9.99 %: within.
    expect(result.regressions.map((r) => [r.suite, r.mine])).toEqual([
      ['startup', 27.6],
      ['forwarder', 9_000],
    ])
    expect(worseBy({ mine: 27.6, theirs: 25, better: 'lower' })).toBeCloseTo(0.104)
  })

  it('holds exactly 10 % worse to be within the budget (no float rounding flips it)', () => {
    expect(checkBudget([startup(1.1, 1), startup(27.5, 25)]).ok).toBe(true)
  })

  it('judges runs in pairs taken in the same round, so a load that moves between rounds does not look like a regression', () => {
    // The machine got slower round after round; each round, this build was as fast as the other.
    const mine = [5_500, 2_600, 2_580, 1_980, 2_200]
    const theirs = [5_400, 2_650, 2_600, 2_000, 2_150]
    // Comparing the best runs or the medians alone would see what the drift does to each series.
    const result = checkBudget([forwarder(mine, theirs)])
    expect(result.ok).toBe(true)
    expect(Math.abs(result.verdicts[0]!.worse)).toBeLessThan(0.02)
    // …and a real 20 % loss in every round is caught, whatever the drift.
    expect(
      checkBudget([
        forwarder(
          theirs.map((t) => t * 0.8),
          theirs,
        ),
      ]).regressions,
    ).toHaveLength(1)
    // One bad pair out of five does not decide.
    expect(checkBudget([startup([40, 41, 90, 40, 39], [40, 40, 41, 40, 40])]).ok).toBe(true)
  })

  it('fails a figure that could not be measured (also one failed run among the pairs), rather than passing it', () => {
    const result = checkBudget([startup(Number.NaN, 25), forwarder(10_000, 0), startup([40, Number.NaN], [40, 40], 'svc --help')])
    expect(result.ok).toBe(false)
    expect(result.unmeasured).toHaveLength(3)
    expect(result.regressions).toHaveLength(0)
    expect(() => checkBudget([startup([1, 2], [1])])).toThrow(/pairs/)
  })

  it('fails when a required suite gave no figure at all (it crashed, or could not run the other build)', () => {
    const result = checkBudget([startup(25, 25)], { required: ['startup', 'forwarder', 'sandbox'] })
    expect(result.ok).toBe(false)
    expect(result.missingSuites).toEqual(['forwarder', 'sandbox'])
    expect(formatBudget(result).join('\n')).toMatch(/FAIL forwarder: no figure/)
  })

  it('takes another tolerance, and refuses a nonsense one', () => {
    expect(checkBudget([startup(26.5, 25)], { tolerance: 0.05 }).ok).toBe(false)
    expect(checkBudget([startup(26.5, 25)], { tolerance: 0.1 }).ok).toBe(true)
    expect(() => checkBudget([], { tolerance: Number.NaN })).toThrow(/tolerance/)
    expect(() => checkBudget([{ ...startup(1, 1), better: 'more' as 'lower' }])).toThrow(/better/)
  })

  it('says in its summary which figure regressed, by how much, and that the budget is exceeded', () => {
    const text = formatBudget(checkBudget([startup(30, 25), forwarder(10_000, 10_000)])).join('\n')
    expect(text).toMatch(/FAIL startup: svc --version\s+30\.0 ms vs\s+25\.0 ms\s+\(\+20\.0 % worse, lower is better\)/)
    expect(text).toMatch(/ok {3}forwarder: deliveries\/s/)
    expect(text).toMatch(/Budget: EXCEEDED \(1 regressed, 0 not measured\)/)
  })
})

describe('a regression must show twice (the second pass over the suites that regressed)', () => {
  const first = checkBudget([startup(30, 25), forwarder(10_000, 10_000), startup(60, 50, 'svc --help')])

  it('measures again only the suites with a regressed figure', () => {
    expect(suitesToConfirm(first)).toEqual(['startup'])
    expect(suitesToConfirm(checkBudget([startup(25, 25)]))).toEqual([])
  })

  it('keeps a figure regressed only when the second pass regressed too', () => {
    const second = checkBudget([startup(25.5, 25), startup(61, 50, 'svc --help')])
    const result = confirmed(first, second)
    expect(result.ok).toBe(false)
    expect(result.regressions.map((r) => r.name)).toEqual(['svc --help'])
    expect(result.verdicts.find((v) => v.name === 'svc --version')).toMatchObject({ status: 'ok', confirmedFrom: expect.closeTo(0.2) })
    expect(formatBudget(result).join('\n')).toMatch(/first pass \+20\.0 %, not confirmed/)
  })

  it('passes when no regression is confirmed, and fails when the second pass could not measure it', () => {
    expect(confirmed(first, checkBudget([startup(25, 25), startup(50, 50, 'svc --help')])).ok).toBe(true)
    expect(confirmed(first, checkBudget([startup(25, 25)])).unmeasured.map((v) => v.name)).toEqual(['svc --help'])
  })
})
