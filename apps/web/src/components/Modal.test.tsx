// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, expect, it } from 'vitest';
import { Modal } from './Modal.tsx';

afterEach(cleanup);

/** A dialog opened from state (no Dialog.Trigger), mounted only while open, with an autofocus field. */
function Page() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button">Before</button>
      <button type="button" onClick={() => setOpen(true)}>
        Add secret
      </button>
      {open && (
        <Modal open onOpenChange={setOpen} title="Add Secret">
          <label>
            Title
            <input autoFocus />
          </label>
        </Modal>
      )}
    </>
  );
}

it('gives the focus back to the button that opened it when it closes', async () => {
  const user = userEvent.setup();
  render(<Page />);
  await user.click(screen.getByRole('button', { name: 'Add secret' }));
  expect(screen.getByLabelText('Title')).toBe(document.activeElement);
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).toBeNull();
  await new Promise((r) => setTimeout(r, 0)); // Radix restores the focus after unmounting
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add secret' }));
});
