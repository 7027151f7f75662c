// policyTexts.ts on demand: loaded once, shared by every screen that asks.
import { useEffect, useState } from 'react';
import type * as Texts from './policyTexts.ts';

export type PolicyTexts = typeof Texts;

let loaded: PolicyTexts | undefined;
let loading: Promise<PolicyTexts> | undefined;

export function loadPolicyTexts(): Promise<PolicyTexts> {
  loading ??= import('./policyTexts.ts').then(
    (texts) => (loaded = texts),
    (err: unknown) => {
      loading = undefined; // the next caller tries again
      throw err;
    },
  );
  return loading;
}

/** The texts once loaded; asks for them while `wanted`. */
export function usePolicyTexts(wanted: boolean): PolicyTexts | undefined {
  const [texts, setTexts] = useState(loaded);
  useEffect(() => {
    if (!wanted || texts) return;
    let live = true;
    loadPolicyTexts().then(
      (t) => live && setTexts(t),
      () => {}, // shown as before the policy was known; the next render asks again
    );
    return () => {
      live = false;
    };
  }, [wanted, texts]);
  return texts;
}

/**
 * /auth's route loader (routes.tsx): what the sign-up policy or a disabled account says of the
 * `error` a refused Google sign-in came back with, so that the page's notice has it from the
 * first paint; null without one. Only such a page waits for the texts; any other draws at once.
 */
export async function authPageLoader({ request }: { request: Request }): Promise<string | null> {
  const code = new URL(request.url).searchParams.get('error');
  if (!code) return null;
  const texts = await loadPolicyTexts();
  if (code === texts.ACCOUNT_DISABLED_CODE) return texts.adminMessages.accountDisabled;
  return texts.signupErrorText(code) ?? null;
}
