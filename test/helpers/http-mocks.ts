/**
 * HTTP mocks (nock), checked once for every test in test/setup.ts, like gh's httpmock `Verify`: a
 * mock that no request used fails the test that set it up, naming it. So a test never asserts
 * `scope.isDone()` itself; a test that expects no request at all sets up no mock and checks
 * `requestsWithoutMock()` (nock sees every request, answered or not).
 */
import nock from 'nock'

let unanswered: string[] = []

nock.emitter.on('no match', (req: { method?: string; url?: string; href?: string; protocol?: string; host?: string; hostname?: string; path?: string }) => {
  const url = req.url ?? req.href ?? `${req.protocol ?? 'http:'}//${req.host ?? req.hostname ?? ''}${req.path ?? ''}`
  unanswered.push(`${req.method ?? 'GET'} ${url}`)
})

/** The requests, since this test began, that reached no mock (those to loopback servers included). */
export function requestsWithoutMock(origin?: string): string[] {
  return origin === undefined ? [...unanswered] : unanswered.filter((r) => r.split(' ')[1]?.startsWith(origin))
}

/** After each test: fail naming the mocks no request used, then clear them all for the next test. */
export function verifyHttpMocks(): void {
  const pending = nock.pendingMocks()
  nock.cleanAll()
  unanswered = []
  if (pending.length > 0) {
    throw new Error(
      `${pending.length} HTTP ${pending.length === 1 ? 'mock was' : 'mocks were'} set up but never requested (an unused mock is a bug: the request was not sent, or went elsewhere):\n  ${pending.join('\n  ')}`,
    )
  }
}
