// /auth (docs/product.md §2): sign in, sign up and the steps that hang off them (auth/AuthPage.tsx).
import { AuthPage } from '../auth/AuthPage.tsx';

export function AuthScreen() {
  return <AuthPage />;
}
