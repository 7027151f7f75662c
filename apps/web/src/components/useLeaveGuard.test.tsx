// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { useLeaveGuard } from './useLeaveGuard.ts';

afterEach(cleanup);

function Guarded({ active }: { active: boolean }) {
  useLeaveGuard(active);
  return null;
}

/** Whether leaving the page now would ask first (a beforeunload handler cancelled the event). */
const asks = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

it('asks before leaving only while active, and stops when unmounted', () => {
  const { rerender, unmount } = render(<Guarded active={false} />);
  expect(asks()).toBe(false);
  rerender(<Guarded active />);
  expect(asks()).toBe(true);
  rerender(<Guarded active={false} />);
  expect(asks()).toBe(false);
  rerender(<Guarded active />);
  unmount();
  expect(asks()).toBe(false);
});
