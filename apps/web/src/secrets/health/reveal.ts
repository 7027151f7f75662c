// One click from a health finding to its secret: scroll the secrets list to the card and give it
// the focus. The list is virtualised (SecretsManager's VirtualList: rows `li[data-index]` in
// `ul[aria-label="Secrets"]`, each an `article` named by the secret's title), so the card may not
// exist yet: scroll to where it should be, estimated from the rows on the page, let the list
// render, and look again. A search that hides the card is cleared first.
// The search box and the list are found by their accessible names, in the language shown.
import { i18n } from '../../i18n/i18n.ts';

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

/** Empties the secrets search the way typing would, so React's state follows. */
function clearSearch(): boolean {
  const input = document.querySelector<HTMLInputElement>(
    `input[aria-label="${i18n.t('Search secrets')}"]`,
  );
  if (!input || input.value === '') return false;
  // React tracks the value through this setter; assigning `input.value` would go unnoticed.
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, '');
  input.dispatchEvent(new Event('input', { bubbles: true }));
  return true;
}

function findCard(list: Element, index: number, title: string): HTMLElement | null {
  const row = list.querySelector(`li[data-index="${index}"] article`);
  if (row instanceof HTMLElement && row.getAttribute('aria-label') === title) return row;
  for (const a of list.querySelectorAll<HTMLElement>('article')) {
    if (a.getAttribute('aria-label') === title) return a;
  }
  return null;
}

/** Where row `index` should start, in page coordinates, from the rows rendered now. */
function estimateTop(list: HTMLElement, index: number, total: number): number {
  const listTop = list.getBoundingClientRect().top + window.scrollY;
  const rows = [...list.querySelectorAll<HTMLElement>('li[data-index]')];
  const average = total > 0 ? list.offsetHeight / total : 0;
  let nearest: HTMLElement | null = null;
  for (const r of rows) {
    if (
      !nearest ||
      Math.abs(Number(r.dataset.index) - index) < Math.abs(Number(nearest.dataset.index) - index)
    ) {
      nearest = r;
    }
  }
  if (!nearest) return listTop + index * average;
  const top = nearest.getBoundingClientRect().top + window.scrollY;
  return top + (index - Number(nearest.dataset.index)) * (nearest.offsetHeight || average);
}

/** Marks the card until it loses the focus: a ring the card itself does not draw. */
function focusCard(card: HTMLElement) {
  if (!card.hasAttribute('tabindex')) card.setAttribute('tabindex', '-1');
  card.scrollIntoView({ block: 'center' });
  card.style.outline = '2px solid rgb(99 102 241)';
  card.style.outlineOffset = '4px';
  card.style.borderRadius = '1rem';
  card.addEventListener(
    'blur',
    () => {
      card.style.outline = '';
      card.style.outlineOffset = '';
    },
    { once: true },
  );
  card.focus({ preventScroll: true });
}

/**
 * Scrolls to the card of the secret at `index` of the full list (sorted by title, as shown when
 * nothing is searched) and focuses it. Resolves to whether the card was found.
 */
export async function revealSecret(index: number, title: string, total: number): Promise<boolean> {
  if (clearSearch()) await nextFrame();
  for (let attempt = 0; attempt < 30; attempt += 1) {
    const list = document.querySelector<HTMLElement>(`ul[aria-label="${i18n.t('Secrets')}"]`);
    if (list) {
      const card = findCard(list, index, title);
      if (card) {
        focusCard(card);
        return true;
      }
      window.scrollTo({
        top: Math.max(0, estimateTop(list, index, total) - window.innerHeight / 3),
      });
    }
    await nextFrame();
    await nextFrame();
  }
  return false;
}
