/**
 * The form field kinds beyond plain inputs: image upload, image slots with links, tag picker, date,
 * version boxes, toggle buttons, switch and rate. Each is a controlled component: the form view hands
 * it the value, a setter and its error messages; none knows which screen it is on.
 */
import { useState, type ReactNode } from 'react';
import type { ImageSpec, Option, RateSpec } from '../../definitions/definitions';
import { Button, FieldRow, Tag, inputClass } from '../ui/primitives';
import { RateInput } from '../ui/RateInput';
import { imageSource, readImageFile } from '../ui/images';
import { PLACEHOLDER_IMAGE } from './cells';

function ErrorText({ id, children }: { id: string; children?: string }) {
  if (!children) return null;
  return (
    <p role="alert" id={id} className="text-xs text-red-700 dark:text-red-400">
      {children}
    </p>
  );
}

function Legend({ label, required }: { label: string; required?: boolean }) {
  return (
    <legend className="mb-1 text-sm font-medium text-ink">
      {label}
      {required && (
        <span aria-hidden="true" className="text-red-600">
          {' '}
          *
        </span>
      )}
    </legend>
  );
}

// ---- image ------------------------------------------------------------------------------------

export interface ImagePickerProps {
  id: string;
  label: string;
  value: string;
  spec: ImageSpec;
  required?: boolean;
  error?: string;
  disabled?: boolean;
  /** A new value (base64 or '' when removed). */
  onValue: (value: string) => void;
  /** The chosen file was refused: show this message. */
  onInvalid: (message: string) => void;
  /** Offer a Remove button (optional slots). */
  removable?: boolean;
}

/** One image: a preview at the display size, a file picker, a hint, the error. */
export function ImagePicker({ id, label, value, spec, required, error, disabled, onValue, onInvalid, removable }: ImagePickerProps) {
  const [reading, setReading] = useState(false);
  const src = imageSource(value);
  const accept = spec.toPng ? 'image/*' : spec.formats.map((f) => `image/${f}`).join(',');
  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-sm font-medium text-ink">
        <label htmlFor={id}>{label}</label>
        {required && (
          <span aria-hidden="true" className="text-red-600">
            {' '}
            *
          </span>
        )}
      </span>
      <div
        className="grid place-items-center overflow-hidden rounded-md border border-dashed border-line bg-muted"
        style={{ width: spec.width, height: spec.height, maxWidth: '100%' }}
        data-image-preview={id}
      >
        {src ? (
          <img src={src} alt={`${label} preview`} className="max-h-full max-w-full object-contain" onError={(e) => ((e.target as HTMLImageElement).src = PLACEHOLDER_IMAGE)} />
        ) : (
          <span className="text-xs text-ink-soft">{reading ? 'Reading…' : 'No image'}</span>
        )}
      </div>
      <span className="flex flex-wrap items-center gap-2">
        <input
          id={id}
          type="file"
          accept={accept}
          disabled={disabled}
          aria-label={label}
          aria-invalid={!!error}
          aria-describedby={error ? `${id}-error` : spec.hint ? `${id}-hint` : undefined}
          className="peer sr-only"
          onChange={async (e) => {
            const input = e.currentTarget;
            const file = input.files?.[0];
            if (!file) return;
            setReading(true);
            const read = await readImageFile(file, spec);
            setReading(false);
            input.value = '';
            if ('problem' in read) onInvalid(read.problem);
            else onValue(read.value);
          }}
        />
        <label
          htmlFor={id}
          aria-hidden="true"
          className={`inline-flex cursor-pointer items-center rounded-md border border-line bg-surface px-3 py-1.5 text-sm font-medium text-ink hover:bg-muted peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-accent ${disabled ? 'pointer-events-none opacity-50' : ''}`}
        >
          {value ? 'Change image' : 'Choose image'}
        </label>
        {removable && value && !disabled && (
          <Button className="px-2 py-1 text-xs" aria-label={`Remove ${label}`} onClick={() => onValue('')}>
            Remove
          </Button>
        )}
      </span>
      {spec.hint && (
        <p id={`${id}-hint`} className="text-xs text-ink-soft">
          {spec.hint}
        </p>
      )}
      <ErrorText id={`${id}-error`}>{error}</ErrorText>
    </div>
  );
}

// ---- image slots ------------------------------------------------------------------------------

export interface ImageSlot {
  image: string;
  link: string;
}

/** `count` image slots, each with a link under it. */
export function ImageSlots({
  id,
  label,
  count,
  slots,
  spec,
  linkLabel,
  linkMaxLength,
  required,
  error,
  slotErrors,
  onSlots,
  onSlotInvalid,
  onLinkBlur,
}: {
  id: string;
  label: string;
  count: number;
  slots: readonly ImageSlot[];
  spec: ImageSpec;
  linkLabel: string;
  linkMaxLength: number;
  required?: boolean;
  error?: string;
  slotErrors: readonly { image?: string; link?: string }[];
  onSlots: (slots: ImageSlot[]) => void;
  onSlotInvalid: (index: number, message: string) => void;
  onLinkBlur: () => void;
}) {
  const all = Array.from({ length: count }, (_, i) => slots[i] ?? { image: '', link: '' });
  const set = (i: number, patch: Partial<ImageSlot>) => onSlots(all.map((s, n) => (n === i ? { ...s, ...patch } : s)));
  return (
    <fieldset className="col-span-full flex flex-col gap-2" aria-describedby={error ? `${id}-error` : undefined}>
      <Legend label={label} required={required} />
      <div className="grid grid-cols-[repeat(auto-fill,minmax(13.5rem,1fr))] gap-4">
        {all.map((slot, i) => (
          <div key={i} className="flex flex-col gap-2 rounded-md border border-line p-2" data-slot={i + 1}>
            <ImagePicker
              id={`${id}-${i}-image`}
              label={`Image ${i + 1}`}
              value={slot.image}
              spec={spec}
              error={slotErrors[i]?.image}
              removable
              onValue={(image) => set(i, { image })}
              onInvalid={(m) => onSlotInvalid(i, m)}
            />
            <FieldRow label={`${linkLabel} ${i + 1}`} htmlFor={`${id}-${i}-link`} error={slotErrors[i]?.link}>
              <input
                id={`${id}-${i}-link`}
                type="url"
                className={inputClass}
                maxLength={linkMaxLength}
                placeholder="https://"
                aria-invalid={!!slotErrors[i]?.link}
                value={slot.link}
                onChange={(e) => set(i, { link: e.target.value })}
                onBlur={(e) => {
                  if (e.target.value !== e.target.value.trim()) set(i, { link: e.target.value.trim() });
                  onLinkBlur();
                }}
              />
            </FieldRow>
          </div>
        ))}
      </div>
      <ErrorText id={`${id}-error`}>{error}</ErrorText>
    </fieldset>
  );
}

// ---- tags -------------------------------------------------------------------------------------

/** The tags after adding a value: no repeats; an exclusive value stands alone. */
export function addTag(current: readonly string[], value: string, exclusive?: string): string[] {
  if (!value || current.includes(value)) return [...current];
  if (exclusive !== undefined && value === exclusive) return [value];
  return [...current.filter((v) => v !== exclusive), value];
}

/** A select of options with an Add button, and the chosen values as removable tags. */
export function TagPicker({
  id,
  label,
  values,
  options,
  exclusive,
  required,
  error,
  disabled,
  onValues,
}: {
  id: string;
  label: string;
  values: readonly string[];
  options: readonly Option[];
  exclusive?: string;
  required?: boolean;
  error?: string;
  disabled?: boolean;
  onValues: (values: string[]) => void;
}) {
  const [pending, setPending] = useState('');
  const labelOf = (v: string) => options.find((o) => String(o.value) === v)?.label ?? v;
  const offered = options.filter((o) => !values.includes(String(o.value)));
  return (
    <FieldRow label={label} htmlFor={id} error={error} required={required}>
      <div className="flex gap-2">
        <select id={id} className={inputClass} disabled={disabled} aria-invalid={!!error} value={pending} onChange={(e) => setPending(e.target.value)}>
          <option value="">Select {label}</option>
          {offered.map((o) => (
            <option key={String(o.value)} value={String(o.value)}>
              {o.label}
            </option>
          ))}
        </select>
        <Button
          disabled={disabled || !pending}
          onClick={() => {
            onValues(addTag(values, pending, exclusive));
            setPending('');
          }}
        >
          Add
        </Button>
      </div>
      <ul aria-label={`${label} added`} className="flex min-h-7 flex-wrap gap-1.5">
        {values.map((v) => (
          <li key={v} data-tag={v}>
            <Tag tone="blue">
              <span>{labelOf(v)}</span>
              {!disabled && (
                <button
                  type="button"
                  className="ml-1 rounded px-0.5 leading-none hover:bg-sky-200 dark:hover:bg-sky-800"
                  aria-label={`Remove ${labelOf(v)}`}
                  onClick={() => onValues(values.filter((x) => x !== v))}
                >
                  ×
                </button>
              )}
            </Tag>
          </li>
        ))}
      </ul>
    </FieldRow>
  );
}

// ---- version ----------------------------------------------------------------------------------

/** Version boxes: digits only, joined as major.minor.patch+build. */
export function VersionBoxes({
  id,
  label,
  parts,
  labels,
  maxDigits,
  required,
  error,
  onParts,
  onLeave,
}: {
  id: string;
  label: string;
  parts: readonly string[];
  labels: readonly string[];
  maxDigits: number;
  required?: boolean;
  error?: string;
  onParts: (parts: string[]) => void;
  /** Focus left the group: validate. */
  onLeave: () => void;
}) {
  const separators = ['.', '.', '+'];
  return (
    <fieldset
      className="flex flex-col gap-1"
      aria-describedby={error ? `${id}-error` : undefined}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) onLeave();
      }}
    >
      <Legend label={label} required={required} />
      <div className="flex items-end gap-1.5">
        {labels.map((l, i) => (
          <span key={l} className="flex items-end gap-1.5">
            <span className="flex flex-col gap-0.5">
              <label htmlFor={`${id}-${i}`} className="text-xs text-ink-soft">
                {l}
              </label>
              <input
                id={`${id}-${i}`}
                className={`${inputClass} w-20 text-center tabular-nums`}
                inputMode="numeric"
                maxLength={maxDigits}
                aria-invalid={!!error && !parts[i]}
                value={parts[i] ?? ''}
                onChange={(e) => onParts(labels.map((_, n) => (n === i ? e.target.value.replace(/\D/g, '').slice(0, maxDigits) : (parts[n] ?? ''))))}
              />
            </span>
            {i < labels.length - 1 && (
              <span aria-hidden="true" className="pb-1.5 text-lg font-semibold text-ink-soft">
                {separators[i] ?? '.'}
              </span>
            )}
          </span>
        ))}
      </div>
      <ErrorText id={`${id}-error`}>{error}</ErrorText>
    </fieldset>
  );
}

// ---- toggles and switch -----------------------------------------------------------------------

/** Toggle buttons: any of the options (aria-pressed). */
export function ToggleButtons({
  id,
  label,
  options,
  values,
  required,
  error,
  onValues,
}: {
  id: string;
  label: string;
  options: readonly Option[];
  values: readonly string[];
  required?: boolean;
  error?: string;
  onValues: (values: string[]) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-1" aria-describedby={error ? `${id}-error` : undefined}>
      <Legend label={label} required={required} />
      <div className="flex flex-wrap gap-2" role="group" aria-label={label}>
        {options.map((o) => {
          const v = String(o.value);
          const on = values.includes(v);
          return (
            <button
              key={v}
              type="button"
              aria-pressed={on}
              className={`rounded-md border px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent ${on ? 'border-accent-fill bg-accent-fill text-white' : 'border-line bg-surface text-ink hover:bg-muted'}`}
              onClick={() => onValues(on ? values.filter((x) => x !== v) : options.map((x) => String(x.value)).filter((x) => x === v || values.includes(x)))}
            >
              {on && <span aria-hidden="true">✓ </span>}
              {o.label}
            </button>
          );
        })}
      </div>
      <ErrorText id={`${id}-error`}>{error}</ErrorText>
    </fieldset>
  );
}

/** An on/off switch (role switch) with its label. */
export function Switch({ id, label, on, onToggle, disabled, children }: { id: string; label: string; on: boolean; onToggle: (on: boolean) => void; disabled?: boolean; children?: ReactNode }) {
  return (
    <span className="flex items-center gap-2">
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={on}
        aria-label={label}
        disabled={disabled}
        onClick={() => onToggle(!on)}
        className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-60 ${on ? 'bg-emerald-600' : 'bg-slate-400 dark:bg-slate-600'}`}
      >
        <span className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${on ? 'translate-x-5' : 'translate-x-0.5'}`} />
      </button>
      {children}
    </span>
  );
}

export function SwitchField({ id, label, on, onToggle }: { id: string; label: string; on: boolean; onToggle: (on: boolean) => void }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-ink">
        {label}
      </label>
      <Switch id={id} label={label} on={on} onToggle={onToggle}>
        <span className="text-sm text-ink-soft">{on ? 'Yes' : 'No'}</span>
      </Switch>
    </div>
  );
}

// ---- rate -------------------------------------------------------------------------------------

export function RateField({
  id,
  label,
  value,
  spec,
  required,
  error,
  readOnly,
  onValue,
  onBlur,
}: {
  id: string;
  label: string;
  value: number;
  spec: RateSpec;
  required?: boolean;
  error?: string;
  readOnly?: boolean;
  onValue: (v: number) => void;
  onBlur: () => void;
}) {
  return (
    <FieldRow label={label} htmlFor={id} error={error} required={required}>
      <RateInput id={id} value={Number(value) || 0} rules={spec} readOnly={readOnly} aria-invalid={!!error} onValue={onValue} onBlur={onBlur} />
    </FieldRow>
  );
}
