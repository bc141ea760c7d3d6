/**
 * The MCP door's edge of the typed operations (charges/operator-input.ts, services/): a bad
 * input's field paths become the tool's arguments, in the one usage error the CLI's flags make
 * too. The tools' arguments are named as the inputs' paths, but where `argumentOf` says otherwise.
 */

/** Runs an operation, naming a bad input's fields as the tool's arguments. */
export async function inArguments<T>(run: () => Promise<T>, argumentOf: (path: string) => string = (path) => path): Promise<T> {
  try {
    return await run()
  } catch (e) {
    // Loaded only for a refusal: the server's start-up (`initialize`) does not pay for them.
    const [{ InputError, inDoorWords }, { flagsError }] = await Promise.all([import('../charges/operator-input.js'), import('../charges/flag-issues.js')])
    if (!(e instanceof InputError)) throw e
    throw flagsError(
      e.issues.map((i) => ({ field: argumentOf(i.path), message: inDoorWords(i.message, argumentOf) })),
      'See the tool description.',
      'arguments',
    )
  }
}
