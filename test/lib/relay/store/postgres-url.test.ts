import { describe, expect, it } from 'vitest'
import { isPostgresUrl, redactSecretIn, redactStoreUrl } from '../../../../src/lib/relay/store/postgres-url.js'

describe('the store URL never shows its password', () => {
  it('masks the password of the URL and of its query', () => {
    expect(redactStoreUrl('postgres://relay:s3cr%40t@db.internal:5432/relay')).toBe('postgres://relay:***@db.internal:5432/relay')
    expect(redactStoreUrl('postgresql://db/relay?user=r&password=s3cret')).toBe('postgresql://db/relay?user=r&password=***')
    expect(redactStoreUrl('postgres://relay@db/relay')).toBe('postgres://relay@db/relay')
  })

  it('masks it even in a URL that does not parse', () => {
    expect(redactStoreUrl('postgres://relay:s3cret@[bad/relay')).not.toContain('s3cret')
  })

  it('scrubs the password, raw or percent-encoded, from an error text', () => {
    const url = 'postgres://relay:p%40ss-word@db/relay'
    expect(redactSecretIn('auth failed for p@ss-word and p%40ss-word', url)).toBe('auth failed for *** and ***')
    expect(redactSecretIn('nothing to hide', 'postgres://relay@db/relay')).toBe('nothing to hide')
  })

  it('tells a PostgreSQL URL from anything else', () => {
    expect(isPostgresUrl('postgres://db/x')).toBe(true)
    expect(isPostgresUrl('postgresql://db/x')).toBe(true)
    expect(isPostgresUrl('/var/lib/relay')).toBe(false)
  })
})
