/**
 * A split charge's division (spec 6.3), read off a charge: the answer's type has no `split`, the
 * field only split charges carry. Types only, so a view reading it loads no zod.
 */
import type { Charge } from './schemas.js'
import type { Split } from './split-charges.js'

export function splitOf(charge: Charge): Split | undefined {
  return (charge as Charge & { split?: Split }).split
}
