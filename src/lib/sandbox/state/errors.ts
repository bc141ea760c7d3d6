/** A state that cannot be used; `field` is what to fix (`format`, `tables.charges[0].id`…). */
export class SandboxStateError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message)
    this.name = 'SandboxStateError'
  }
}
