// The public landing page (docs/product.md §2): header, hero, features, statistics, testimonials, pricing,
// closing call to action and footer.
import { ClosingCta } from './ClosingCta.tsx';
import { Features } from './Features.tsx';
import { Hero } from './Hero.tsx';
import { LandingFooter } from './LandingFooter.tsx';
import { LandingHeader } from './LandingHeader.tsx';
import { Pricing } from './Pricing.tsx';
import { Stats } from './Stats.tsx';
import { Testimonials } from './Testimonials.tsx';

export function LandingScreen() {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-indigo-600 px-4 py-2 font-semibold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
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
