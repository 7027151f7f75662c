// Where the landing page's calls to action lead. Every one goes to /auth (issue 2); the sign-up
// ones open it in sign-up mode, with the e-mail pre-filled when the visitor typed one.
import { msg } from '../i18n/i18n.ts';

export const SIGN_IN_PATH = '/auth';

export function signUpPath(email?: string): string {
  const params = new URLSearchParams({ mode: 'signup' });
  const trimmed = email?.trim();
  if (trimmed) params.set('email', trimmed);
  return `/auth?${params.toString()}`;
}

/** The in-page sections the header and footer link to. */
export const sections = [
  { id: 'features', label: msg('Features') },
  { id: 'testimonials', label: msg('Testimonials') },
  { id: 'pricing', label: msg('Pricing') },
] as const;
