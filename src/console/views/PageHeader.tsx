import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import type { AnyScreen } from '../../definitions/definitions';

/**
 * Breadcrumb and title of a screen, with room for its main buttons. The trail is shown only where it
 * leads somewhere (a form under its list: "Banks › Create"); a screen at the top of its trail shows its
 * heading alone, which says the same.
 */
export function PageHeader({ screen, children }: { screen: Pick<AnyScreen, 'title' | 'breadcrumb'>; children?: ReactNode }) {
  const crumbs = screen.breadcrumb ?? [];
  const leads = crumbs.some((c) => c.to);
  return (
    <header className="flex flex-wrap items-center justify-between gap-3">
      <div>
        {leads && (
          <nav aria-label="Breadcrumb" className="text-xs text-ink-soft">
            <ol className="flex gap-1">
              {crumbs.map((c, i) => (
                <li key={i} className="flex gap-1">
                  {i > 0 && <span aria-hidden="true">›</span>}
                  {c.to ? (
                    <Link to={c.to} className="hover:text-accent hover:underline">
                      {c.label}
                    </Link>
                  ) : (
                    <span aria-current={i === crumbs.length - 1 ? 'page' : undefined}>{c.label}</span>
                  )}
                </li>
              ))}
            </ol>
          </nav>
        )}
        <h1 className="text-xl font-semibold text-ink">{screen.title}</h1>
      </div>
      <div className="flex gap-2">{children}</div>
    </header>
  );
}
