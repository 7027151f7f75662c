// What the landing page hands to /auth in the query string: the mode and a pre-filled e-mail.
export type AuthMode = 'signin' | 'signup';

export interface AuthParams {
  mode: AuthMode;
  email: string;
}

export function readAuthParams(search: URLSearchParams): AuthParams {
  return {
    mode: search.get('mode') === 'signup' ? 'signup' : 'signin',
    email: search.get('email')?.trim() ?? '',
  };
}
