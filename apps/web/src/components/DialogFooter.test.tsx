// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { DialogFooter } from './DialogFooter.tsx';

afterEach(cleanup);

it('submits the form it names, and cancels', async () => {
  const submitted = vi.fn((e: Event) => e.preventDefault());
  const onCancel = vi.fn();
  render(
    <>
      <form id="f" onSubmit={(e) => submitted(e.nativeEvent)} />
      <DialogFooter onCancel={onCancel} submit="Save" form="f" />
    </>,
  );
  await userEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(submitted).toHaveBeenCalledTimes(1);
  await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(onCancel).toHaveBeenCalledTimes(1);
});

it('shows the busy text and disables both buttons while the work runs', () => {
  render(<DialogFooter onCancel={vi.fn()} submit="Delete" busyText="Deleting..." busy />);
  expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Deleting...' }).disabled).toBe(
    true,
  );
  expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Cancel' }).disabled).toBe(true);
});

it('keeps a Cancel that stops the work enabled', async () => {
  const onCancel = vi.fn();
  render(
    <DialogFooter
      onCancel={onCancel}
      cancelDisabled={false}
      submit="Upload"
      busyText="Uploading..."
      busy
    />,
  );
  await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(onCancel).toHaveBeenCalledTimes(1);
});

it('has only Cancel and the extra actions without a submit text', () => {
  render(<DialogFooter onCancel={vi.fn()} extra={<a href="/settings">Go to Settings</a>} />);
  expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Cancel']);
  expect(screen.getByRole('link', { name: 'Go to Settings' })).toBeTruthy();
});
