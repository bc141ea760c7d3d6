/** How the built binary answers a user who mistyped or asked for help. */
import { describe, expect, it } from 'vitest'
import { svc } from '../helpers/cli.js'

describe('usage of the built binary', () => {
  it('answers an unknown command with exit 2 and the closest command, no prompt', async () => {
    const r = await svc(['chargs', 'list'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('Did you mean `svc charges list`?')
    expect(r.stdout).toBe('')
  })

  it('points a user of the retired `svc autocomplete` at `svc completion`', async () => {
    const r = await svc(['autocomplete', 'zsh'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('`svc completion bash|zsh|fish`')
    expect(r.stdout).toBe('')
  })

  it('prints help for a topic and a command through `svc help`', async () => {
    const topic = await svc(['help', 'charges'])
    expect(topic.exitCode).toBe(0)
    expect(topic.stdout).toContain('charges list')
    const cmd = await svc(['help', 'charges', 'create'])
    expect(cmd.stdout).toContain('--amount')
    expect(cmd.stdout).toContain('EXAMPLES')
  })

  it('prints the version', async () => {
    const r = await svc(['--version'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/^svc-cli\/\d+\.\d+\.\d+ /)
  })
})
