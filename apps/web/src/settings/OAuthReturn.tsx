// The pages a provider's sign-in popup comes back to (docs/product.md §2 /dropbox-auth:
// 'Completing Dropbox authentication...'; /google-auth and /onedrive-auth the same for Google Drive
// and OneDrive). They hand what the provider put in the address (the code and state in the query,
// or the token in the fragment) to the app's window (storage/cloud/popup.ts) and close. Nothing is
// stored or sent anywhere else.
import { Loader2 } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from '../i18n/i18n.ts';
import { OAUTH_CHANNEL } from '../storage/cloud/popup.ts';

export function OAuthReturn({ provider }: { provider: string }) {
  const { t } = useTranslation();
  useEffect(() => {
    const params = [window.location.search.slice(1), window.location.hash.slice(1)]
      .filter(Boolean)
      .join('&');
    const message = { params };
    // Drop the token from the address before anything else can read it.
    window.history.replaceState(null, '', window.location.pathname);
    const channel = new BroadcastChannel(OAUTH_CHANNEL);
    channel.postMessage(message);
    channel.close();
    const opener = window.opener as Window | null;
    try {
      opener?.postMessage(message, window.location.origin);
    } catch {
      // no opener (a cut relation): the channel carried it
    }
    const t = setTimeout(() => window.close(), 100);
    return () => clearTimeout(t);
  }, []);
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-6 dark:bg-slate-950">
      <p role="status" className="flex items-center gap-3 text-slate-700 dark:text-slate-200">
        <Loader2 aria-hidden="true" className="size-5 animate-spin" />
        {t('Completing {{provider}} authentication...', { provider })}
      </p>
    </main>
  );
}
