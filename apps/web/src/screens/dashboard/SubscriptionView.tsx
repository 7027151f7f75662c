// The subscription view (docs/product.md §2 "Subscription page"), also shown at /subscription: the Plans
// work's screen (screens/subscription/SubscriptionView.tsx).
export { SubscriptionView } from '../subscription/SubscriptionView.tsx';
