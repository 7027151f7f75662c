// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MarkdownView, safeHref } from './MarkdownView.tsx';

afterEach(cleanup);

const show = (text: string) => render(<MarkdownView text={text} />).container;

describe('Markdown preview', () => {
  it('renders headings, lists, code, tables and task lists', () => {
    const page = show(
      '# Title\n\nSome *text* and `code`.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Title' })).toBeTruthy();
    expect(page.querySelector('em')?.textContent).toBe('text');
    expect(page.querySelector('code')?.textContent).toBe('code');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'one',
      'two',
      ' done',
    ]);
    expect(screen.getByRole('columnheader', { name: 'a' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: '2' })).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('checkbox').checked).toBe(true);
  });

  it('shows raw HTML as text: no script, no event handler, no frame', () => {
    const page = show(
      [
        '<script>window.__ran = 1</script>',
        '',
        'Hello <img src="x" onerror="window.__ran = 2"> there',
        '',
        '<iframe src="https://example.com/"></iframe>',
        '',
        '<a href="javascript:alert(1)">html link</a>',
      ].join('\n'),
    );
    expect(page.querySelector('script, iframe, img, [onerror], [src]')).toBeNull();
    expect(page.textContent).toContain('<script>window.__ran = 1</script>');
    expect(page.textContent).toContain('<img src="x" onerror="window.__ran = 2">');
    expect(page.querySelector('a')).toBeNull();
    expect((window as { __ran?: number }).__ran).toBeUndefined();
  });

  it('keeps http(s) and mailto links, opening in a new tab without opener or referrer', () => {
    show('[site](https://example.com/a?b=1) [mail](mailto:ann@example.com) <https://x.test>');
    const site = screen.getByRole('link', { name: 'site' });
    expect(site.getAttribute('href')).toBe('https://example.com/a?b=1');
    expect(site.getAttribute('target')).toBe('_blank');
    expect(site.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByRole('link', { name: 'mail' }).getAttribute('href')).toBe(
      'mailto:ann@example.com',
    );
    expect(screen.getByRole('link', { name: 'https://x.test' }).getAttribute('rel')).toBe(
      'noopener noreferrer',
    );
  });

  it('drops javascript:, data: and relative link targets, keeping the text', () => {
    const page = show(
      [
        '[a](javascript:alert(1))',
        '[b](JaVaScRiPt:alert(1))',
        '[c](%20javascript:alert(1))',
        '[d](data:text/html,<script>alert(1)</script>)',
        '[e](/api/vaults)',
        '<javascript:alert(1)>',
        '[f][ref]',
        '',
        '[ref]: vbscript:msgbox',
      ].join('\n\n'),
    );
    expect(page.querySelector('a')).toBeNull();
    for (const text of ['a', 'b', 'c', 'd', 'e', 'f']) expect(screen.getByText(text)).toBeTruthy();
  });

  it('never loads an image: a remote one becomes a link, any other its description', () => {
    const page = show(
      [
        '![tracking pixel](https://tracker.example/p.png)',
        '![inline](data:image/png;base64,iVBORw0KGgo=)',
        '![ref image][logo]',
        '![](https://example.com/no-alt.png)',
        '',
        '[logo]: http://example.com/logo.png',
      ].join('\n\n'),
    );
    expect(page.querySelector('img, [src], picture, source')).toBeNull();
    const pixel = screen.getByRole('link', { name: 'tracking pixel' });
    expect(pixel.getAttribute('href')).toBe('https://tracker.example/p.png');
    expect(pixel.getAttribute('rel')).toBe('noopener noreferrer');
    expect(pixel.getAttribute('title')).toBe('Image not loaded');
    expect(screen.getByRole('link', { name: 'ref image' }).getAttribute('href')).toBe(
      'http://example.com/logo.png',
    );
    expect(screen.getByRole('link', { name: 'Image' }).getAttribute('href')).toBe(
      'https://example.com/no-alt.png',
    );
    expect(screen.getByText('inline').closest('a')).toBeNull();
  });
});

describe('safeHref', () => {
  it('allows absolute http, https and mailto only', () => {
    expect(safeHref('https://example.com')).toBe('https://example.com/');
    expect(safeHref('HTTP://Example.com/x')).toBe('http://example.com/x');
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
    expect(safeHref('java\tscript:alert(1)')).toBeNull();
    expect(safeHref('  javascript:alert(1)')).toBeNull();
    expect(safeHref('file:///etc/passwd')).toBeNull();
    expect(safeHref('//evil.example/x')).toBeNull();
    expect(safeHref('#top')).toBeNull();
  });
});
