/**
 * A withdrawal's lane (● processing ─ ● paid, or ✗ failed, with the end-to-end id that proves
 * the payment) or a product sale (● paid, the product and buyer), drawn below the charges.
 */
import type { Piece } from '../text/fit.js'
import { activityTail } from '../text/activity-cells.js'
import type { ActivityLane } from '../view-models/activity.js'
import { FitText } from './FitText.js'

export { activityCells, activityTail } from '../text/activity-cells.js'

export function ActivityRow({ lane, cells, width }: { lane: ActivityLane; cells: Piece[]; width: number }) {
  return <FitText segments={[{ forms: [cells], priority: 1000 }, ...activityTail(lane)]} width={width} />
}
