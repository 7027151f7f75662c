// @vitest-environment happy-dom
// The sign-in form draws its fields before its schema has loaded, and validates with the
// schema's texts word for word once it has ([Note: auth forms without zod at start-up]).
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { SignInForm } from './SignInForm.tsx';

const signInEmail = vi.hoisted(() => vi.fn());
vi.mock('./authClient.ts', () => ({ authClient: { signIn: { email: signInEmail } } }));
vi.mock('./opaque.ts', () => ({
  signInProof: (_email: string, password: string) =>
    Promise.resolve({ password: `ticket-of-${password}`, headers: {} }),
}));
// Counts the loads of the resolvers' module (the one that brings zod).
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('./authResolvers.ts', async (importOriginal) => {
  loads.count += 1;
  return importOriginal();
});
afterEach(cleanup);

it('draws its fields at once, and loads the schema only to validate', async () => {
  const user = userEvent.setup();
  render(<SignInForm defaultEmail="" onTwoFactor={() => {}} onForgot={() => {}} />);
  expect(screen.getByLabelText('Email')).toBeTruthy();
  expect(screen.getByLabelText('Password')).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  expect(loads.count).toBe(0);

  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  expect(await screen.findByText('Email is required')).toBeTruthy();
  expect(screen.getByText('Password is required')).toBeTruthy();
  expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
  expect(loads.count).toBe(1);
  expect(signInEmail).not.toHaveBeenCalled();
});

it('says an address is not valid, and re-validates as the user corrects it', async () => {
  const user = userEvent.setup();
  render(<SignInForm defaultEmail="ada" onTwoFactor={() => {}} onForgot={() => {}} />);
  await user.type(screen.getByLabelText('Password'), 'secret1');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  expect(await screen.findByText('Enter a valid email address')).toBeTruthy();
  await user.type(screen.getByLabelText('Email'), '@example.com');
  await vi.waitFor(() => expect(screen.queryByText('Enter a valid email address')).toBeNull());
  expect(signInEmail).not.toHaveBeenCalled();
});
