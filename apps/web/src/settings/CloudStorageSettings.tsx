// The settings view's 'Cloud Storage Settings' section (docs/product.md §2 "Settings view"): a
// connect card for the cloud drive service (Google Drive), the file-hosting service (Dropbox) and
// OneDrive, the 'How it works' note, and the 'Available Providers' grid. A card whose provider this
// server has no client id for says so ([Note: provider availability] in vaults/providers.tsx); the
// others connect through the provider's sign-in popup and disconnect by revoking the token where
// the provider offers it, forgetting it here (storage/cloud/connect.ts).
import { ShieldCheck } from 'lucide-react';
import { useTranslation } from '../i18n/i18n.ts';
import { connectCloud, disconnectCloud } from '../storage/cloud/connect.ts';
import { connections, type CloudId } from '../storage/cloud/connections.ts';
import {
  connectionLabel,
  PROVIDERS,
  providerConnection,
  type ConnectionStatus,
  type ProviderEnv,
  useProviderEnv,
} from '../vaults/providers.tsx';
import { CloudConnectCard } from './CloudConnectCard.tsx';

/** The services with a connect card: the cloud drive and the file host of the spec, and OneDrive. */
const CONNECT_CARDS: readonly CloudId[] = ['googledrive', 'dropbox', 'onedrive'];

const subheading = 'font-semibold text-slate-900 dark:text-white';

export function CloudStorageSettings({ env: given }: { env?: ProviderEnv }) {
  const { t } = useTranslation();
  const live = useProviderEnv();
  const env = given ?? live;
  return (
    <section aria-labelledby="cloud-storage-title" className="space-y-5">
      <div>
        {/* Inside the settings view's Storage section (an h2), so one level down. */}
        <h3 id="cloud-storage-title" className="font-semibold text-slate-900 dark:text-white">
          {t('Cloud Storage Settings')}
        </h3>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {t('Connect a cloud account to keep a vault\u2019s encrypted files there.')}
        </p>
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        {CONNECT_CARDS.map((id) => (
          <CloudConnectCard
            key={id}
            provider={id}
            state={cardState(id, env)}
            onConnect={() => void connectCloud(id)}
            onDisconnect={() => void disconnectCloud(id)}
          />
        ))}
      </div>

      <section
        aria-labelledby="cloud-how-title"
        className="flex gap-3 rounded-2xl border border-indigo-200 bg-indigo-50 p-5 text-sm text-indigo-950 dark:border-indigo-900/70 dark:bg-indigo-950/40 dark:text-indigo-100"
      >
        <ShieldCheck
          aria-hidden="true"
          className="mt-0.5 size-5 shrink-0 text-indigo-600 dark:text-indigo-300"
        />
        <div>
          <h4 id="cloud-how-title" className="font-semibold">
            {t('How it works')}
          </h4>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            <li>
              {t('Files are encrypted in this browser before they reach any storage provider.')}
            </li>
            <li>
              {t(
                'The provider only ever holds ciphertext: it never sees your vault password, your keys or your file names.',
              )}
            </li>
            <li>
              {t(
                'The sign-in tokens of a connected account stay in this browser. They are never sent to our server.',
              )}
            </li>
          </ul>
        </div>
      </section>

      <section
        aria-labelledby="cloud-providers-title"
        className="rounded-2xl border border-slate-200 bg-white p-6 dark:border-slate-800 dark:bg-slate-900"
      >
        <h4 id="cloud-providers-title" className={subheading}>
          {t('Available Providers')}
        </h4>
        <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {PROVIDERS.map((p) => {
            const status = providerConnection(p.id, env);
            return (
              <li
                key={p.id}
                className="flex items-center gap-3 rounded-xl border border-slate-200 p-3 dark:border-slate-800"
              >
                <p.icon
                  aria-hidden="true"
                  className={`size-5 shrink-0 ${
                    status === 'connected'
                      ? 'text-indigo-600 dark:text-indigo-300'
                      : 'text-slate-500 dark:text-slate-400'
                  }`}
                />
                <span className="min-w-0">
                  <span className="block text-sm font-medium text-slate-900 dark:text-white">
                    {t(p.name)}
                  </span>
                  <StatusLine status={status} label={t(connectionLabel(p.id, status))} />
                </span>
              </li>
            );
          })}
        </ul>
      </section>
    </section>
  );
}

function cardState(id: CloudId, env: ProviderEnv) {
  const status = providerConnection(id, env);
  const passing = connections.passing(id);
  return status === 'failed' && passing?.status === 'failed'
    ? { status, error: passing.error }
    : { status };
}

function StatusLine({ status, label }: { status: ConnectionStatus; label: string }) {
  const ok = status === 'connected';
  return (
    <span
      className={`mt-0.5 flex items-center gap-1.5 text-xs ${
        ok ? 'text-emerald-700 dark:text-emerald-400' : 'text-slate-600 dark:text-slate-400'
      }`}
    >
      <span
        aria-hidden="true"
        className={`size-2 shrink-0 rounded-full ${ok ? 'bg-emerald-500' : 'bg-slate-400 dark:bg-slate-600'}`}
      />
      {label}
    </span>
  );
}
