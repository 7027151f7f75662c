// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { GoogleButton } from './GoogleButton.tsx';

const social = vi.hoisted(() => vi.fn());
vi.mock('./authClient.ts', () => ({ authClient: { signIn: { social } } }));
interface State {
  config: { google: boolean; signup: string } | undefined;
  hint: boolean | null;
}
const state = vi.hoisted((): State => ({ config: { google: true, signup: 'open' }, hint: null }));
vi.mock('./useAccount.ts', () => ({ useAuthConfig: () => ({ data: state.config }) }));
vi.mock('./pageHints.ts', () => ({ pageHint: () => state.hint }));

afterEach(() => {
  cleanup();
  state.config = { google: true, signup: 'open' };
  state.hint = null;
});

// [Note: session hint in Server-Timing]: before the sign-in options arrive, the sign-in card takes
// the page's word on Google; the sign-up card waits for the policy; the answer, once in, decides.
it("offers Google on the sign-in card from the page's word, before the sign-in options", () => {
  state.config = undefined;
  state.hint = true;
  const { unmount } = render(<GoogleButton mode="signin" next="/dashboard" onError={vi.fn()} />);
  expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeTruthy();
  unmount();
  render(<GoogleButton mode="signup" next="/dashboard" onError={vi.fn()} />);
  expect(screen.queryByRole('button')).toBeNull();
});

it('offers nothing without either, and follows the sign-in options over the page', () => {
  state.config = undefined;
  const { unmount } = render(<GoogleButton mode="signin" next="/dashboard" onError={vi.fn()} />);
  expect(screen.queryByRole('button')).toBeNull();
  unmount();
  state.config = { google: false, signup: 'open' };
  state.hint = true;
  render(<GoogleButton mode="signin" next="/dashboard" onError={vi.fn()} />);
  expect(screen.queryByRole('button')).toBeNull();
});

for (const [mode, text] of [
  ['signin', 'Google login failed'],
  ['signup', 'Google signup failed'],
] as const) {
  it(`says '${text}' instead of the library's words when Google sign-${mode === 'signin' ? 'in' : 'up'} fails`, async () => {
    social.mockResolvedValue({
      data: null,
      error: { code: 'PROVIDER_NOT_FOUND', message: 'Provider not found', status: 404 },
    });
    const onError = vi.fn();
    render(<GoogleButton mode={mode} next="/dashboard" onError={onError} />);
    await userEvent.click(screen.getByRole('button'));
    expect(onError).toHaveBeenLastCalledWith(text);
    expect(onError).not.toHaveBeenCalledWith('Provider not found');
  });
}
