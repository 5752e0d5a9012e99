/**
 * IPG Provider Currencies (spec 002 §2, §4, §5, §8): the provider's currencies with their transaction
 * and settlement rates and an active switch; a lock icon while the provider is locked and a warning
 * while today's rates are not approved; Enable Edit, Disable Edit and Save (the whole list as one
 * change request) for holders of ipg-currency-edit; the change-request panel for approvers.
 *
 * Hand-written because it edits a table of rows; its rate inputs are the runtime's RateInput.
 */
import { useMemo, useState } from 'react';
import { Link, useParams } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { currencyApprove, currencyList, currencySave, rateLimits, settlementRate, transactionRate, type CurrencyRow } from '../api/providerCurrencies';
import type { DataOf } from '../api/contract';
import { hasPermission, isSuperUser } from '../domain/permissions';
import { callApi, failureMessage } from '../console/request';
import { useSession } from '../console/session';
import { toast } from '../console/ui/toast';
import { Button, Loader, LockIcon, Tag, statusTone } from '../console/ui/primitives';
import { RateInput } from '../console/ui/RateInput';
import { formatRate } from '../console/ui/rate';
import { formatDateTime } from '../console/format';
import { PageHeader } from '../console/views/PageHeader';
import { ChangeRequestPanel } from '../console/views/ChangeRequestPanel';
import { Switch } from '../console/views/FormFields';
import { imageUrl, PLACEHOLDER_IMAGE } from '../console/views/cells';
import { listStatusText } from '../domain/recordStatus';

type ListData = DataOf<typeof currencyList>;
interface Draft {
  currency_code: string;
  transaction_rate: number;
  settlement_rate: number;
  disabled: 0 | 1;
}
type RowErrors = Record<string, { transaction?: string; settlement?: string }>;

const rules = { decimals: rateLimits.decimals, maxDigits: rateLimits.maxDigits };

/** The messages of the rate rules for each row (empty when every rate is valid). */
export function rateErrors(rows: readonly Draft[]): RowErrors {
  const out: RowErrors = {};
  for (const r of rows) {
    const t = transactionRate.safeParse(r.transaction_rate);
    const s = settlementRate.safeParse(r.settlement_rate);
    if (!t.success || !s.success) out[r.currency_code] = { transaction: t.error?.issues[0]?.message, settlement: s.error?.issues[0]?.message };
  }
  return out;
}

/** What a non-super user is told when the route names another provider than their own (spec 002 §2). */
export function ownProviderNote(name: string, code: string, requested: string): string {
  return `You see the currencies of your own IPG provider, ${name} (provider bank code ${code}), not those of ${requested}: a user who is not a super user works on the provider of their own branch only.`;
}

export const noOwnProviderNote =
  "No IPG provider is linked to your branch. IPG Provider Currencies shows the provider of an IPG bank user's own branch; an administrator opens any provider from the IPG Providers list.";

function WarningIcon() {
  return (
    <span
      className="inline-flex items-center gap-1 rounded bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/50 dark:text-amber-100"
      role="status"
      title="Today's rates are not updated"
    >
      <svg viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor" aria-hidden="true">
        <path
          fillRule="evenodd"
          d="M8.485 2.495c.673-1.167 2.357-1.167 3.03 0l6.28 10.875c.673 1.167-.17 2.625-1.516 2.625H3.72c-1.347 0-2.189-1.458-1.515-2.625L8.485 2.495zM10 6a.75.75 0 01.75.75v3.5a.75.75 0 01-1.5 0v-3.5A.75.75 0 0110 6zm0 9a1 1 0 100-2 1 1 0 000 2z"
          clipRule="evenodd"
        />
      </svg>
      Today's rates are not updated
    </span>
  );
}

export default function ProviderCurrencies() {
  const params = useParams({ strict: false }) as { id?: string };
  const user = useSession();
  const queryClient = useQueryClient();
  const requested = params.id ?? '';
  const superUser = isSuperUser(user?.permissions);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<Draft[]>([]);
  const [errors, setErrors] = useState<RowErrors>({});
  const [saving, setSaving] = useState(false);

  // spec 002 §2: a super user opens the provider in the route; anyone else sees their own branch's,
  // whatever the route names (the server refuses another provider's), and is told which one it is
  const asked = superUser ? requested : '';
  const queryKey = useMemo(() => ['providerCurrencies', asked], [asked]);
  const query = useQuery({
    queryKey,
    enabled: !(superUser && !requested),
    retry: false,
    queryFn: async (): Promise<ListData> => {
      const res = await callApi(currencyList, { provider_bank_code: asked });
      if (!res.ok) throw Object.assign(new Error(failureMessage(res) ?? `The currencies could not be loaded (${res.statusCode})`), { statusCode: res.statusCode });
      return res.data;
    },
  });
  const reload = () => void queryClient.invalidateQueries({ queryKey });
  const data = query.data;
  const canEdit = !!data && data.provider.locked === 0 && hasPermission(user?.permissions, 'ipg-currency-edit');

  const rows: Draft[] = editing
    ? draft
    : (data?.currencies ?? []).map((c: CurrencyRow) => ({
        currency_code: c.currency_code,
        transaction_rate: c.transaction_rate,
        settlement_rate: c.settlement_rate,
        disabled: c.disabled === 0 ? 0 : 1,
      }));
  const updatedAt = new Map((data?.currencies ?? []).map((c) => [c.currency_code, c.updated_at]));

  function startEditing() {
    setDraft(rows.map((r) => ({ ...r })));
    setErrors({});
    setEditing(true);
  }

  function stopEditing() {
    setEditing(false);
    setErrors({});
  }

  function change(code: string, patch: Partial<Draft>) {
    const next = draft.map((r) => (r.currency_code === code ? { ...r, ...patch } : r));
    setDraft(next);
    if (errors[code]) setErrors(rateErrors(next));
  }

  async function save() {
    if (!data) return;
    const found = rateErrors(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    const res = await callApi(currencySave, {
      provider_bank_code: data.provider.provider_bank_code,
      currencies: draft.map((r) => ({
        disabled: r.disabled,
        provider_bank_code: data.provider.provider_bank_code,
        currency_code: r.currency_code,
        transaction_rate: r.transaction_rate,
        settlement_rate: r.settlement_rate,
      })),
    });
    setSaving(false);
    if (res.ok) {
      toast('success', 'IPG provider currencies saved');
      stopEditing();
      reload();
    } else {
      toast('warning', 'IPG provider currencies save Failed!.');
    }
  }

  const title = data ? `IPG Provider Currencies: ${data.provider.provider_bank_name}` : 'IPG Provider Currencies';
  const crumbs = requested ? [{ label: 'IPG Providers', to: '/provider' }, { label: 'Currencies' }] : [{ label: 'IPG Provider Currencies' }];

  if (superUser && !requested) {
    return (
      <div className="flex flex-col gap-4">
        <PageHeader screen={{ title: 'IPG Provider Currencies', breadcrumb: crumbs }} />
        <p className="rounded-md border border-line bg-surface p-4 text-sm">
          Choose a provider on the{' '}
          <Link to="/provider" className="text-accent underline">
            IPG Providers
          </Link>{' '}
          list and open its Currencies.
        </p>
      </div>
    );
  }
  if (query.isPending) return <Loader />;
  if (!superUser && (query.error as { statusCode?: number } | null)?.statusCode === 404) {
    return (
      <div className="flex flex-col gap-4">
        <PageHeader screen={{ title: 'IPG Provider Currencies', breadcrumb: crumbs }} />
        <p role="status" className="rounded-md border border-line bg-surface p-4 text-sm">
          {noOwnProviderNote}
        </p>
      </div>
    );
  }
  if (query.isError || !data) {
    return (
      <div className="flex flex-col gap-4">
        <PageHeader screen={{ title: 'IPG Provider Currencies', breadcrumb: crumbs }} />
        <p role="alert" className="rounded-md border border-line bg-surface p-4 text-sm text-red-700 dark:text-red-400">
          {query.error?.message ?? 'The currencies could not be loaded.'}
        </p>
      </div>
    );
  }

  const provider = data.provider;
  return (
    <div className="flex flex-col gap-4">
      <PageHeader screen={{ title, breadcrumb: crumbs }}>
        {canEdit && !editing && (
          <Button variant="primary" onClick={startEditing}>
            Enable Edit
          </Button>
        )}
        {canEdit && editing && <Button onClick={stopEditing}>Disable Edit</Button>}
        {canEdit && (
          <Button variant="success" disabled={!editing || saving} onClick={() => void save()}>
            {saving ? 'Saving…' : 'Save'}
          </Button>
        )}
      </PageHeader>

      {!superUser && requested && requested !== provider.provider_bank_code && (
        <p role="status" className="rounded-md border border-line bg-surface px-4 py-2 text-sm" data-testid="own-provider-note">
          {ownProviderNote(provider.provider_bank_name, provider.provider_bank_code, requested)}
        </p>
      )}

      <section aria-label="Provider" className="flex flex-wrap items-center gap-4 rounded-md border border-line bg-surface px-4 py-3">
        <img
          src={imageUrl(provider.provider_logo) ?? PLACEHOLDER_IMAGE}
          alt={`${provider.provider_bank_name} logo`}
          className="h-12 w-auto rounded border border-line object-contain"
          onError={(e) => ((e.target as HTMLImageElement).src = PLACEHOLDER_IMAGE)}
        />
        <div className="flex flex-col">
          <span className="font-semibold">{provider.provider_bank_name}</span>
          <span className="text-xs text-ink-soft">Provider bank code {provider.provider_bank_code}</span>
        </div>
        <Tag tone={statusTone(provider.status)}>{provider.status}</Tag>
        {provider.locked !== 0 && <LockIcon />}
        {!data.hasRatesUpdated && <WarningIcon />}
        {editing && <span className="ml-auto text-xs font-medium text-accent">Editing: rates are entered from the right; Backspace resets a rate to zero.</span>}
      </section>

      {hasPermission(user?.permissions, 'ipg-currency-approve') && (
        <ChangeRequestPanel def={{ permission: 'ipg-currency-approve', approve: currencyApprove, entity: 'IPG Provider Currency' }} requests={data.changeRequests} onDecided={reload} />
      )}

      <div className="overflow-auto rounded-md border border-line">
        <table className="w-full border-collapse text-sm tabular-nums">
          <caption className="sr-only">Currencies of {provider.provider_bank_name}</caption>
          <thead className="bg-muted">
            <tr>
              <th scope="col" className="border-b border-line px-3 py-2 text-left font-semibold">
                Currency Code
              </th>
              <th scope="col" className="border-b border-line px-3 py-2 text-right font-semibold">
                Transaction Rate
              </th>
              <th scope="col" className="border-b border-line px-3 py-2 text-right font-semibold">
                Settlement Rate
              </th>
              <th scope="col" className="border-b border-line px-3 py-2 text-left font-semibold">
                Active
              </th>
              <th scope="col" className="border-b border-line px-3 py-2 text-left font-semibold">
                Updated At
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={5} className="px-3 py-8 text-center text-ink-soft">
                  This provider has no currencies.
                </td>
              </tr>
            )}
            {rows.map((r) => {
              const e = errors[r.currency_code];
              return (
                <tr key={r.currency_code} className="border-b border-line/60 odd:bg-surface even:bg-muted/40" data-currency={r.currency_code}>
                  <th scope="row" className="px-3 py-1.5 text-left font-semibold">
                    {r.currency_code}
                  </th>
                  <td className="px-3 py-1.5 text-right align-top">
                    {editing ? (
                      <div className="ml-auto flex max-w-48 flex-col gap-0.5">
                        <RateInput
                          aria-label={`${r.currency_code} transaction rate`}
                          aria-invalid={!!e?.transaction}
                          value={r.transaction_rate}
                          rules={rules}
                          onValue={(v) => change(r.currency_code, { transaction_rate: v })}
                        />
                        {e?.transaction && (
                          <span role="alert" className="text-left text-xs text-red-700 dark:text-red-400">
                            {e.transaction}
                          </span>
                        )}
                      </div>
                    ) : (
                      formatRate(r.transaction_rate, rules.decimals)
                    )}
                  </td>
                  <td className="px-3 py-1.5 text-right align-top">
                    {editing ? (
                      <div className="ml-auto flex max-w-48 flex-col gap-0.5">
                        <RateInput
                          aria-label={`${r.currency_code} settlement rate`}
                          aria-invalid={!!e?.settlement}
                          value={r.settlement_rate}
                          rules={rules}
                          onValue={(v) => change(r.currency_code, { settlement_rate: v })}
                        />
                        {e?.settlement && (
                          <span role="alert" className="text-left text-xs text-red-700 dark:text-red-400">
                            {e.settlement}
                          </span>
                        )}
                      </div>
                    ) : (
                      formatRate(r.settlement_rate, rules.decimals)
                    )}
                  </td>
                  <td className="px-3 py-1.5 align-top">
                    <Switch
                      id={`active-${r.currency_code}`}
                      label={`${r.currency_code} active`}
                      on={r.disabled === 0}
                      disabled={!editing}
                      onToggle={(on) => change(r.currency_code, { disabled: on ? 0 : 1 })}
                    >
                      <span className="text-xs text-ink-soft">{listStatusText(r.disabled)}</span>
                    </Switch>
                  </td>
                  <td className="px-3 py-1.5 align-top text-ink-soft">{formatDateTime(updatedAt.get(r.currency_code))}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
