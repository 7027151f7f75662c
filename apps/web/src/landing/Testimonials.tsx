// The testimonials: the operator's (GET /api/landing; by default the product's three). Without
// any the section is not shown (and the header and footer do not link to it, useSections). The
// default ones are shown in the reader's language (catalogued from the protocol's
// LANDING_DEFAULTS); an operator's own as written.
import { Quote } from 'lucide-react';
import { useTranslation } from '../i18n/i18n.ts';
import { useLanding } from './useLanding.ts';
import { useAfterFirstPaint } from './useAfterFirstPaint.ts';

const initials = (name: string) =>
  name
    .split(' ')
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 3);

export function Testimonials() {
  const { t } = useTranslation();
  const { data, isPending } = useLanding();
  const shown = useAfterFirstPaint(); // [Note: landing below the fold]
  const testimonials = data?.testimonials ?? [];
  if (!shown || (!isPending && testimonials.length === 0)) return null;
  return (
    <section
      id="testimonials"
      aria-labelledby="testimonials-title"
      className="bg-slate-50 py-20 sm:py-24 dark:bg-slate-900/40"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase dark:text-indigo-400">
            {t('Testimonials')}
          </p>
          <h2
            id="testimonials-title"
            className="mt-2 text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-4xl dark:text-white"
          >
            {t('Trusted with what matters most')}
          </h2>
        </div>
        <ul className="mt-14 grid gap-6 lg:grid-cols-3">
          {testimonials.map(({ quote, name, role }, i) => (
            <li key={`${i}-${name}`}>
              <figure className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
                <Quote aria-hidden="true" className="size-7 text-indigo-500 dark:text-indigo-400" />
                <blockquote className="mt-4 flex-1 leading-relaxed text-slate-700 dark:text-slate-200">
                  <p>{t('“{{quote}}”', { quote: t(quote) })}</p>
                </blockquote>
                <figcaption className="mt-6 flex items-center gap-3">
                  <span
                    aria-hidden="true"
                    className="inline-flex size-10 items-center justify-center rounded-full bg-gradient-to-br from-indigo-500 to-emerald-500 text-sm font-semibold text-white"
                  >
                    {initials(name)}
                  </span>
                  <span>
                    <span className="block font-semibold text-slate-900 dark:text-white">
                      {name}
                    </span>
                    {role && (
                      <span className="block text-sm text-slate-500 dark:text-slate-400">
                        {t(role)}
                      </span>
                    )}
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
