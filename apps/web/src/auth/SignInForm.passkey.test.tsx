// @vitest-environment happy-dom
// The sign-in form's passkeys (issue 30): the autofill's wait ends quietly when the browser ends
// it, the server's refusal of a passkey picked there is shown, and the button's failures are.
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { passkeyMessages } from '@sealvault/protocol';
import { SignInForm } from './SignInForm.tsx';

vi.mock('./authClient.ts', () => ({ authClient: { signIn: { email: vi.fn() } } }));
vi.mock('./opaque.ts', () => ({ signInProof: vi.fn() }));

const pk = vi.hoisted(() => {
  class PasskeyError extends Error {
    constructor(
      message: string,
      readonly code?: string,
      readonly ceremony = false,
    ) {
      super(message);
    }
  }
  return {
    PasskeyError,
    passkeysSupported: vi.fn(() => true),
    browserSupportsWebAuthnAutofill: vi.fn(() => Promise.resolve(true)),
    signInWithPasskey: vi.fn(),
    cancelAutofill: vi.fn(),
  };
});
vi.mock('./passkeys.ts', () => pk);
// The form decides on its passkey button before passkeys.ts loads (passkeySupport.ts).
vi.mock('./passkeySupport.ts', () => ({ passkeysSupported: pk.passkeysSupported }));

beforeEach(() => {
  pk.signInWithPasskey.mockReset();
  pk.cancelAutofill.mockReset();
});
afterEach(cleanup);

const renderForm = () =>
  render(<SignInForm defaultEmail="" onTwoFactor={() => {}} onForgot={() => {}} />);

it('starts the autofill, which ends quietly when the browser ends it, and cancels it on leaving', async () => {
  pk.signInWithPasskey.mockRejectedValue(
    new pk.PasskeyError(passkeyMessages.cancelled, 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY', true),
  );
  const { unmount } = renderForm();
  await vi.waitFor(() => expect(pk.signInWithPasskey).toHaveBeenCalledWith({ autofill: true }));
  await new Promise((r) => setTimeout(r, 20));
  expect(screen.queryByRole('alert')).toBeNull();
  expect(screen.getByLabelText('Email').getAttribute('autocomplete')).toBe('email webauthn');
  unmount();
  expect(pk.cancelAutofill).toHaveBeenCalled();
});

it("shows the server's refusal of a passkey picked in the autofill", async () => {
  pk.signInWithPasskey.mockRejectedValue(
    new pk.PasskeyError(passkeyMessages.unknownPasskey, 'PASSKEY_NOT_FOUND'),
  );
  renderForm();
  expect(await screen.findByText(passkeyMessages.unknownPasskey)).toBeTruthy();
});

it("the button's cancelled dialog says so", async () => {
  const user = userEvent.setup();
  pk.signInWithPasskey.mockImplementation(({ autofill = false } = {}) =>
    autofill
      ? new Promise(() => {})
      : Promise.reject(new pk.PasskeyError(passkeyMessages.cancelled, 'NotAllowedError', true)),
  );
  renderForm();
  await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
  expect(await screen.findByText(passkeyMessages.cancelled)).toBeTruthy();
});
