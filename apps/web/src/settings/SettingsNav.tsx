// The settings view's sub-navigation (issue 25): a link to each section, the one being read
// marked with aria-current. In-page links, so the browser scrolls, moves the focus start to the
// section and keeps the place in the address (#settings-security); above 1024 px it stays beside
// the sections as they scroll, below that it is a row of links under the heading.
import { useEffect, useState } from 'react';
import { useTranslation } from '../i18n/i18n.ts';
import { currentSection, SETTINGS_SECTIONS } from './settingsSections.ts';

/** Just under the sticky top bar (4rem) and the sections' scroll margin. */
const READING_LINE = 112;

function useCurrentSection(): number {
  const [current, setCurrent] = useState(0);
  useEffect(() => {
    const update = () => {
      const tops = SETTINGS_SECTIONS.map(
        (s) => document.getElementById(s.id)?.getBoundingClientRect().top ?? Infinity,
      );
      // At the bottom of the page the last section is the one being read, however short.
      const atEnd =
        window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
      setCurrent(atEnd ? SETTINGS_SECTIONS.length - 1 : currentSection(tops, READING_LINE));
    };
    update();
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    // Sections still loading (their panels' code and data) move the others without a scroll.
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    resized?.observe(document.body);
    return () => {
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
      resized?.disconnect();
    };
  }, []);
  return current;
}

export function SettingsNav() {
  const { t } = useTranslation();
  const current = useCurrentSection();
  return (
    <nav aria-label={t('Settings sections')} className="lg:sticky lg:top-24 lg:self-start">
      <ul className="flex flex-wrap gap-1.5 lg:flex-col lg:gap-1">
        {SETTINGS_SECTIONS.map((s, i) => (
          <li key={s.id}>
            <a
              href={`#${s.id}`}
              aria-current={i === current ? 'location' : undefined}
              className="block rounded-lg px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 aria-[current]:bg-indigo-50 aria-[current]:text-indigo-800 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white dark:aria-[current]:bg-indigo-950 dark:aria-[current]:text-indigo-200"
            >
              {t(s.title)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
