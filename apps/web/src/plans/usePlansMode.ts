// Whether this server runs as one's own instance (PLANS_MODE=self-hosted, issue 33; told by
// GET /api/auth-config): then the web app shows no pricing, no checkout, no trial and no upgrade
// prompt. Until the answer is in, and if it cannot be read, it is the SaaS app as before.
import { useAuthConfig } from '../auth/useAccount.ts';

export function useSelfHosted(): boolean {
  return useAuthConfig().data?.plans === 'self-hosted';
}
