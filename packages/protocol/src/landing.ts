// The landing page's claims (issue 19): the statistics strip and the testimonials are the
// operator's to set, from the JSON file named by LANDING_CONFIG (README, Configuration), served by
// GET /api/landing. Without the file, or for a key it leaves out, the spec's texts apply
// (LANDING_DEFAULTS: §1's marketing claims, and the product's three testimonials). An empty list
// hides its section. Plan prices, limits and features come from the plans table (GET /api/plans).
import { z } from 'zod';

export const landingStatSchema = z.object({
  /** '50,000+', '99.9%' */
  value: z.string().trim().min(1).max(24),
  /** 'users', 'uptime' */
  label: z.string().trim().min(1).max(32),
});

export const testimonialSchema = z.object({
  quote: z.string().trim().min(1).max(500),
  name: z.string().trim().min(1).max(80),
  /** What the person does ('Independent accountant'); may be empty. */
  role: z.string().trim().max(80).default(''),
});

export const landingContentSchema = z.object({
  stats: z.array(landingStatSchema).max(6),
  testimonials: z.array(testimonialSchema).max(6),
});
export type LandingContent = z.infer<typeof landingContentSchema>;

/** The LANDING_CONFIG file: either key may be left out; any other key is a mistake. */
export const landingConfigFileSchema = landingContentSchema.partial().strict();

/** The spec's texts (§1 marketing claims; §2 'three testimonials'). */
export const LANDING_DEFAULTS: LandingContent = {
  stats: [
    { value: '50,000+', label: 'users' },
    { value: '99.9%', label: 'uptime' },
    { value: '10M+', label: 'files' },
    { value: '24/7', label: 'support' },
    { value: 'AES-256', label: 'encryption' },
  ],
  testimonials: [
    {
      quote:
        'I keep client contracts and tax records in SealVault. Knowing they are encrypted before they leave my laptop lets me sleep at night.',
      name: 'Maya Okafor',
      role: 'Independent accountant',
    },
    {
      quote:
        'Finally one place for our API keys and deployment credentials that even the hosting company cannot read.',
      name: 'Daniel Brandt',
      role: 'Engineering lead',
    },
    {
      quote:
        'Setting up a vault took a minute. That even the file names are encrypted is what sold me.',
      name: 'Priya Raman',
      role: 'Investigative journalist',
    },
  ],
};
