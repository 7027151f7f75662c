// [Note: landing below the fold]
// The landing page's first render draws what a visitor sees first (the header, the hero with
// its LCP text, the statistics); the sections further down render right after it, in a
// transition, which React splits into short tasks. The first paint does not wait for them and
// no long task holds the main thread while they render (issue 31, Lighthouse in
// bench/RESULTS.md). A visit to an in-page anchor (/#pricing) renders everything at once, so
// that the browser finds the anchor.
import { startTransition, useEffect, useState } from 'react';

/** False during the landing page's first render (unless the URL has an anchor), true after. */
export function useAfterFirstPaint(): boolean {
  const [shown, setShown] = useState(() => typeof location !== 'undefined' && location.hash !== '');
  useEffect(() => {
    if (!shown) startTransition(() => setShown(true));
  }, [shown]);
  return shown;
}
