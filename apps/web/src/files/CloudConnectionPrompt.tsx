// The spec's prompt on the page of a vault whose cloud account is not connected here (issue 26;
// docs/product.md §2 "File browser"): headed '{provider} Not Connected', it says
// 'Please connect {provider} to upload/download/delete files.' and offers 'Connect {provider}',
// the same sign-in as Settings' Connect (storage/cloud/connect.ts), with Settings' words for a
// connection that failed. It is an alert, so a screen reader hears it the moment the connection
// is lost; it goes away by itself once the account is connected (useCloudConnection.ts).
import { CloudOff, Loader2, RotateCw } from 'lucide-react';
import { useId } from 'react';
import { buttonClass } from '../components/buttonStyles.ts';
import { isPopupBlocked, PopupSteps } from '../settings/PopupSteps.tsx';
import { connectCloud } from '../storage/cloud/connect.ts';
import { connectionTexts } from './cloudConnection.ts';
import type { LostConnection } from './useCloudConnection.ts';
import { useTranslation } from '../i18n/i18n.ts';

export function CloudConnectionPrompt({
  connection,
  onConnected,
  className = '',
}: {
  connection: LostConnection;
  /** After a successful Connect from this prompt (which then goes away): where the focus goes. */
  onConnected?: () => void;
  className?: string;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const texts = connectionTexts(connection.name);
  const busy = connection.status === 'connecting';
  const connect = async () => {
    if (await connectCloud(connection.id)) onConnected?.();
  };
  return (
    <section
      role="alert"
      aria-labelledby={titleId}
      className={`flex flex-wrap items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100 ${className}`}
    >
      <CloudOff
        aria-hidden="true"
        className="mt-0.5 size-5 shrink-0 text-amber-700 dark:text-amber-300"
      />
      <div className="min-w-0 flex-1 basis-60">
        <h3 id={titleId} className="font-semibold">
          {texts.title}
        </h3>
        <p className="mt-1 text-sm">{texts.prompt}</p>
        {connection.error && (
          <p className="mt-2 text-sm font-medium text-red-700 dark:text-red-300">
            {t(connection.error)}
          </p>
        )}
        {isPopupBlocked(connection.error) && <PopupSteps className="mt-1" />}
      </div>
      <button
        type="button"
        disabled={busy}
        onClick={() => void connect()}
        className={buttonClass('primary', 'md', 'shrink-0 self-center')}
      >
        {busy ? (
          <>
            <Loader2 aria-hidden="true" className="size-4 animate-spin" /> {t('Connecting...')}
          </>
        ) : (
          <>
            {connection.status === 'failed' && <RotateCw aria-hidden="true" className="size-4" />}
            {texts.connect}
          </>
        )}
      </button>
    </section>
  );
}
