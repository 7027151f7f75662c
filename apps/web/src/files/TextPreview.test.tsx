// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { hiddenRowsText } from './CsvView.tsx';
import { TextPreview } from './TextPreview.tsx';

afterEach(cleanup);
// The views load on first use; loaded here first, a slow transform cannot outlast findBy's wait.
beforeAll(() => Promise.all([import('./MarkdownView.tsx'), import('./CsvView.tsx')]));

it('renders Markdown, and shows its source on request', async () => {
  const { container } = render(
    <TextPreview text={'# Plan\n\n**bold**'} truncated={false} format="markdown" name="plan.md" />,
  );
  expect(await screen.findByRole('heading', { name: 'Plan' })).toBeTruthy();
  await userEvent.click(screen.getByRole('button', { name: 'Show source' }));
  expect(container.querySelector('pre')?.textContent).toBe('# Plan\n\n**bold**');
  expect(screen.queryByRole('heading')).toBeNull();
  await userEvent.click(screen.getByRole('button', { name: 'Show formatted' }));
  expect(screen.getByRole('heading', { name: 'Plan' })).toBeTruthy();
});

it('shows CSV as a table with its first row as the header, and as text on request', async () => {
  const { container } = render(
    <TextPreview
      text={'id,value\n1,"a, b"\n2,"two\nlines"\n'}
      truncated={false}
      format="csv"
      name="data.csv"
    />,
  );
  const table = await screen.findByRole('table', { name: 'Rows of data.csv' });
  expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['id', 'value']);
  expect([...table.querySelectorAll('tbody td')].map((td) => td.textContent)).toEqual([
    '1',
    'a, b',
    '2',
    'two\nlines',
  ]);
  expect(screen.queryByText(/not shown/)).toBeNull();
  await userEvent.click(screen.getByRole('button', { name: 'Show as text' }));
  expect(container.querySelector('pre')?.textContent).toContain('2,"two\nlines"');
  expect(screen.queryByRole('table')).toBeNull();
  expect(screen.getByRole('button', { name: 'Show as table' })).toBeTruthy();
});

it('says how many rows a long CSV leaves out', () => {
  expect(hiddenRowsText(1)).toBe('1 more row is not shown.');
  expect(hiddenRowsText(2345)).toBe('2,345 more rows are not shown.');
});

it('shows code as plain text with no toggle, and says when only 2 MB are shown', () => {
  const { container } = render(
    <TextPreview text={'<b>not bold</b>\n'} truncated format="plain" name="x.html.txt" />,
  );
  expect(container.querySelector('pre')?.textContent).toBe('<b>not bold</b>\n');
  expect(container.querySelector('b')).toBeNull();
  expect(screen.queryByRole('button')).toBeNull();
  expect(
    screen.getByText('Only the first 2 MB are shown. Download the file to see all of it.'),
  ).toBeTruthy();
});
