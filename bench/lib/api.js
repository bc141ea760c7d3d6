/** Direct HTTP calls the benchmarks make to set things up (not measured). */

export async function api(sandbox, method, path, body, key = sandbox.testKey) {
  const res = await fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(method === 'POST' && path === '/v1/charges' ? { 'idempotency-key': crypto.randomUUID() } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text)
}

/** A valid test CPF (check digits correct), as the sandbox requires. */
export const TEST_CPF = '52998224725'

export function createCharge(sandbox, extra = {}) {
  return api(sandbox, 'POST', '/v1/charges', { amountInCents: 1500, payerTaxNumber: TEST_CPF, ...extra })
}
