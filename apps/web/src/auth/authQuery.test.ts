import { expect, it } from 'vitest';
import { authStepPath, readAuthQuery } from './authQuery.ts';

const read = (s: string) => readAuthQuery(new URLSearchParams(s));

it('reads the landing page hand-over', () => {
  expect(read('mode=signup&email=ada%40example.com')).toMatchObject({
    step: 'signup',
    mode: 'signup',
    email: 'ada@example.com',
    next: '/dashboard',
  });
});

it('reads the reset link and the verification landing', () => {
  expect(read('step=reset&token=abc')).toMatchObject({ step: 'reset', token: 'abc' });
  expect(read('verified=1&error=INVALID_TOKEN')).toMatchObject({
    step: 'signin',
    verified: true,
    error: 'INVALID_TOKEN',
  });
});

it('only keeps a same-origin next', () => {
  expect(read('next=%2Fvault%2Fxyz').next).toBe('/vault/xyz');
  expect(read('next=https%3A%2F%2Fevil.example').next).toBe('/dashboard');
});

it('builds step addresses that keep the remembered location', () => {
  expect(authStepPath('signup', { next: '/vault/1' })).toBe('/auth?mode=signup&next=%2Fvault%2F1');
  expect(authStepPath('signin', { next: '/dashboard' })).toBe('/auth');
  expect(authStepPath('forgot', { next: '/dashboard' }, 'a@b.co')).toBe(
    '/auth?step=forgot&email=a%40b.co',
  );
});

it('reads the two-factor step a Google sign-in lands on, and builds it back', () => {
  expect(read('step=two-factor&next=%2Fvault%2F1')).toMatchObject({
    step: 'twoFactor',
    next: '/vault/1',
  });
  expect(authStepPath('twoFactor', { next: '/vault/1' })).toBe(
    '/auth?step=two-factor&next=%2Fvault%2F1',
  );
});

it('opens the sign-up form for an invitation link and keeps the invitation between the forms', () => {
  expect(read('invite=tok_123')).toMatchObject({
    step: 'signup',
    mode: 'signup',
    invite: 'tok_123',
  });
  expect(read('invite=tok_123&mode=signin')).toMatchObject({ step: 'signin', invite: 'tok_123' });
  expect(read('mode=signup').invite).toBe('');
  const q = { next: '/dashboard', invite: 'tok_123' };
  expect(authStepPath('signin', q)).toBe('/auth?mode=signin&invite=tok_123');
  expect(authStepPath('signup', q)).toBe('/auth?mode=signup&invite=tok_123');
  expect(authStepPath('forgot', q)).toBe('/auth?step=forgot');
});
