// A Markdown file rendered for its preview (docs/product.md "Previewer"), safely: react-markdown
// turns the Markdown's syntax tree into React elements, so no HTML string is ever put into the
// page. HTML written in the Markdown is shown as text (react-markdown's default, without
// rehype-raw), links keep only http(s) and mailto addresses and open in a new tab without an
// opener or a referrer, and images are never loaded: a remote image would tell its server that
// this file was opened, and by whom. Each shows as its description instead, a link where it has a
// web address. (The app's CSP, apps/server/src/http/security.ts, blocks remote images as well.)
import { ImageOff } from 'lucide-react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { i18n, useTranslation } from '../i18n/i18n.ts';

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/**
 * The address a link may keep, or null: absolute http(s) and mailto addresses only. `javascript:`,
 * `data:` and the like are dropped, and so are relative ones, which would point into the app.
 */
export function safeHref(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  return SAFE_PROTOCOLS.has(parsed.protocol) ? parsed.href : null;
}

const link =
  'text-indigo-700 underline decoration-1 underline-offset-2 hover:text-indigo-900 dark:text-indigo-300 dark:hover:text-indigo-200';
const cell = 'border border-slate-300 px-3 py-1.5 text-left align-top dark:border-slate-700';
const heading = 'mt-6 mb-3 font-semibold text-slate-900 first:mt-0 dark:text-white';

// Each element gets its classes here (what @tailwindcss/typography would give, in the app's
// palette); `node` is react-markdown's, never passed on to the DOM.
const components: Components = {
  h1: ({ children }) => (
    <h1
      className={`${heading} border-b border-slate-200 pb-2 text-2xl font-bold dark:border-slate-700`}
    >
      {children}
    </h1>
  ),
  h2: ({ children }) => (
    <h2 className={`${heading} border-b border-slate-200 pb-1 text-xl dark:border-slate-700`}>
      {children}
    </h2>
  ),
  h3: ({ children }) => <h3 className={`${heading} text-lg`}>{children}</h3>,
  h4: ({ children }) => <h4 className={heading}>{children}</h4>,
  h5: ({ children }) => <h5 className={heading}>{children}</h5>,
  h6: ({ children }) => <h6 className={heading}>{children}</h6>,
  p: ({ children }) => <p className="my-3 leading-7">{children}</p>,
  ul: ({ children, className }) => (
    <ul
      className={`my-3 space-y-1 ${className?.includes('contains-task-list') ? 'list-none pl-1' : 'list-disc pl-6'}`}
    >
      {children}
    </ul>
  ),
  ol: ({ children, start }) => (
    <ol start={start} className="my-3 list-decimal space-y-1 pl-6">
      {children}
    </ol>
  ),
  li: ({ children }) => <li className="leading-7 [&>input]:mr-2">{children}</li>,
  blockquote: ({ children }) => (
    <blockquote className="my-3 border-l-4 border-slate-300 pl-4 text-slate-600 dark:border-slate-600 dark:text-slate-400">
      {children}
    </blockquote>
  ),
  code: ({ children }) => (
    <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.875em] dark:bg-slate-800">
      {children}
    </code>
  ),
  pre: ({ children }) => (
    <pre className="my-3 overflow-auto rounded-lg bg-slate-100 p-4 text-sm leading-6 dark:bg-slate-950 [&>code]:bg-transparent [&>code]:p-0 [&>code]:text-sm">
      {children}
    </pre>
  ),
  hr: () => <hr className="my-6 border-slate-200 dark:border-slate-700" />,
  table: ({ children }) => (
    <div className="my-3 overflow-x-auto">
      <table className="border-collapse text-sm">{children}</table>
    </div>
  ),
  // `style` carries only a column's alignment (`|---:|`): there is no raw HTML to bring others.
  th: ({ children, style }) => (
    <th style={style} className={`${cell} bg-slate-50 font-semibold dark:bg-slate-800`}>
      {children}
    </th>
  ),
  td: ({ children, style }) => (
    <td style={style} className={cell}>
      {children}
    </td>
  ),
  a: ({ children, href }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer" className={link}>
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  img: ({ src, alt }) => {
    const href = typeof src === 'string' && /^https?:/.test(src) ? src : null;
    const label = (
      <>
        <ImageOff aria-hidden="true" className="size-4 shrink-0" />
        {alt || i18n.t('Image')}
      </>
    );
    const chip = 'inline-flex items-center gap-1';
    return href ? (
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        title={i18n.t('Image not loaded')}
        className={`${chip} ${link}`}
      >
        {label}
      </a>
    ) : (
      <span
        title={i18n.t('Image not loaded')}
        className={`${chip} text-slate-600 dark:text-slate-400`}
      >
        {label}
      </span>
    );
  },
};

export function MarkdownView({ text }: { text: string }) {
  useTranslation(); // renders again (the image chips' texts) when the language changes
  return (
    <div className="max-w-[80ch] text-slate-800 dark:text-slate-200">
      <Markdown
        remarkPlugins={[remarkGfm]}
        urlTransform={(url) => safeHref(url) ?? ''}
        components={components}
      >
        {text}
      </Markdown>
    </div>
  );
}
