// @vitest-environment happy-dom
// A login with notes and no username or password reads as plain text on its card (product.md §2
// "Secrets manager"): its notes are the masked `Content`, as a plain-text secret's are, never
// shown in the clear until asked (issue 25).
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import type { Secret } from './model.ts';
import { SecretCard } from './SecretCard.tsx';

afterEach(cleanup);

const WORDS = 'door code 4417, alarm 9021';

const base: Secret = {
  id: '0b7c9d2e-4f61-4a3b-8c5d-6e7f8a9b0c1d',
  title: 'Cabin',
  username: '',
  password: '',
  url: '',
  notes: WORDS,
  revision: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

function card(secret: Secret) {
  const onCopy = vi.fn();
  render(<SecretCard secret={secret} onEdit={vi.fn()} onDelete={vi.fn()} onCopy={onCopy} />);
  return onCopy;
}

for (const [what, secret] of [
  ['a plain-text secret', { ...base, type: 'text' as const }],
  ['a login saved with notes only', { ...base, type: 'login' as const }],
  ['an item from before item types with notes only', base],
] as const) {
  it(`masks the notes of ${what} as its Content, shown and copied on demand`, async () => {
    const onCopy = card(secret);
    expect(screen.queryByText(WORDS)).toBeNull();
    expect(screen.getByText('Content')).toBeTruthy();
    expect(screen.queryByText('Notes')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Copy content' }));
    expect(onCopy).toHaveBeenCalledWith('Content', WORDS);
    await userEvent.click(screen.getByRole('button', { name: 'Show content' }));
    expect(screen.getByText(WORDS)).toBeTruthy();
  });
}

it('keeps the website of a login shown as plain text', () => {
  card({ ...base, type: 'login', url: 'https://cabin.example' });
  expect(screen.queryByText(WORDS)).toBeNull();
  expect(screen.getByText('https://cabin.example')).toBeTruthy();
});

it('shows a login with a username as a login, its notes as notes', () => {
  card({ ...base, type: 'login', username: 'ada' });
  expect(screen.getByText('Username')).toBeTruthy();
  expect(screen.getByText('Notes')).toBeTruthy();
  expect(screen.queryByText('Content')).toBeNull();
});
