import { expect, it } from 'vitest';
import { readAuthParams } from './authParams.ts';

it('defaults to sign-in with no e-mail', () => {
  expect(readAuthParams(new URLSearchParams(''))).toEqual({ mode: 'signin', email: '' });
});

it('reads sign-up mode and the pre-filled e-mail', () => {
  expect(readAuthParams(new URLSearchParams('mode=signup&email=ada%2Bv%40example.com'))).toEqual({
    mode: 'signup',
    email: 'ada+v@example.com',
  });
});

it('treats an unknown mode as sign-in', () => {
  expect(readAuthParams(new URLSearchParams('mode=admin')).mode).toBe('signin');
});
