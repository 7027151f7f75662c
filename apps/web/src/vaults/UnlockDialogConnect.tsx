// The Unlock Vault dialog for a vault whose provider needs an account connection that this
// browser lacks (docs/product.md §2 "Unlock dialog", with the provider's name): it asks for the
// connection first, instead of the password (UnlockDialog.tsx).
import { CloudOff } from 'lucide-react';
import type { RefObject } from 'react';
import { Link } from 'react-router';
import type { Vault } from '@sealvault/protocol';
import { useTranslation } from '../i18n/i18n.ts';
import { Modal } from '../components/Modal.tsx';
import { buttonClass } from '../components/buttonStyles.ts';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { connectCloud } from '../storage/cloud/connect.ts';
import { connections, type CloudId } from '../storage/cloud/connections.ts';
import { providerConnection, providerInfo, useProviderEnv } from './providers.tsx';

export function ConnectFirst({
  vault,
  open,
  onCancel,
  fallbackFocus,
}: {
  vault: Vault;
  open: boolean;
  onCancel: () => void;
  fallbackFocus?: RefObject<HTMLElement | null> | undefined;
}) {
  const { t } = useTranslation();
  const provider = providerInfo(vault.provider_type).name;
  // The spec's prompt for a vault whose provider account is not connected in this browser.
  const texts = {
    title: t('{{provider}} Not Connected', { provider }),
    prompt: t("You must connect your {{provider}} account to access this vault's files.", {
      provider,
    }),
    required: t('Please connect to {{provider}} to unlock this vault.', { provider }),
  };
  const env = useProviderEnv();
  const id = vault.provider_type as CloudId;
  const status = providerConnection(vault.provider_type, env);
  // Connect right here (the provider's popup) where this server has the provider; otherwise only
  // Settings can say why it cannot be connected.
  const canConnect = status === 'disconnected' || status === 'failed' || status === 'connecting';
  const passing = connections.passing(id);
  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && onCancel()}
      size="sm"
      fallbackFocus={fallbackFocus}
      title={t('Unlock Vault')}
      description={vault.name}
      footer={
        <DialogFooter
          onCancel={onCancel}
          cancelDisabled={false}
          extra={
            <Link
              to="/dashboard?view=settings"
              className={buttonClass(canConnect ? 'secondary' : 'primary')}
            >
              {t('Go to Settings')}
            </Link>
          }
          submit={canConnect ? t('Connect {{provider}}', { provider }) : undefined}
          busyText={t('Connecting...')}
          busy={status === 'connecting'}
          onSubmit={() => void connectCloud(id)}
        />
      }
    >
      <div className="space-y-4">
        <p className="text-sm text-slate-700 dark:text-slate-300">{texts.required}</p>
        <section
          aria-labelledby="connect-first-title"
          className="flex gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100"
        >
          <CloudOff
            aria-hidden="true"
            className="mt-0.5 size-5 shrink-0 text-amber-700 dark:text-amber-300"
          />
          <div>
            <h3 id="connect-first-title" className="font-semibold">
              {texts.title}
            </h3>
            <p className="mt-1 text-sm">{texts.prompt}</p>
          </div>
        </section>
        {passing?.status === 'failed' && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
            {t(passing.error)}
          </p>
        )}
      </div>
    </Modal>
  );
}
