// The public landing page (docs/product.md §2): header, hero, features, statistics, testimonials, pricing,
// closing call to action and footer.
import { ClosingCta } from '../landing/ClosingCta.tsx';
import { Features } from '../landing/Features.tsx';
import { Hero } from '../landing/Hero.tsx';
import { LandingFooter } from '../landing/LandingFooter.tsx';
import { LandingHeader } from '../landing/LandingHeader.tsx';
import { Pricing } from '../landing/Pricing.tsx';
import { Stats } from '../landing/Stats.tsx';
import { Testimonials } from '../landing/Testimonials.tsx';
import { useTranslation } from '../i18n/i18n.ts';

export function LandingScreen() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-indigo-600 px-4 py-2 font-semibold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        {t('Skip to content')}
      </a>
      <LandingHeader />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Hero />
        <Stats />
        <Features />
        <Testimonials />
        <Pricing />
        <ClosingCta />
      </main>
      <LandingFooter />
    </div>
  );
}
