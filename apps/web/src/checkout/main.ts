// The entry of checkout.html, the checkout's own page (checkoutPage.ts).
import '../index.css';
import { runCheckoutPage } from './checkoutPage.ts';

void runCheckoutPage(document);
