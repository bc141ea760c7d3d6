/** Bearer authentication (spec part 5): the key of the request, and the environment it belongs to. */
import type { IncomingMessage } from 'node:http'
import { SandboxApiError } from '../api-error.js'
import type { SandboxStore } from '../store/store.js'
import type { Environment } from '../../contract/schemas.js'

export interface Authenticated {
  key: string
  environment: Environment
}

export function authenticate(store: SandboxStore, req: IncomingMessage): Authenticated {
  const header = req.headers.authorization
  const m = header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!m) {
    throw new SandboxApiError('invalid_api_key', 'Chave de API ausente: envie Authorization: Bearer <chave>.')
  }
  const record = store.findKey(m[1]!)
  if (!record) throw new SandboxApiError('invalid_api_key', 'Chave de API inválida.')
  if (record.revoked) throw new SandboxApiError('revoked_api_key', 'Chave de API revogada.')
  return { key: record.key, environment: record.environment }
}
