// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { GoogleButton } from './GoogleButton.tsx';

const social = vi.hoisted(() => vi.fn());
vi.mock('./authClient.ts', () => ({ authClient: { signIn: { social } } }));
vi.mock('./useAccount.ts', () => ({ useAuthConfig: () => ({ data: { google: true } }) }));

afterEach(cleanup);

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
