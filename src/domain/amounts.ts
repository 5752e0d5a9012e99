/** How the console writes an amount: 2 decimals with thousands separators (tables, footers, dialogs). */

const amountFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** An amount with 2 decimals and thousands separators, '-' when missing or not a number. */
export function formatAmount(value: unknown): string {
  const n = typeof value === 'number' ? value : Number(value);
  if (value === null || value === undefined || value === '' || Number.isNaN(n)) return '-';
  return amountFormat.format(n);
}

/** An amount followed by its currency, as the totals footers write it: '1,234.56 USD'. */
export function formatMoney(amount: unknown, currency: string): string {
  return `${formatAmount(amount)} ${currency}`.trim();
}
