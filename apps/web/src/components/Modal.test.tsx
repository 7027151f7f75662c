// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
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

/** A list item whose Delete button opens a confirmation that removes the item. */
function List() {
  const [items, setItems] = useState(['a', 'b']);
  const [deleting, setDeleting] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <>
      <h2 ref={heading} tabIndex={-1}>
        Items
      </h2>
      {items.map((i) => (
        <button key={i} type="button" onClick={() => setDeleting(i)}>
          Delete {i}
        </button>
      ))}
      <Modal
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete item"
        fallbackFocus={heading}
        footer={
          <button
            type="button"
            onClick={() => {
              setItems((all) => all.filter((i) => i !== deleting));
              setDeleting(null);
            }}
          >
            Confirm
          </button>
        }
      />
    </>
  );
}

it('gives the focus to the fallback when what opened it is gone', async () => {
  const user = userEvent.setup();
  render(<List />);
  await user.click(screen.getByRole('button', { name: 'Delete a' }));
  await user.click(screen.getByRole('button', { name: 'Confirm' }));
  await new Promise((r) => setTimeout(r, 0));
  expect(screen.queryByRole('button', { name: 'Delete a' })).toBeNull();
  expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Items' }));
});
