import { describe, expect, it } from 'vitest'
import ChargesCancel from '../../../src/commands/charges/cancel.js'
import ChargesCreate from '../../../src/commands/charges/create.js'
import ChargesGet from '../../../src/commands/charges/get.js'
import ChargesList from '../../../src/commands/charges/list.js'
import TestAdvance from '../../../src/commands/test/advance.js'

const commands = { 'charges create': ChargesCreate, 'charges list': ChargesList, 'charges get': ChargesGet, 'charges cancel': ChargesCancel, 'test advance': TestAdvance }

describe('--help of the charge commands', () => {
  it.each(Object.entries(commands))('%s has a summary, a description, described flags and at least two examples', (name, cmd) => {
    expect(cmd.summary).toBeTruthy()
    expect(cmd.description).toBeTruthy()
    const examples = (cmd.examples ?? []) as string[]
    expect(examples.length).toBeGreaterThanOrEqual(2)
    for (const ex of examples) expect(ex).toContain(`<%= config.bin %> ${name}`)
    for (const [flag, def] of Object.entries(cmd.flags ?? {})) expect((def as { description?: string }).description, flag).toBeTruthy()
  })

  it('list and cancel show the pipeline that cancels every charge awaiting payment, every page of them (--all)', () => {
    const pipeline = '<%= config.bin %> charges list -q --status awaiting_payment --all | <%= config.bin %> charges cancel -'
    expect(ChargesList.examples).toContain(pipeline)
    expect(ChargesCancel.examples).toContain(pipeline)
  })
})
