/**
 * The generic form screen: fields and zod rules from the definition (validated on blur with the
 * specification's messages), option lists and edit values loaded by their calls, submit as a call.
 */
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useUnsavedChangesGuard } from '../ui/unsavedChanges';
import { useForm, type FieldErrors, type FieldValues, type Resolver, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import type { AnyFormScreen, FieldContext, FormField } from '../../definitions/definitions';
import { callApi, failureMessage } from '../request';
import { dismiss, toast } from '../ui/toast';
import { Button, FieldRow, LockIcon, Loader, inputClass } from '../ui/primitives';
import { PageHeader } from './PageHeader';
import { generatePassword } from '../../domain/password';
import { ImagePicker, ImageSlots, RateField, SwitchField, TagPicker, ToggleButtons, VersionBoxes, type ImageSlot } from './FormFields';

type Values = Record<string, unknown>;

/** The fields a mode shows. */
export function fieldsFor(screen: AnyFormScreen): FormField<Values, unknown>[] {
  return (screen.fields as FormField<Values, unknown>[]).filter((f) => !f.only || f.only === screen.mode);
}

/** What an edit form of a locked record says (spec 000 §4, 002 §1: a locked record cannot be edited). */
export const lockedRecordMessage = 'This record is locked: a change request for it is pending approval. It cannot be edited until that request is approved or rejected.';

/**
 * Whether a get-for-edit reply's record is locked (`locked` not 0), read from the reply itself or the
 * one record it wraps ({ bank }, { role }, { customUser }...), so every edit form whose record carries
 * `locked` says so even when opened by its URL (the list shows only a lock icon for such rows).
 */
export function loadedRecordLocked(data: unknown): boolean {
  const isLocked = (o: unknown) => typeof o === 'object' && o !== null && 'locked' in o && !!(o as { locked: unknown }).locked;
  if (isLocked(data)) return true;
  return typeof data === 'object' && data !== null && Object.values(data).some(isLocked);
}

/** Server 400 messages read 'field: message; field2: message'; map them back onto the form. */
export function parseFieldErrors(message: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of message.split('; ')) {
    const m = /^([\w.]+): (.+)$/.exec(part);
    if (m) out[m[1].split('.')[0]] = m[2];
  }
  return out;
}

function useCallData(call: AnyFormScreen['options'] extends infer O ? O : never, key: unknown[]) {
  return useQuery({
    queryKey: key,
    enabled: !!call,
    retry: false,
    queryFn: async () => {
      const res = await callApi(call!.call, {});
      if (!res.ok) throw new Error(String(res.statusCode));
      return call!.select(res.data);
    },
  });
}

/** What a field kind's component is handed by the form view. */
interface FieldKindProps<K extends FormField<Values, unknown>['kind']> {
  readonly f: Extract<FormField<Values, unknown>, { kind: K }>;
  readonly id: string;
  /** Shown but not editable (readOnlyOnEdit on an edit form). */
  readonly readOnly: boolean;
  readonly ctx: FieldContext<Values, unknown>;
  readonly values: Values;
  readonly form: UseFormReturn<FieldValues>;
  readonly errors: FieldErrors<FieldValues>;
  /** The field's error message, if any. */
  readonly err: (key: string) => string | undefined;
  /** Sets a value from a custom control (revalidating once the field was validated, or with `validate`). */
  readonly put: (key: string, value: unknown, validate?: boolean) => void;
  /** The date fields that follow this one (their minimum is its value). */
  readonly followersOf: (key: string) => string[];
}

/**
 * One component per form field kind (replacing the switch over kinds). The mapped type makes a kind of
 * FormField without a component here (or a component for no kind) a compile error.
 */
const fieldKinds: { readonly [K in FormField<Values, unknown>['kind']]: (props: FieldKindProps<K>) => ReactNode } = {
  text: ({ f, id, readOnly, form, err }) => {
    return (
      <FieldRow key={id} label={f.label} htmlFor={id} error={err(f.key)} required={f.required}>
        <input id={id} type={f.inputType ?? 'text'} className={inputClass} maxLength={f.maxLength} readOnly={readOnly} aria-invalid={!!err(f.key)} {...form.register(f.key)} />
      </FieldRow>
    );
  },
  password: ({ f, id, form, err }) => {
    return (
      <FieldRow key={id} label={f.label} htmlFor={id} error={err(f.key)} required={f.required}>
        <div className="flex gap-2">
          <input id={id} type="text" autoComplete="new-password" className={`${inputClass} font-mono`} aria-invalid={!!err(f.key)} {...form.register(f.key)} />
          {f.generate && (
            <>
              <Button onClick={() => form.setValue(f.key, generatePassword(), { shouldValidate: true })}>Generate</Button>
              <Button
                onClick={() => {
                  void navigator.clipboard?.writeText(String(form.getValues(f.key) ?? ''));
                  toast('success', 'Copied to Clipboard');
                }}
              >
                Copy
              </Button>
            </>
          )}
        </div>
      </FieldRow>
    );
  },
  select: ({ f, id, readOnly, ctx, values, form, err }) => {
    const opts = f.options(ctx);
    const label = f.dynamicLabel ? f.dynamicLabel(ctx) : f.label;
    const reg = form.register(f.key, { setValueAs: (v: string) => (f.valueType === 'number' ? (v === '' ? '' : Number(v)) : v) });
    return (
      <FieldRow key={id} label={label} htmlFor={id} error={err(f.key)} required={f.required}>
        <select
          id={id}
          className={inputClass}
          disabled={readOnly}
          aria-invalid={!!err(f.key)}
          {...reg}
          value={String(values[f.key] ?? '')}
          onChange={(e) => {
            void reg.onChange(e);
            for (const c of f.clears ?? []) form.setValue(c, Array.isArray(values[c]) ? [] : '');
          }}
        >
          <option value="">Select {label}</option>
          {opts.map((o) => (
            <option key={String(o.value)} value={String(o.value)}>
              {o.label}
            </option>
          ))}
        </select>
      </FieldRow>
    );
  },
  radio: ({ f, id, values, form }) => {
    return (
      <fieldset key={id} className="flex flex-col gap-1">
        <legend className="text-sm font-medium">{f.label}</legend>
        <div className="flex gap-4">
          {f.options.map((o) => (
            <label key={String(o.value)} className="flex items-center gap-1.5 text-sm">
              <input type="radio" name={f.key} checked={values[f.key] === o.value} onChange={() => form.setValue(f.key, o.value, { shouldDirty: true })} />
              {o.label}
            </label>
          ))}
        </div>
      </fieldset>
    );
  },
  checkboxGroups: ({ f, id, ctx, values, form, err }) => {
    const groups = f.groups(ctx);
    const derived = f.derived?.(ctx);
    const selected = derived ?? (values[f.key] as string[] | undefined) ?? [];
    const toggle = (p: string) => {
      const next = selected.includes(p) ? selected.filter((x) => x !== p) : [...selected, p];
      form.setValue(f.key, next, { shouldValidate: true, shouldDirty: true });
    };
    return (
      <fieldset key={id} className="col-span-full flex flex-col gap-2" aria-describedby={err(f.key) ? `${id}-error` : undefined}>
        <legend className="text-sm font-medium">
          {f.label}
          {f.required && (
            <span aria-hidden="true" className="text-red-600">
              {' '}
              *
            </span>
          )}
          {derived && <span className="ml-2 text-xs font-normal text-ink-soft">(follow the role)</span>}
        </legend>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {groups.map((g) => (
            <div key={g.title} className="rounded border border-line p-2">
              <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-ink-soft">{g.title}</p>
              {g.items.map((p) => (
                // a row of 28 px: each box has the 24 px target WCAG 2.2 asks for (2.5.8), the whole row clicks it
                <label key={p} className="flex min-h-7 items-center gap-2 text-sm">
                  <input type="checkbox" className="h-4 w-4" checked={selected.includes(p)} disabled={!!derived} onChange={() => toggle(p)} />
                  {p}
                </label>
              ))}
            </div>
          ))}
        </div>
        {!derived && err(f.key) && (
          <p role="alert" id={`${id}-error`} className="text-xs text-red-700 dark:text-red-400">
            {err(f.key)}
          </p>
        )}
      </fieldset>
    );
  },
  image: ({ f, id, readOnly, values, form, err, put }) => {
    return (
      <ImagePicker
        key={id}
        id={id}
        label={f.label}
        value={String(values[f.key] ?? '')}
        spec={f}
        required={f.required}
        error={err(f.key)}
        disabled={readOnly}
        onValue={(v) => put(f.key, v, true)}
        onInvalid={(message) => form.setError(f.key, { message })}
      />
    );
  },
  imageSlots: ({ f, id, values, form, err, put, errors }) => {
    const slotErrors = Array.from({ length: f.count }, (_, n) => {
      const e = (errors[f.key] as unknown as Record<number, { image?: { message?: string }; link?: { message?: string } }> | undefined)?.[n];
      return { image: e?.image?.message, link: e?.link?.message };
    });
    return (
      <ImageSlots
        key={id}
        id={id}
        label={f.label}
        count={f.count}
        slots={(values[f.key] as ImageSlot[] | undefined) ?? []}
        spec={f.image}
        linkLabel={f.linkLabel}
        linkMaxLength={f.linkMaxLength}
        required={f.required}
        error={err(f.key)}
        slotErrors={slotErrors}
        onSlots={(v) => put(f.key, v)}
        onSlotInvalid={(n, message) => form.setError(`${f.key}.${n}.image`, { message })}
        onLinkBlur={() => void form.trigger(f.key)}
      />
    );
  },
  tags: ({ f, id, readOnly, ctx, values, err, put }) => {
    return (
      <TagPicker
        key={id}
        id={id}
        label={f.label}
        values={(values[f.key] as string[] | undefined) ?? []}
        options={f.options(ctx)}
        exclusive={f.exclusive}
        required={f.required}
        error={err(f.key)}
        disabled={readOnly}
        onValues={(v) => put(f.key, v, true)}
      />
    );
  },
  date: ({ f, id, readOnly, values, err, put, followersOf }) => {
    const min = f.follows ? String(values[f.follows] ?? '') || undefined : undefined;
    return (
      <FieldRow key={id} label={f.label} htmlFor={id} error={err(f.key)} required={f.required}>
        <input
          id={id}
          type="date"
          lang="en-CA"
          className={inputClass}
          min={min}
          readOnly={readOnly}
          aria-invalid={!!err(f.key)}
          value={String(values[f.key] ?? '')}
          onChange={(e) => {
            const v = e.target.value;
            put(f.key, v, true);
            // the dates that follow this one move up to it when it passes them
            for (const k of followersOf(f.key)) if (v && String(values[k] ?? '') && String(values[k]) < v) put(k, v, true);
          }}
        />
      </FieldRow>
    );
  },
  version: ({ f, id, values, form, err, put }) => {
    const parts = String(values[f.key] ?? '').split(/[.+]/);
    return (
      <VersionBoxes
        key={id}
        id={id}
        label={f.label}
        labels={f.parts}
        parts={f.parts.map((_, n) => parts[n] ?? '')}
        maxDigits={f.maxDigits}
        required={f.required}
        error={err(f.key)}
        onParts={(p) => put(f.key, p.slice(0, -1).join('.') + (p.length > 1 ? `+${p[p.length - 1]}` : ''))}
        onLeave={() => void form.trigger(f.key)}
      />
    );
  },
  toggles: ({ f, id, values, err, put }) => {
    return (
      <ToggleButtons
        key={id}
        id={id}
        label={f.label}
        options={f.options}
        values={(values[f.key] as string[] | undefined) ?? []}
        required={f.required}
        error={err(f.key)}
        onValues={(v) => put(f.key, v, true)}
      />
    );
  },
  switch: ({ f, id, values, put }) => {
    return <SwitchField key={id} id={id} label={f.label} on={Number(values[f.key]) === 1} onToggle={(on) => put(f.key, on ? 1 : 0)} />;
  },
  rate: ({ f, id, readOnly, values, form, err, put }) => {
    return (
      <RateField
        key={id}
        id={id}
        label={f.label}
        value={Number(values[f.key] ?? 0)}
        spec={f}
        required={f.required}
        error={err(f.key)}
        readOnly={readOnly}
        onValue={(v) => put(f.key, v)}
        onBlur={() => void form.trigger(f.key)}
      />
    );
  },
};

/** The component of a field's kind, handed the field. */
function FieldOfKind(props: FieldKindProps<FormField<Values, unknown>['kind']>) {
  // the map is exhaustive and keyed by kind: the field and its component agree
  const Kind = fieldKinds[props.f.kind] as (p: FieldKindProps<FormField<Values, unknown>['kind']>) => ReactNode;
  return <>{Kind(props)}</>;
}

export function FormView({ screen }: { screen: AnyFormScreen }) {
  const params = useParams({ strict: false }) as Record<string, string>;
  const navigate = useNavigate();
  const options = useCallData(screen.options, ['formOptions', screen.id]);
  const loaded = useQuery({
    queryKey: ['formLoad', screen.id, params],
    enabled: !!screen.load,
    retry: false,
    queryFn: async () => {
      const res = await callApi(screen.load!.call, screen.load!.request(params) as Record<string, never>);
      if (!res.ok) throw new Error(failureMessage(res) ?? String(res.statusCode));
      return { values: screen.load!.values(res.data) as Values, locked: loadedRecordLocked(res.data) };
    },
  });
  const fields = useMemo(() => fieldsFor(screen), [screen]);
  const visibleKeys = useMemo(() => Array.from(new Set(fields.map((f) => f.key))), [fields]);

  const resolver = useMemo<Resolver<FieldValues>>(() => {
    const base = zodResolver(screen.schema as never) as unknown as Resolver<FieldValues>;
    return (values, ctx, opts) => base(Object.fromEntries(visibleKeys.map((k) => [k, values[k]])), ctx, opts);
  }, [screen.schema, visibleKeys]);

  const form = useForm<FieldValues>({ mode: 'onBlur', defaultValues: screen.defaults as FieldValues, resolver });
  const [submitting, setSubmitting] = useState(false);
  /** The failure messages this form has shown (they stay until dismissed, or until the form succeeds). */
  const failures = useRef<number[]>([]);
  const guard = useUnsavedChangesGuard(form.formState.isDirty);

  useEffect(() => {
    if (loaded.data) form.reset(loaded.data.values);
  }, [loaded.data, form]);

  const values = form.watch() as Values;
  const ctx: FieldContext<Values, unknown> = { values, options: options.data, mode: screen.mode, initial: loaded.data?.values };

  async function onSubmit(v: FieldValues) {
    if (loaded.data?.locked) return;
    setSubmitting(true);
    const body = screen.submit.request(Object.fromEntries(visibleKeys.map((k) => [k, v[k]])) as Values, params);
    const res = await callApi(screen.submit.call, body as Record<string, never>);
    setSubmitting(false);
    if (res.ok) {
      // the failures of this form's earlier attempts are answered now
      for (const id of failures.current.splice(0)) dismiss(id);
      toast('success', screen.messages.success);
      guard.leave();
      void navigate({ to: screen.back });
      return;
    }
    const msg = failureMessage(res);
    if (res.statusCode === 400 && msg) {
      const perField = parseFieldErrors(msg);
      for (const [k, m] of Object.entries(perField)) form.setError(k, { message: m });
    }
    failures.current.push(toast('warning', res.statusCode === 422 && msg ? msg : screen.messages.failure));
  }

  if (screen.load && loaded.isPending) return <Loader />;
  if (screen.load && loaded.isError) {
    return (
      <div className="flex flex-col gap-4">
        <PageHeader screen={screen} />
        <p role="alert" className="text-sm text-red-700">
          This record could not be loaded.
        </p>
      </div>
    );
  }

  const locked = !!loaded.data?.locked;
  const errors = form.formState.errors;
  const err = (k: string) => (errors[k]?.message as string | undefined) ?? (errors[k]?.root?.message as string | undefined) ?? undefined;
  /** Sets a value from a custom control: revalidates once the field was validated (or submitted). */
  const put = (k: string, v: unknown, validate = false) => form.setValue(k, v, { shouldDirty: true, shouldValidate: validate || !!errors[k] || form.formState.isSubmitted });
  /** The date fields that follow this one (their minimum is its value). */
  const followersOf = (k: string) => fields.filter((f) => f.kind === 'date' && f.follows === k).map((f) => f.key);

  return (
    <div className="flex flex-col gap-4">
      <PageHeader screen={screen} />
      <form className="flex max-w-4xl flex-col gap-5 rounded-md border border-line bg-surface p-5" noValidate onSubmit={form.handleSubmit(onSubmit)}>
        {locked && (
          <p role="alert" className="flex items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            <LockIcon />
            {lockedRecordMessage}
          </p>
        )}
        <p className="text-xs text-ink-soft">Fields marked * are mandatory.</p>
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          {fields.map((f, i) => {
            const id = `field-${f.key}-${i}`;
            const readOnly = !!f.readOnlyOnEdit && screen.mode === 'edit';
            return <FieldOfKind key={id} f={f} id={id} readOnly={readOnly} ctx={ctx} values={values} form={form} errors={errors} err={err} put={put} followersOf={followersOf} />;
          })}
        </div>
        <div className="flex gap-2">
          <Button type="submit" variant="primary" disabled={submitting || locked}>
            {submitting ? 'Saving…' : 'Save'}
          </Button>
          <Button
            onClick={() => {
              // back to the list, as the specification says, however the form was opened (a link from elsewhere, a typed URL)
              guard.leave();
              void navigate({ to: screen.back });
            }}
          >
            Cancel
          </Button>
        </div>
      </form>
      {guard.dialog}
    </div>
  );
}
