/**
 * One delivery on one line: when, what, verification, what the app answered, and the API's
 * verdict. On a narrow terminal the times received (when first), event id, time and subject go first;
 * the type, the verification, the app's answer and the verdict stay.
 */
import type { Piece } from '../text/fit.js'
import { deliveryTail } from '../text/delivery-cells.js'
import type { FeedDelivery } from '../view-models/listen-feed.js'
import { FitText } from './FitText.js'

export { deliveryCells, deliveryTail } from '../text/delivery-cells.js'

export function DeliveryRow({ delivery, cells, width }: { delivery: FeedDelivery; cells: Piece[]; width: number }) {
  return <FitText segments={[{ forms: [cells], priority: 1000 }, ...deliveryTail(delivery)]} width={width} />
}
