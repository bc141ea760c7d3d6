/** One charge's lane as a fitted line (its cells: text/lane-cells.ts). */
import { FitText } from './FitText.js'
import type { Piece } from '../text/fit.js'
import { laneTail } from '../text/lane-cells.js'
import type { Lane } from '../view-models/lanes.js'

export { LANE_LEGEND, LANE_LEGEND_SHORT, laneCells, laneEndCells, laneTail, legendSegment } from '../text/lane-cells.js'

/** `tail`: false when `cells` already hold the lane's end (laneEndCells). */
export function ChargeLane({ lane, cells, width, showVerdict = true, tail = true }: { lane: Lane; cells: Piece[]; width: number; showVerdict?: boolean; tail?: boolean }) {
  return <FitText segments={[{ forms: [cells], priority: 1000 }, ...(tail ? laneTail(lane, showVerdict) : [])]} width={width} />
}
