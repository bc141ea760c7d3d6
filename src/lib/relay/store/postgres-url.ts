/**
 * `--store postgres://user:password@host/db`: the URL may carry a password, and the relay prints
 * the store it uses and the errors it meets. Every message that names the URL goes through
 * `redactStoreUrl`, every error text through `redactSecretIn`, so the password is never printed
 * nor logged. No import of `pg` here: commands load this without paying for the client.
 */

/** True for the URLs the PostgreSQL store takes. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value)
}

/** The URL with its password (and any `password=` query parameter) replaced by `***`. */
export function redactStoreUrl(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    // Not parseable: hide whatever sits between `//user:` and `@`, the usual place of a password.
    return value.replace(/(\/\/[^/:@]*:)[^@/]*@/, '$1***@').replace(/(password=)[^&\s]*/gi, '$1***')
  }
  if (url.password) url.password = '***'
  for (const key of [...url.searchParams.keys()]) {
    if (/^(password|sslpassword)$/i.test(key)) url.searchParams.set(key, '***')
  }
  return url.toString()
}

/** The password the URL holds (decoded), to be scrubbed from error texts; undefined when none. */
export function passwordOf(value: string): string | undefined {
  try {
    const url = new URL(value)
    const fromQuery = url.searchParams.get('password') ?? undefined
    return url.password ? decodeURIComponent(url.password) : fromQuery
  } catch {
    return undefined
  }
}

/** `text` with every occurrence of the URL's password (raw or percent-encoded) replaced by `***`. */
export function redactSecretIn(text: string, storeUrl: string): string {
  const password = passwordOf(storeUrl)
  if (!password) return text
  let out = text
  for (const form of new Set([password, encodeURIComponent(password)])) out = out.split(form).join('***')
  return out
}
