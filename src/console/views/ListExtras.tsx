/** Count cards above a list and the totals footer under it: general parts any list definition can use. */
import { useQuery } from '@tanstack/react-query';
import type { CountCards, TotalsFooter, WholeReply } from '../../definitions/definitions';
import { callApi } from '../request';
import { formatAmount } from '../format';

const toneClass = {
  green: 'border-l-emerald-600',
  yellow: 'border-l-amber-500',
  red: 'border-l-red-600',
  blue: 'border-l-sky-600',
  gray: 'border-l-line',
} as const;

export function CountCardsStrip({ screenId, def }: { screenId: string; def: CountCards }) {
  const counts = useQuery({
    queryKey: ['counts', screenId],
    retry: false,
    queryFn: async () => {
      const res = await callApi(def.call, {});
      if (!res.ok) throw new Error(String(res.statusCode));
      return res.data as Record<string, unknown>;
    },
  });
  // one row of small chips: the numbers at a glance without pushing the table down
  return (
    <ul className="flex flex-wrap items-center gap-2" aria-label="Transaction counts">
      {def.cards.map((c) => (
        <li key={c.key} className={`flex items-baseline gap-2 rounded-md border border-line border-l-4 bg-surface px-2.5 py-1 ${toneClass[c.tone]}`} data-card={c.label}>
          <span className="text-xs font-medium uppercase tracking-wide text-ink-soft">{c.label}</span>
          <span className="text-sm font-semibold tabular-nums">{counts.data ? Number(counts.data[c.key] ?? 0).toLocaleString('en-US') : '–'}</span>
        </li>
      ))}
    </ul>
  );
}

export function TotalsFooterView({ def, reply }: { def: TotalsFooter; reply: WholeReply }) {
  return (
    <footer className="flex flex-col items-end gap-1 rounded-md border border-line bg-surface px-4 py-3 text-sm" aria-label="Totals">
      {def.items.map((i) => {
        const v = i.value(reply);
        return (
          <p key={i.label} className="tabular-nums">
            <span className="text-ink-soft">{i.label}: </span>
            <strong>
              {formatAmount(v ?? 0)} {i.currency}
            </strong>
          </p>
        );
      })}
      {def.note && <p className="text-xs text-ink-soft">{def.note}</p>}
    </footer>
  );
}
