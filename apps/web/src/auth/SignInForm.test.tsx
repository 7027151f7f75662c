// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { SignInForm } from './SignInForm.tsx';

const client = vi.hoisted(() => ({ signInEmail: vi.fn(), sendVerificationEmail: vi.fn() }));
vi.mock('./authClient.ts', () => ({
  authClient: {
    signIn: { email: client.signInEmail },
    sendVerificationEmail: client.sendVerificationEmail,
  },
}));

// The OPAQUE login (auth/opaque.ts) is the server's to answer: here a ticket per password.
vi.mock('./opaque.ts', () => ({
  signInProof: (_email: string, password: string) =>
    Promise.resolve({ password: `ticket-of-${password}`, headers: {} }),
}));

beforeEach(() => {
  client.signInEmail.mockReset();
  client.sendVerificationEmail.mockReset();
});
afterEach(cleanup);

async function signIn(props: Partial<Parameters<typeof SignInForm>[0]> = {}) {
  const user = userEvent.setup();
  render(
    <SignInForm
      defaultEmail="ada@example.com"
      onTwoFactor={() => {}}
      onForgot={() => {}}
      {...props}
    />,
  );
  await user.type(screen.getByLabelText('Password'), 'secret1');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

it('explains an unverified address and resends the mail', async () => {
  client.signInEmail.mockResolvedValue({
    data: null,
    error: { code: 'EMAIL_NOT_VERIFIED', message: 'Email not verified', status: 403 },
  });
  client.sendVerificationEmail.mockResolvedValue({ data: { status: true }, error: null });
  const user = await signIn();
  expect(await screen.findByText('Please verify your email first')).toBeTruthy();
  await user.click(screen.getByRole('button', { name: 'Resend verification email' }));
  expect(await screen.findByText('A new verification email is on its way.')).toBeTruthy();
  expect(client.sendVerificationEmail).toHaveBeenCalledWith({
    email: 'ada@example.com',
    callbackURL: '/auth?verified=1',
  });
});

it('shows the server message, or "Login failed" without one', async () => {
  client.signInEmail.mockResolvedValue({
    data: null,
    error: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' },
  });
  await signIn();
  expect((await screen.findByRole('alert')).textContent).toBe('Invalid email or password');
  cleanup();
  client.signInEmail.mockRejectedValue(new TypeError('Failed to fetch'));
  await signIn();
  expect((await screen.findByRole('alert')).textContent).toBe('Login failed');
});

it('moves on to the two-factor step when the account has one', async () => {
  client.signInEmail.mockResolvedValue({ data: { twoFactorRedirect: true }, error: null });
  const onTwoFactor = vi.fn();
  await signIn({ onTwoFactor });
  await vi.waitFor(() => expect(onTwoFactor).toHaveBeenCalledOnce());
  // The password stays in the browser: the sign-in carries the OPAQUE login's ticket.
  expect(client.signInEmail).toHaveBeenCalledWith(
    { email: 'ada@example.com', password: 'ticket-of-secret1' },
    { headers: {} },
  );
});
