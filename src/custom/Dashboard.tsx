/** The home screen after sign-in. The charts of the app and audit dashboards are their own issue. */
import { Link } from '@tanstack/react-router';
import { useSession } from '../console/session';
import { menuFor } from '../console/access';
import { screens } from '../../screens';
import { PageHeader } from '../console/views/PageHeader';

export default function Dashboard({ title = 'Dashboard' }: { title?: string }) {
  const user = useSession();
  const groups = menuFor(screens, user?.permissions ?? []).filter((g) => g.section !== 'Main');
  return (
    <div className="flex flex-col gap-6">
      <PageHeader screen={{ title, breadcrumb: [{ label: title }] }} />
      <p className="text-sm text-ink-soft">
        Signed in as <strong className="text-ink">{user?.username || 'User'}</strong>.
      </p>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
        {groups.map((g) => (
          <section key={g.section} className="rounded-md border border-line bg-surface p-4">
            <h2 className="mb-2 text-sm font-semibold">{g.section}</h2>
            <ul className="flex flex-col gap-1 text-sm">
              {g.items.map((i) => (
                <li key={i.to}>
                  <Link to={i.to} className="text-accent hover:underline">
                    {i.label}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}
