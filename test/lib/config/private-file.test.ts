import { mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { assertSecretLink, NotARegularFileError, SecretLinkError, writePrivateFile } from '../../../src/lib/config/private-file.js'

const fresh = () => mkdtempSync(join(tmpdir(), 'svc-private-'))

describe('one symlink rule for every file that holds a secret', () => {
  it('follows a link only inside svc’s own home, to a file that exists there', () => {
    const home = fresh()
    mkdirSync(join(home, 'real'))
    writeFileSync(join(home, 'real', 'config.json'), '{}')
    symlinkSync(join(home, 'real', 'config.json'), join(home, 'config.json'))
    expect(() => assertSecretLink(join(home, 'config.json'), home)).not.toThrow()
  })

  it('refuses a link out of the home, and a dangling one, saying where it leads', () => {
    const home = fresh()
    const outside = join(fresh(), 'shared.json')
    writeFileSync(outside, '{}')
    symlinkSync(outside, join(home, 'out.json'))
    symlinkSync(join(home, 'gone.json'), join(home, 'dangling.json'))
    expect(() => assertSecretLink(join(home, 'out.json'), home)).toThrow(expect.objectContaining({ kind: 'symlink', target: outside, dangling: false }))
    expect(() => assertSecretLink(join(home, 'dangling.json'), home)).toThrow(expect.objectContaining({ target: join(home, 'gone.json'), dangling: true }))
  })

  it('without a home (a file the user named, a run file) every link is refused and left as it was', () => {
    const dir = fresh()
    writeFileSync(join(dir, 'target'), 'the target')
    symlinkSync(join(dir, 'target'), join(dir, 'link'))
    expect(() => assertSecretLink(join(dir, 'link'))).toThrow(SecretLinkError)
    expect(() => writePrivateFile(join(dir, 'link'), 'secret')).toThrow(NotARegularFileError)
    expect(readFileSync(join(dir, 'target'), 'utf8')).toBe('the target')
  })

  it('writes a new file 0600, whole', () => {
    const path = join(fresh(), 'secret.json')
    writePrivateFile(path, '{"k":1}')
    expect(readFileSync(path, 'utf8')).toBe('{"k":1}')
    expect(statSync(path).mode & 0o777).toBe(0o600)
  })
})
