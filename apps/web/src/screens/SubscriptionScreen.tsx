// /subscription (docs/product.md §2 "Subscription page"): the subscription view, also shown at
// /dashboard?view=subscription.
import { SubscriptionView } from '../subscription/SubscriptionView.tsx';

export function SubscriptionScreen() {
  return <SubscriptionView />;
}
