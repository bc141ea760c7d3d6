import { describe, expect, it } from 'vitest'
import { describeParseError } from '../../../src/lib/command-kit/parse-error.js'

const command = { usage: 'svc charges get', flags: { limit: { description: 'How many.' }, status: { description: 'Only this status.', char: 's' } } }

describe('oclif’s parse errors on one line of stderr', () => {
  it('names a missing argument with its description, and the command’s --help', () => {
    const err = Object.assign(new Error('Missing 1 required arg:\nid  Charge id.\nSee more help with --help'), { args: [{ name: 'id', description: 'Charge id.' }] })
    expect(describeParseError(err, command)).toEqual({ message: 'Missing required argument: id (Charge id)', hint: 'See `svc charges get --help`.' })
  })

  it('says an unknown flag is unknown, without oclif’s help line', () => {
    const { message } = describeParseError(new Error('Nonexistent flag: --lmit\nSee more help with --help'), command)
    expect(message).toBe('Unknown flag: --lmit')
  })

  it('puts a bad value and its reason in one sentence', () => {
    const { message, hint } = describeParseError(new Error('Parsing --limit \n\tExpected an integer but received: ten\nSee more help with --help'))
    expect(message).toBe('--limit: Expected an integer but received: ten')
    expect(hint).toBe('See --help for the flags and examples.')
  })

  it('names a missing required flag with what it is for', () => {
    expect(describeParseError(new Error('Missing required flag limit'), command).message).toBe('Missing required flag: --limit (How many)')
  })

  it('explains that arguments after a multi-value flag were taken as its values, only when that flag was typed', () => {
    const raw = 'Missing 1 required arg:\nid  Charge id.\nNote: --status allows multiple values. Because of this you need to provide all arguments before providing that flag.'
    const err = () => Object.assign(new Error(raw), { args: [{ name: 'id', description: 'Charge id.' }] })
    expect(describeParseError(err(), { ...command, argv: ['--status', 'paid', 'abc'] }).hint).toContain('Put the arguments before --status (it takes several values), or after `--`.')
    expect(describeParseError(err(), { ...command, argv: [] }).hint).toBe('See `svc charges get --help`.')
  })
})
