/** What `svc sandbox start` shows once the sandbox serves (sandbox-client/ready-view.ts). */
import { describe, expect, it } from 'vitest'
import { painter } from '../../../src/lib/output/color.js'
import { detachedNotes, keptProfilesNote, nextSteps, readyBanner, readyLines } from '../../../src/lib/sandbox-client/ready-view.js'

const sandbox = {
  baseUrl: 'http://127.0.0.1:41234',
  testKey: 'svc_test_4f9c2a7be1d04c6f8a3b5e7d9c1f2a4b',
  liveKey: 'svc_live_9a8b7c6d5e4f30211f2e3d4c5b6a7988',
  webhookSecret: 'whsec_5b1e0c9d8a7f6e5d4c3b2a1908f7e6d5',
}
const plain = painter(false)
const commands = (text: string) => text.split('\n').filter((l) => l.startsWith('  svc '))

describe('the next steps after `svc sandbox start`', () => {
  it('--no-profile: the first line exports the test key and secret the banner shows, ready to paste; every command carries --base-url of this sandbox', () => {
    const text = nextSteps({ sandbox, profiles: { written: false, madeDefault: false } }, plain)
    const lines = commands(text)
    expect(lines.length).toBeGreaterThanOrEqual(5)
    for (const line of lines) expect(line).toContain(`--base-url ${sandbox.baseUrl}`)
    // Not "export SVC_API_KEY=<test key>": the user would copy the key from the banner by hand (issue 29 item 25).
    expect(text).toContain(`  export SVC_API_KEY=${sandbox.testKey} SVC_WEBHOOK_SECRET=${sandbox.webhookSecret}\n`)
    expect(text).not.toContain('<test key>')
    expect(text).not.toContain(sandbox.liveKey)
    expect(text).not.toContain('--profile')
  })

  it('with the profiles written: --profile sandbox unless sandbox became the default', () => {
    const notDefault = commands(nextSteps({ sandbox, profiles: { written: true, madeDefault: false } }, plain))
    expect(notDefault[0]).toBe('  svc charges create --amount 1500 --profile sandbox')
    const asDefault = commands(nextSteps({ sandbox, profiles: { written: true, madeDefault: true } }, plain))
    expect(asDefault[0]).toBe('  svc charges create --amount 1500')
    expect(asDefault.join('\n')).not.toContain('--base-url')
  })
})

describe('the ready banner', () => {
  it('shows where it listens, both keys and the secret, in memory or where its data is, and the profiles written', () => {
    const text = readyBanner({ sandbox, profiles: { written: true, madeDefault: true } }, { speed: 60 }, plain)
    for (const part of [sandbox.baseUrl, sandbox.testKey, sandbox.liveKey, sandbox.webhookSecret, 'in memory', '60× wall time', 'sandbox is now the default']) expect(text).toContain(part)
    expect(readyBanner({ sandbox, dataDir: '/tmp/sb', profiles: { written: false, madeDefault: false } }, {}, plain)).toMatch(/Data\s+\/tmp\/sb\n/)
  })

  it('says the profiles were kept, and how to reach this one, when another sandbox holds them', () => {
    const kept = { sandbox, profiles: { written: false, madeDefault: false, keptFor: 'http://127.0.0.1:8787' } }
    expect(readyBanner(kept, {}, plain)).toContain('not written: sandbox and sandbox-live point at the sandbox running at http://127.0.0.1:8787')
    expect(keptProfilesNote(kept)).toContain(`export SVC_BASE_URL=${sandbox.baseUrl}`)
    expect(keptProfilesNote({ sandbox, profiles: { written: true, madeDefault: false } })).toBeUndefined()
  })
})

describe('the ready output when piped, and the notes after --detach', () => {
  it('piped: one name<TAB>value line per credential, for cut and read', () => {
    expect(readyLines({ sandbox, profiles: { written: true, madeDefault: false } })).toBe(
      `baseUrl\t${sandbox.baseUrl}\ntestKey\t${sandbox.testKey}\nliveKey\t${sandbox.liveKey}\nwebhookSecret\t${sandbox.webhookSecret}\n`,
    )
  })

  it('--detach: the pid, the log and how to stop it; the faults seed only when drawn at random, so the run can be replayed', () => {
    const detached = {
      sandbox: { ...sandbox, webhookFaults: { description: 'lose=0.1', seed: 42 } },
      profiles: { written: true, madeDefault: false },
      pid: 123,
      log: '/d/sandbox.log',
      stopCommand: 'svc sandbox stop',
    }
    expect(detachedNotes(detached, false)).toEqual([
      'Webhook faults seed 42 (drawn at random): add --seed 42 to replay the same faults.',
      'Running in the background (pid 123); log: /d/sandbox.log. Stop it with `svc sandbox stop`.',
    ])
    expect(detachedNotes({ ...detached, stopCommand: 'kill 123', stopAllCommand: 'svc sandbox stop --in-memory --all' }, true)).toEqual([
      'Running in the background (pid 123); log: /d/sandbox.log. Stop it with `kill 123` (or every in-memory one: `svc sandbox stop --in-memory --all`).',
    ])
  })
})
