// The rows of a secret's card for each item type (issue 20). Sensitive values (a password, plain
// text, a card's number and code, an identity's ID numbers, an SSH private key, an API key, a
// hidden custom field) are masked until shown, and each can be copied without being shown. A login
// with a TOTP key shows its current code, the seconds it stays valid, and a copy button.
import { Copy, Eye, EyeOff, Globe } from 'lucide-react';
import { useState } from 'react';
import { IDENTITY_LABELS } from './ItemFormParts.tsx';
import { allUrls, cardType, type Secret } from './model.ts';
import { useTotp } from './tools/useTotp.ts';
import { currentLanguage, useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export const iconButton =
  'rounded-lg p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white';

const MASK = '••••••••••••';

type OnCopy = (label: string, value: string) => void;

/** A label inside a sentence ('Copy username'): English lowers it, German keeps its nouns. */
const inSentence = (label: string) => (currentLanguage() === 'en' ? label.toLowerCase() : label);

export function CardBody({ secret, onCopy }: { secret: Secret; onCopy: OnCopy }) {
  const { t } = useTranslation();
  const type = cardType(secret);
  // A login shown as plain text keeps its websites and fields on the card.
  const urls =
    type === 'login' || type === 'apikey' || secret.type === 'login' ? allUrls(secret) : [];
  return (
    <>
      {type === 'text' && (
        <MaskedRow label={t('Content')} value={secret.notes} onCopy={onCopy}>
          {(shown) =>
            shown ? (
              <pre className="font-sans break-words whitespace-pre-wrap text-slate-800 dark:text-slate-200">
                {secret.notes}
              </pre>
            ) : (
              <span className="font-mono">{MASK}</span>
            )
          }
        </MaskedRow>
      )}
      {type === 'login' && (
        <>
          {secret.username && (
            <Row label={t('Username')} onCopy={() => onCopy(t('Username'), secret.username)}>
              <span className="break-all">{secret.username}</span>
            </Row>
          )}
          {secret.password && (
            <MaskedRow
              label={t('Password')}
              value={secret.password}
              onCopy={onCopy}
              testId="secret-password"
            />
          )}
          {secret.totp && <TotpRow uri={secret.totp} onCopy={onCopy} />}
        </>
      )}
      {type === 'card' && secret.card && (
        <>
          <TextRow label={t('Cardholder')} value={secret.card.cardholderName} onCopy={onCopy} />
          <TextRow label={t('Brand')} value={secret.card.brand} />
          {secret.card.number && (
            <MaskedRow
              label={t('Card number')}
              value={secret.card.number}
              mask={`•••• ${secret.card.number.slice(-4)}`}
              onCopy={onCopy}
            />
          )}
          {(secret.card.expMonth || secret.card.expYear) && (
            <Row label={t('Expires')}>
              {secret.card.expMonth.padStart(2, '0')}/{secret.card.expYear}
            </Row>
          )}
          {secret.card.code && (
            <MaskedRow
              label={t('Security code')}
              value={secret.card.code}
              mask="•••"
              onCopy={onCopy}
            />
          )}
        </>
      )}
      {type === 'identity' &&
        secret.identity &&
        IDENTITY_LABELS.map(([k, label, hidden]) => {
          const value = secret.identity?.[k] ?? '';
          if (value === '') return null;
          return hidden ? (
            <MaskedRow key={k} label={t(label)} value={value} onCopy={onCopy} />
          ) : (
            <TextRow key={k} label={t(label)} value={value} onCopy={onCopy} />
          );
        })}
      {type === 'ssh' && secret.ssh && (
        <>
          {secret.ssh.publicKey && (
            <Row
              label={t('Public key')}
              onCopy={() => onCopy(t('Public key'), secret.ssh!.publicKey)}
            >
              <span className="line-clamp-2 font-mono text-xs break-all">
                {secret.ssh.publicKey}
              </span>
            </Row>
          )}
          {secret.ssh.fingerprint && (
            <Row label={t('Fingerprint')}>
              <span className="font-mono text-xs break-all">{secret.ssh.fingerprint}</span>
            </Row>
          )}
          {secret.ssh.privateKey && (
            <MaskedRow label={t('Private key')} value={secret.ssh.privateKey} onCopy={onCopy}>
              {(shown) =>
                shown ? (
                  <pre className="max-h-48 overflow-auto font-mono text-xs whitespace-pre">
                    {secret.ssh!.privateKey}
                  </pre>
                ) : (
                  <span className="font-mono">{MASK}</span>
                )
              }
            </MaskedRow>
          )}
        </>
      )}
      {type === 'apikey' && secret.apikey && (
        <>
          <TextRow label={t('Username')} value={secret.apikey.username} onCopy={onCopy} />
          {secret.apikey.key && (
            <MaskedRow label={t('Key')} value={secret.apikey.key} onCopy={onCopy} />
          )}
        </>
      )}
      {urls.map((u, i) => (
        <Row
          key={`${i}:${u}`}
          label={i === 0 ? t('Website') : t('Website {{n}}', { n: formatNumber(i + 1) })}
        >
          <span className="flex items-center gap-1.5 break-all">
            <Globe aria-hidden="true" className="size-3.5 shrink-0" /> {u}
          </span>
        </Row>
      ))}
      {(secret.fields ?? []).map((f, i) =>
        f.hidden ? (
          <MaskedRow key={i} label={f.name || t('Field')} value={f.value} onCopy={onCopy} />
        ) : (
          <TextRow key={i} label={f.name || t('Field')} value={f.value} onCopy={onCopy} />
        ),
      )}
      {secret.notes && type !== 'text' && (
        <Row label={t('Notes')}>
          <p className="break-words whitespace-pre-wrap">{secret.notes}</p>
        </Row>
      )}
    </>
  );
}

/** A plain value with a copy button; nothing when empty. */
function TextRow({ label, value, onCopy }: { label: string; value: string; onCopy?: OnCopy }) {
  if (value === '') return null;
  return (
    <Row label={label} onCopy={onCopy && (() => onCopy(label, value))}>
      <span className="break-all">{value}</span>
    </Row>
  );
}

/** A sensitive value: masked until shown, copied without being shown. */
function MaskedRow({
  label,
  value,
  onCopy,
  mask = MASK,
  testId,
  children,
}: {
  label: string;
  value: string;
  onCopy: OnCopy;
  mask?: string;
  testId?: string;
  children?: (shown: boolean) => React.ReactNode;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const name = inSentence(label);
  return (
    <Row
      label={label}
      onCopy={() => onCopy(label, value)}
      extra={
        <button
          type="button"
          onClick={() => setShown((s) => !s)}
          aria-label={shown ? t('Hide {{name}}', { name }) : t('Show {{name}}', { name })}
          aria-pressed={shown}
          className={iconButton}
        >
          {shown ? (
            <EyeOff aria-hidden="true" className="size-4" />
          ) : (
            <Eye aria-hidden="true" className="size-4" />
          )}
        </button>
      }
    >
      {children ? (
        children(shown)
      ) : (
        <span className="font-mono break-all" data-testid={testId}>
          {shown ? value : mask}
        </span>
      )}
    </Row>
  );
}

/** The current TOTP code of a login, its countdown, and a copy button. */
function TotpRow({ uri, onCopy }: { uri: string; onCopy: OnCopy }) {
  const { t } = useTranslation();
  const code = useTotp(uri);
  if (!code) {
    return (
      <Row label={t('One-time code')}>
        <span className="text-amber-800 dark:text-amber-300">
          {t('This authenticator key gives no code. Edit it to correct it.')}
        </span>
      </Row>
    );
  }
  const urgent = code.secondsLeft <= 5;
  return (
    <Row label={t('One-time code')} onCopy={() => onCopy(t('One-time code'), code.code)}>
      <span className="flex items-center gap-3">
        <span
          data-testid="totp-code"
          className="font-mono text-base font-semibold tracking-widest text-slate-900 dark:text-white"
        >
          {code.code}
        </span>
        <span
          className="flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400"
          title={t('Changes in {{count}} seconds', { count: formatNumber(code.secondsLeft) })}
        >
          <span
            aria-hidden="true"
            className="relative h-1.5 w-12 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
          >
            <span
              className={`absolute inset-y-0 left-0 rounded-full ${urgent ? 'bg-red-500' : 'bg-indigo-500'}`}
              style={{ width: `${(code.secondsLeft / code.period) * 100}%` }}
            />
          </span>
          <span data-testid="totp-seconds">
            {t('{{count}}s', { count: formatNumber(code.secondsLeft) })}
          </span>
        </span>
      </span>
    </Row>
  );
}

export function Row({
  label,
  children,
  onCopy,
  extra,
}: {
  label: string;
  children: React.ReactNode;
  onCopy?: (() => void) | undefined;
  extra?: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex items-start gap-3">
      <dt className="w-24 shrink-0 pt-1 text-xs font-medium text-slate-500 dark:text-slate-400">
        {label}
      </dt>
      {/* The actions sit inside the dd: a dl's row may hold only dt and dd. */}
      <dd className="flex min-w-0 flex-1 items-start gap-3 text-slate-800 dark:text-slate-200">
        <div className="min-w-0 flex-1 pt-0.5">{children}</div>
        <div className="flex shrink-0 gap-1">
          {extra}
          {onCopy && (
            <button
              type="button"
              onClick={onCopy}
              aria-label={t('Copy {{label}}', { label: inSentence(label) })}
              className={iconButton}
            >
              <Copy aria-hidden="true" className="size-4" />
            </button>
          )}
        </div>
      </dd>
    </div>
  );
}
