// Dates in US short format (docs/product.md §9 "Display").
const us = new Intl.DateTimeFormat('en-US', { month: 'numeric', day: 'numeric', year: 'numeric' });

export const formatDate = (iso: string): string => us.format(new Date(iso));
