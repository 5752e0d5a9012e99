/**
 * The parts of the KYC review: the Approve/Reject switch, the reject-reason box, a document image with
 * a placeholder, and one submission laid out in its sections (src/domain/kyc.ts decides the layout and
 * what a switch or a reason box changes). Beside an earlier submission, each field whose value differs
 * (src/domain/kycChanges.ts) carries a "Changed" tag, the current column shows the earlier value
 * struck through under the new one, and "Changed only" hides the items with no changed field.
 */
import { useId } from 'react';
import { groupReason, isSwitchApproved, KYC_REASON_MAX, kycSections, setApproved, setReason, type KycData, type KycGroupId, type KycItem } from '../../domain/kyc';
import { isKycItemChanged, kycItemKeys } from '../../domain/kycChanges';
import { imageUrl } from '../../console/views/cells';
import { inputClass, Tag } from '../../console/ui/primitives';

export const DOCUMENT_PLACEHOLDER =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200" viewBox="0 0 320 200"><rect width="320" height="200" rx="8" fill="#e5e7eb"/><rect x="130" y="62" width="60" height="46" rx="4" fill="none" stroke="#9ca3af" stroke-width="4"/><circle cx="148" cy="78" r="6" fill="#9ca3af"/><path d="M134 104l18-16 12 10 10-8 12 14z" fill="#9ca3af"/><text x="160" y="140" font-family="sans-serif" font-size="14" text-anchor="middle" fill="#6b7280">No image</text></svg>',
  );

/** The Approve/Reject switch: a real switch (role="switch"), labelled by the field's title. */
export function DecisionSwitch({ label, approved, disabled, onChange }: { label: string; approved: boolean; disabled?: boolean; onChange?: (approved: boolean) => void }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={approved}
      aria-label={label}
      disabled={disabled}
      onClick={() => onChange?.(!approved)}
      className="group inline-flex items-center gap-2 rounded-full text-xs font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent disabled:cursor-not-allowed"
    >
      <span className={approved ? 'text-ink-soft' : 'font-semibold text-red-700 dark:text-red-400'}>Reject</span>
      <span className={`relative inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors ${approved ? 'bg-emerald-600' : 'bg-red-600'} ${disabled ? 'opacity-50' : ''}`}>
        <span className={`inline-block h-4 w-4 rounded-full bg-white shadow transition-transform ${approved ? 'translate-x-[18px]' : 'translate-x-0.5'}`} />
      </span>
      <span className={approved ? 'font-semibold text-emerald-700 dark:text-emerald-400' : 'text-ink-soft'}>Approve</span>
    </button>
  );
}

export function ReasonBox({
  label,
  accessibleLabel,
  value,
  approved,
  readOnly,
  invalid,
  onChange,
}: {
  label: string;
  /** The name a screen reader hears (the field's title and "Reject Reason"). */
  accessibleLabel?: string;
  value: string;
  approved: boolean;
  readOnly?: boolean;
  invalid?: boolean;
  onChange?: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <span className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-[11px] font-medium uppercase tracking-wide text-ink-soft">
          {label}
        </label>
        {!readOnly && !approved && (
          <span className="shrink-0 text-[11px] tabular-nums text-ink-soft" aria-hidden="true">
            {value.length}/{KYC_REASON_MAX}
          </span>
        )}
      </span>
      <textarea
        id={id}
        rows={approved ? 1 : 2}
        maxLength={KYC_REASON_MAX}
        className={`${inputClass} resize-none ${invalid ? 'border-red-600 ring-2 ring-red-600/30' : ''}`}
        value={value}
        placeholder={approved ? '' : 'Why is this rejected?'}
        readOnly={readOnly}
        disabled={!readOnly && approved}
        aria-invalid={invalid || undefined}
        aria-label={accessibleLabel}
        onChange={(e) => onChange?.(e.target.value)}
      />
    </div>
  );
}

export function KycImage({ path, alt, small = false }: { path: string | null; alt: string; small?: boolean }) {
  const src = imageUrl(path) ?? DOCUMENT_PLACEHOLDER;
  return (
    <img
      src={src}
      alt={path ? alt : `${alt}: no image`}
      className={`${small ? 'h-20' : 'h-40'} w-full rounded border border-line bg-muted object-contain`}
      onError={(e) => {
        const img = e.target as HTMLImageElement;
        if (img.src !== DOCUMENT_PLACEHOLDER) img.src = DOCUMENT_PLACEHOLDER;
      }}
    />
  );
}

/** The mark of a field whose value differs from the earlier submission: a tag with a word and an icon, never colour alone. */
export function ChangedTag() {
  return (
    <span data-changed-tag>
      <Tag tone="yellow">
        <svg aria-hidden="true" viewBox="0 0 16 16" className="mr-1 h-3 w-3" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M2 5h10l-3-3M14 11H4l3 3" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        Changed
      </Tag>
    </span>
  );
}

const isBlank = (v: string | null | undefined) => v === null || v === undefined || v.trim() === '';

/**
 * A read-only value. `changed` marks it; with `earlier` (the current column beside an earlier
 * submission) the earlier value shows under it, struck through, and describes it to a screen reader.
 */
function ReadOnlyValue({ label, value, changed = false, earlier }: { label: string; value: string | null; changed?: boolean; earlier?: string | null }) {
  const id = useId();
  const showEarlier = changed && earlier !== undefined;
  return (
    <div className="flex min-w-0 flex-col gap-0.5" data-field-changed={changed ? 'true' : undefined}>
      <span className="flex min-h-6 items-center justify-between gap-2">
        <span id={id} className="text-[11px] font-medium uppercase tracking-wide text-ink-soft">
          {label}
        </span>
        {changed && <ChangedTag />}
      </span>
      <span
        aria-labelledby={id}
        aria-describedby={showEarlier ? `${id}-earlier` : undefined}
        role="textbox"
        aria-readonly="true"
        className="min-h-[34px] truncate rounded-md border border-line bg-muted px-2.5 py-1.5 text-sm text-ink"
        title={value ?? ''}
      >
        {value === null || value === '' ? <span className="text-ink-soft">-</span> : value}
      </span>
      {showEarlier && (
        <span id={`${id}-earlier`} data-earlier-value className="truncate text-xs text-ink-soft" title={earlier ?? ''}>
          Earlier: {isBlank(earlier) ? <span>none given</span> : <span className="line-through">{earlier}</span>}
        </span>
      )}
    </div>
  );
}

/** How one column relates to the other submission: the changed keys, and (in the current column) the earlier values. */
export interface KycComparison {
  readonly changed: ReadonlySet<string>;
  /** The earlier submission, for the current column to show the old values beside the new. */
  readonly earlier?: KycData;
  /** "Changed only": items with no changed field are hidden, but those showing a field of `keepShown`. */
  readonly changedOnly: boolean;
  /** Fields shown whatever the toggle says (a rejected field the reviewer was asked to give a reason for). */
  readonly keepShown?: ReadonlySet<string>;
}

/** One item: its title, read-only value(s), switch and reason box. */
function ItemCard({
  item,
  data,
  prefix,
  readOnly,
  invalidKeys,
  onChange,
  comparison,
}: {
  item: KycItem;
  data: KycData;
  prefix: string;
  readOnly: boolean;
  invalidKeys: ReadonlySet<string>;
  onChange: (next: KycData) => void;
  comparison?: KycComparison;
}) {
  const switchKey = item.kind === 'field' ? item.key : item.keys[0];
  const approved = isSwitchApproved(data, switchKey);
  const reasonTarget: string = item.kind === 'field' ? item.key : item.group;
  const reason = item.kind === 'field' ? data[item.key].reason : groupReason(data, item.group as KycGroupId);
  const keys = item.kind === 'field' ? [item.key] : item.keys;
  const invalid = keys.some((k) => invalidKeys.has(k));
  const title = item.title;
  const changed = comparison?.changed ?? new Set<string>();
  const itemChanged = isKycItemChanged(item, changed);
  const earlier = comparison?.earlier;
  return (
    <div
      data-kyc-item={item.kind === 'field' ? item.key : item.group}
      data-changed={itemChanged ? 'true' : undefined}
      className={`@container flex flex-col gap-2 rounded-md border bg-surface p-3 ${approved ? 'border-line' : 'border-red-300 dark:border-red-800'} ${itemChanged ? 'border-l-4 border-l-amber-500' : ''}`}
    >
      <div className="flex items-center justify-between gap-2">
        <h4 className="flex flex-wrap items-center gap-2 text-sm font-semibold text-ink">
          {title}
          {item.kind === 'field' && itemChanged && <ChangedTag />}
        </h4>
        <DecisionSwitch label={`${prefix}${title}`} approved={approved} disabled={readOnly} onChange={(a) => onChange(setApproved(data, switchKey, a))} />
      </div>
      {item.kind === 'field' ? (
        item.image ? (
          itemChanged && earlier ? (
            <div className="grid grid-cols-[3fr_1fr] items-start gap-2">
              <KycImage path={data[item.key].value} alt={title} />
              <figure className="flex min-w-0 flex-col gap-1" data-earlier-value>
                <figcaption className="text-xs text-ink-soft">Earlier</figcaption>
                {/* secondary: faded, the caption at full contrast */}
                <span className="opacity-75">
                  <KycImage path={earlier[item.key]?.value ?? null} alt={`Earlier ${title}`} small />
                </span>
              </figure>
            </div>
          ) : (
            <KycImage path={data[item.key].value} alt={title} />
          )
        ) : (
          <div className="grid gap-2 @md:grid-cols-2">
            <ReadOnlyValue label="Value" value={data[item.key].value} changed={itemChanged} earlier={earlier ? (earlier[item.key]?.value ?? null) : undefined} />
            <ReasonBox
              label="Reject Reason"
              accessibleLabel={`${prefix}${title} Reject Reason`}
              value={reason}
              approved={approved}
              readOnly={readOnly}
              invalid={invalid}
              onChange={(v) => onChange(setReason(data, reasonTarget, v))}
            />
          </div>
        )
      ) : (
        <div className="grid grid-cols-2 gap-2">
          {item.keys.map((k) => (
            <ReadOnlyValue key={k} label={data[k].title} value={data[k].value} changed={changed.has(k)} earlier={earlier ? (earlier[k]?.value ?? null) : undefined} />
          ))}
        </div>
      )}
      {!(item.kind === 'field' && !item.image) && (
        <ReasonBox
          label="Reject Reason"
          accessibleLabel={`${prefix}${title} Reject Reason`}
          value={reason}
          approved={approved}
          readOnly={readOnly}
          invalid={invalid}
          onChange={(v) => onChange(setReason(data, reasonTarget, v))}
        />
      )}
    </div>
  );
}

/** A whole submission in its sections. `prefix` labels its controls apart from the other column's. */
export function KycSubmission({
  data,
  readOnly,
  prefix = '',
  invalidKeys = new Set(),
  onChange = () => {},
  comparison,
}: {
  data: KycData;
  readOnly: boolean;
  prefix?: string;
  invalidKeys?: ReadonlySet<string>;
  onChange?: (next: KycData) => void;
  /** Beside an earlier submission: what changed, and whether only that is shown. */
  comparison?: KycComparison;
}) {
  const shown = (item: KycItem) => !comparison?.changedOnly || isKycItemChanged(item, comparison.changed) || kycItemKeys(item).some((k) => comparison.keepShown?.has(k));
  const sections = kycSections(data)
    .map((s) => ({ ...s, items: s.items.filter(shown) }))
    .filter((s) => s.items.length > 0);
  const render = (s: (typeof sections)[number], grid: string) => (
    <section key={s.title} aria-label={`${prefix}${s.title}`} className="flex min-w-0 flex-col gap-2">
      <h3 className="border-b border-line pb-1 text-xs font-semibold uppercase tracking-wide text-ink-soft">{s.title}</h3>
      <div className={`grid gap-3 ${grid}`}>
        {s.items.map((item) => (
          <ItemCard
            key={item.kind === 'field' ? item.key : item.group}
            item={item}
            data={data}
            prefix={prefix}
            readOnly={readOnly}
            invalidKeys={invalidKeys}
            onChange={onChange}
            comparison={comparison}
          />
        ))}
      </div>
    </section>
  );
  const groups = sections.filter((s) => s.items.every((i) => i.kind === 'group'));
  return (
    <div className="@container">
      <div className="flex flex-col gap-5">
        {sections.filter((s) => s.title === 'Personal Details').map((s) => render(s, '@2xl:grid-cols-2 @5xl:grid-cols-3'))}
        <div className="grid gap-5 @6xl:grid-cols-3">{groups.map((s) => render(s, ''))}</div>
        {sections.filter((s) => s.title === 'Personal Documents').map((s) => render(s, '@xl:grid-cols-2 @4xl:grid-cols-3'))}
      </div>
    </div>
  );
}
