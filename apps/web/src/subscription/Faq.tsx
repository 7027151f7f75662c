// The FAQ of the subscription page (docs/product.md §2: upgrades take effect immediately, downgrades at the
// end of the billing period).
import { TRIAL_DAYS } from '@sealvault/protocol';
import { formatNumber } from '../i18n/format.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';

const entries = [
  {
    q: msg('When does an upgrade take effect?'),
    a: msg(
      'Immediately. As soon as the payment is confirmed, your new limits apply and you can create more vaults and upload larger files.',
    ),
  },
  {
    q: msg('What happens when I downgrade?'),
    a: msg(
      'Downgrades take effect at the end of the billing period. Until then you keep everything your current plan includes.',
    ),
  },
  {
    q: msg('What if I have more vaults than the new plan allows?'),
    a: msg(
      'Nothing is deleted. After a downgrade your vaults stay readable and usable; you only cannot create new vaults until you are below the limit again. After a free trial that ended without a payment, the vaults over the Free limit are read-only until you upgrade.',
    ),
  },
  {
    q: msg('How does the free trial work?'),
    a: msg(
      'Each account can try one paid plan for {{days}} days, without a card. Pay before it ends to keep the plan (the paid month starts when the trial ends); otherwise your account returns to Free.',
    ),
  },
  {
    q: msg('Can SealVault or the payment provider read my vaults?'),
    a: msg(
      'No. Your vaults are encrypted on your device with your vault password. Payments only know which plan you bought.',
    ),
  },
];

export function Faq() {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="faq-title">
      <h2 id="faq-title" className="text-lg font-semibold text-slate-900 dark:text-white">
        {t('Frequently asked questions')}
      </h2>
      <dl className="mt-4 grid gap-4 md:grid-cols-2">
        {entries.map((e) => (
          <div
            key={e.q}
            className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
          >
            <dt className="font-medium text-slate-900 dark:text-white">{t(e.q)}</dt>
            <dd className="mt-1.5 text-sm text-slate-600 dark:text-slate-400">
              {t(e.a, { days: formatNumber(TRIAL_DAYS) })}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
