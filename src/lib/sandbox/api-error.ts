/**
 * An error the sandbox answers with: the HTTP status comes from the one table in
 * contract/errors.ts, the body is spec 2.9's shape (the server adds the requestId).
 */
import { STATUS_OF_CODE } from '../contract/errors.js'
import type { ErrorDetail } from '../contract/schemas.js'

export class SandboxApiError extends Error {
  readonly code: string
  readonly status: number
  readonly details?: ErrorDetail[]
  /** Extra response headers (Retry-After). */
  readonly headers: Record<string, string>

  constructor(code: string, message: string, opts: { details?: ErrorDetail[]; status?: number; headers?: Record<string, string> } = {}) {
    super(message)
    this.name = 'SandboxApiError'
    this.code = code
    this.status = opts.status ?? STATUS_OF_CODE[code] ?? 500
    this.details = opts.details
    this.headers = opts.headers ?? {}
  }

  body(requestId: string): { error: Record<string, unknown> } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details ? { details: this.details } : {}),
        requestId,
      },
    }
  }
}

export function invalidRequest(details: ErrorDetail[], message = 'Requisição inválida: verifique os campos em details.'): SandboxApiError {
  return new SandboxApiError('invalid_request', message, { details })
}

export function chargeNotFound(): SandboxApiError {
  return new SandboxApiError('charge_not_found', 'Cobrança não encontrada nesta conta e neste ambiente.')
}

export function withdrawalNotFound(): SandboxApiError {
  return new SandboxApiError('withdrawal_not_found', 'Saque não encontrado nesta conta e neste ambiente.')
}
