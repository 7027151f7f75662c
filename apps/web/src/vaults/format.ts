// Short dates (docs/product.md §9 "Display"): numeric day, month and year, in the reader's
// conventions (i18n/format.ts; 3/4/2026 in US English, 4.3.2026 in German).
import { formatDate as formatIn } from '../i18n/format.ts';

export const formatDate = (iso: string): string =>
  formatIn(iso, { month: 'numeric', day: 'numeric', year: 'numeric' });
