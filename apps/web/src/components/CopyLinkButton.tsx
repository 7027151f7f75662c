// "Copy link" for a link shown once (a share link, an invitation): says "Copied" once this link is
// on the clipboard, and goes back to "Copy link" when the link changes. `onResult` hears whether
// the copy worked (a toast, say).
import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from '../i18n/i18n.ts';
import { buttonClass } from './buttonStyles.ts';

export function CopyLinkButton({
  url,
  variant = 'secondary',
  className = '',
  onResult,
}: {
  url: string;
  variant?: 'primary' | 'secondary';
  className?: string;
  onResult?: (copied: boolean) => void;
}) {
  const { t } = useTranslation();
  const [copiedUrl, setCopiedUrl] = useState<string | null>(null);
  const copied = copiedUrl === url;
  const copy = () =>
    navigator.clipboard.writeText(url).then(
      () => {
        setCopiedUrl(url);
        onResult?.(true);
      },
      () => {
        setCopiedUrl(null);
        onResult?.(false);
      },
    );
  return (
    <button
      type="button"
      onClick={() => void copy()}
      className={buttonClass(variant, 'md', className)}
    >
      {copied ? (
        <Check aria-hidden="true" className="size-4" />
      ) : (
        <Copy aria-hidden="true" className="size-4" />
      )}
      {copied ? t('Copied') : t('Copy link')}
    </button>
  );
}
