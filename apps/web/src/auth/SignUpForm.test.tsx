// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { SignUpForm } from './SignUpForm.tsx';

const signUpEmail = vi.hoisted(() => vi.fn());
vi.mock('./authClient.ts', () => ({ authClient: { signUp: { email: signUpEmail } } }));
// The OPAQUE registration (auth/opaque.ts) is the server's to answer: here a token per password.
vi.mock('./opaque.ts', () => ({
  newPasswordToken: (password: string) => Promise.resolve({ token: `record-of-${password}` }),
}));

beforeEach(() => signUpEmail.mockReset());
afterEach(cleanup);

async function fill(values: Record<string, string>) {
  const user = userEvent.setup();
  for (const [label, value] of Object.entries(values)) {
    await user.type(screen.getByLabelText(label, { exact: true }), value);
  }
  await user.click(screen.getByRole('button', { name: 'Create account' }));
}

it('requires every field and says which', async () => {
  render(<SignUpForm defaultEmail="" />);
  await fill({});
  expect(await screen.findByText('Full name is required')).toBeTruthy();
  expect(screen.getByText('Email is required')).toBeTruthy();
  expect(screen.getByText('Password is required')).toBeTruthy();
  expect(screen.getByText('Please confirm your password')).toBeTruthy();
  expect(screen.getByLabelText('Full name').getAttribute('aria-invalid')).toBe('true');
  expect(signUpEmail).not.toHaveBeenCalled();
});

it('shows the spec messages for a short or mismatched password', async () => {
  render(<SignUpForm defaultEmail="ada@example.com" />);
  await fill({ 'Full name': 'Ada', Password: '12345', 'Confirm password': '12346' });
  expect(await screen.findByText('Password must be at least 6 characters')).toBeTruthy();
  expect(screen.getByText('Passwords do not match')).toBeTruthy();
  expect(signUpEmail).not.toHaveBeenCalled();
});

it('sends the account and shows the verification message', async () => {
  signUpEmail.mockResolvedValue({ data: {}, error: null });
  render(<SignUpForm defaultEmail="" />);
  await fill({
    'Full name': 'Ada Lovelace',
    Email: 'ada@example.com',
    Password: 'secret1',
    'Confirm password': 'secret1',
  });
  expect(
    await screen.findByText(
      'Account created successfully! Please check your email to verify your account.',
    ),
  ).toBeTruthy();
  expect(signUpEmail).toHaveBeenCalledWith({
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    // Never the password itself: the token of its OPAQUE record.
    password: 'record-of-secret1',
    callbackURL: '/auth?verified=1',
  });
});

it("falls back to 'Registration failed' without a server message", async () => {
  signUpEmail.mockResolvedValue({ data: null, error: { status: 500 } });
  render(<SignUpForm defaultEmail="ada@example.com" />);
  await fill({ 'Full name': 'Ada', Password: 'secret1', 'Confirm password': 'secret1' });
  expect((await screen.findByRole('alert')).textContent).toBe('Registration failed');
});

// The server's sign-up policy (issue 33, GET /api/auth-config).
// The policy's texts load when the policy is not open (usePolicyTexts.ts): the form shows until.
it('says why when sign-up is closed, and offers no form', async () => {
  render(<SignUpForm defaultEmail="" signup="closed" />);
  expect((await screen.findByRole('status')).textContent).toBe(
    'Sign-up is closed on this server. Ask its administrator for an account.',
  );
  expect(screen.queryByRole('button', { name: 'Create account' })).toBeNull();
  expect(screen.queryByLabelText('Email')).toBeNull();
});

it('asks for an invitation link when sign-up is by invitation and there is none', async () => {
  render(<SignUpForm defaultEmail="" signup="invite" />);
  expect((await screen.findByRole('status')).textContent).toBe(
    'Sign-up on this server is by invitation only. Open the invitation link you were sent.',
  );
  expect(screen.queryByRole('button', { name: 'Create account' })).toBeNull();
});

it('signs up with the invitation of the link, sent in its header', async () => {
  signUpEmail.mockResolvedValue({ data: {}, error: null });
  const token = 'A'.repeat(43);
  render(<SignUpForm defaultEmail="" signup="invite" invite={token} />);
  expect((await screen.findByRole('status')).textContent).toBe(
    'You were invited to this server. Create your account below.',
  );
  await fill({
    'Full name': 'Ada Lovelace',
    Email: 'ada@example.com',
    Password: 'secret1',
    'Confirm password': 'secret1',
  });
  expect(
    await screen.findByText(
      'Account created successfully! Please check your email to verify your account.',
    ),
  ).toBeTruthy();
  expect(signUpEmail).toHaveBeenCalledWith({
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    password: 'record-of-secret1',
    callbackURL: '/auth?verified=1',
    fetchOptions: { headers: { 'x-sealvault-invite': token } },
  });
});

it("shows the server's refusal of an invitation", async () => {
  signUpEmail.mockResolvedValue({
    data: null,
    error: {
      status: 403,
      code: 'INVITE_INVALID',
      message:
        'This invitation cannot be used: it has expired, was already used or revoked, or was made for another email address.',
    },
  });
  render(<SignUpForm defaultEmail="ada@example.com" signup="invite" invite={'B'.repeat(43)} />);
  await fill({ 'Full name': 'Ada', Password: 'secret1', 'Confirm password': 'secret1' });
  expect((await screen.findByRole('alert')).textContent).toBe(
    'This invitation cannot be used: it has expired, was already used or revoked, or was made for another email address.',
  );
});
