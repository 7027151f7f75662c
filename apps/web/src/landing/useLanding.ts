// The landing page's statistics and testimonials, the operator's (GET /api/landing; LANDING_CONFIG
// on the server, the spec's texts by default). Nothing is shown in their place while they load,
// nor if they cannot be read: a claim the operator removed must never reappear from a default.
import { useQuery } from '@tanstack/react-query';
import { sections } from './links.ts';
import { useSelfHosted } from '../plans/usePlansMode.ts';

export function useLanding() {
  return useQuery({
    queryKey: ['landing'],
    // Its schema loads with the read ([Note: schema-free modules] in packages/protocol/src/index.ts).
    queryFn: async () => (await import('@sealvault/protocol/landing-api')).landingApi.get(),
    staleTime: 5 * 60_000,
  });
}

/**
 * The in-page sections to link to: without testimonials, their section is not on the page, nor
 * the pricing on a self-hosted instance (issue 33).
 */
export function useSections() {
  const { data, isError } = useLanding();
  const selfHosted = useSelfHosted();
  const noTestimonials = isError || data?.testimonials.length === 0;
  return sections.filter(
    (s) => (s.id !== 'testimonials' || !noTestimonials) && (s.id !== 'pricing' || !selfHosted),
  );
}
