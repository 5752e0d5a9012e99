/**
 * The rules of a zod schema as the imported schema holds them (zod 4's `_zod.def`): each field's type
 * and checks, one row per rule, with the exact message the user sees when it has one. Read from the
 * value the form and the server validate with, not from its source.
 */
import { functionSource, isFunction, type AnyFunction } from './values';

export interface ZodRule {
  /** `name`, `items[]`, `address.city`; `(whole form)` for the object's own rules. */
  readonly field: string;
  /** `string()`, `max(100)`, `regex(/^\d{10}$/)`, `refine(hasBranch)`. */
  readonly rule: string;
  /** The exact message; `ƒ name` or `ƒ (source)` when the message is computed. */
  readonly message?: string;
}

/** The part of zod's internals this reads (stable across zod 4 minor versions). */
interface Def {
  readonly type: string;
  readonly checks?: readonly { readonly _zod: { readonly def: Record<string, unknown> } }[];
  readonly error?: unknown;
  readonly [key: string]: unknown;
}

const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** A function's name, else its code on one line. */
export function functionText(fn: unknown): string {
  if (!isFunction(fn)) return String(fn);
  return fn.name && fn.name !== 'anonymous' ? fn.name : functionSource(fn);
}

/** The message of a zod `error` option: zod wraps a string (or `{ error | message }`) in `() => params`. */
export function messageOf(error: unknown): string | undefined {
  if (typeof error !== 'function') return undefined;
  // zod wraps a string or `{ error | message }` in `() => params...`; any other function computes its message when it runs
  if (error.length > 0 || !/^\(\)\s*=>\s*params\b/.test(error.toString())) return `ƒ ${functionText(error)}`;
  try {
    const v: unknown = error();
    if (typeof v === 'string') return v;
    if (v && typeof v === 'object') {
      const inner = (v as { error?: unknown; message?: unknown }).error ?? (v as { message?: unknown }).message;
      if (typeof inner === 'string') return inner;
      if (typeof inner === 'function') return messageOf(inner);
    }
  } catch {
    return `ƒ ${functionText(error)}`;
  }
  return undefined;
}

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : typeof v === 'bigint' ? `${v}n` : v instanceof RegExp ? String(v) : (JSON.stringify(v) ?? String(v)));

function checkText(c: Record<string, unknown>): string {
  switch (c.check) {
    case 'max_length':
      return `max(${c.maximum})`;
    case 'min_length':
      return `min(${c.minimum})`;
    case 'length_equals':
      return `length(${c.length})`;
    case 'string_format':
      return c.format === 'regex' ? `regex(${String(c.pattern)})` : `${String(c.format)}()`;
    case 'greater_than':
      return c.inclusive ? `min(${show(c.value)})` : c.value === 0 ? 'positive()' : `gt(${show(c.value)})`;
    case 'less_than':
      return c.inclusive ? `max(${show(c.value)})` : `lt(${show(c.value)})`;
    case 'number_format':
      return c.format === 'safeint' ? 'int()' : `${String(c.format)}()`;
    case 'multiple_of':
      return `multipleOf(${show(c.value)})`;
    case 'overwrite':
      return `overwrite(${functionText(c.tx)})`;
    case 'custom':
      return typeof c.fn === 'function' ? `refine(${functionText(c.fn)})` : 'superRefine(…): a check written in code, its messages set there';
    default:
      return `${String(c.check)}()`;
  }
}

/** One line for a nested type: `literal(0)`, `enum(A | B).optional()`. */
export function typeText(schema: unknown): string {
  const d = defOf(schema);
  if (!d) return '?';
  switch (d.type) {
    case 'optional':
    case 'nullable':
    case 'readonly':
      return `${typeText(d.innerType)}.${d.type}()`;
    case 'default':
    case 'prefault':
      return `${typeText(d.innerType)}.${d.type}(${show(typeof d.defaultValue === 'function' ? (d.defaultValue as () => unknown)() : d.defaultValue)})`;
    case 'enum':
      return `enum(${Object.values(d.entries as Record<string, unknown>)
        .map(String)
        .join(' | ')})`;
    case 'literal':
      return `literal(${(d.values as unknown[]).map(show).join(' | ')})`;
    case 'union':
      return `union(${(d.options as unknown[]).map(typeText).join(' | ')})`;
    case 'array':
      return `array(${typeText(d.element)})`;
    case 'pipe':
      return `${typeText(d.in)}.pipe(${typeText(d.out)})`;
    case 'transform':
      return `transform(${functionText(d.transform)})`;
    default:
      return `${d.coerce ? 'coerce.' : ''}${d.type}()${(d.checks ?? []).map((c) => `.${checkText(c._zod.def)}`).join('')}`;
  }
}

const WRAPPERS = new Set(['optional', 'nullable', 'readonly', 'default', 'prefault', 'catch', 'nonoptional']);

/** Every rule of a field (or of the whole object), outermost wrapper last. */
function fieldRules(field: string, schema: unknown, depth: number): ZodRule[] {
  const d = defOf(schema);
  if (!d || depth > 6) return [];
  const out: ZodRule[] = [];
  const own = (rule: string) => out.push({ field, rule, ...(messageOf(d.error) !== undefined ? { message: messageOf(d.error) } : {}) });
  if (WRAPPERS.has(d.type)) {
    out.push(...fieldRules(field, d.innerType, depth + 1));
    out.push({ field, rule: typeText(schema).slice(typeText(d.innerType).length + 1) });
    return out;
  }
  if (d.type === 'pipe') return [...fieldRules(field, d.in, depth + 1), ...fieldRules(field, d.out, depth + 1)];
  if (d.type === 'object') {
    const prefix = field === '(whole form)' ? '' : `${field}.`;
    for (const [k, v] of Object.entries(d.shape as Record<string, unknown>)) out.push(...fieldRules(`${prefix}${k}`, v, depth + 1));
    if (defOf(d.catchall)?.type === 'never') out.push({ field, rule: 'strict: unknown keys are refused' });
  } else if (d.type === 'array') {
    own('array()');
    out.push(...fieldRules(`${field}[]`, d.element, depth + 1));
  } else if (['string', 'number', 'boolean', 'bigint', 'date', 'unknown', 'any'].includes(d.type)) own(`${d.coerce ? 'coerce.' : ''}${d.type}()`);
  else own(typeText(schema));
  for (const c of d.checks ?? []) {
    const cd = c._zod.def;
    const message = messageOf(cd.error);
    out.push({ field, rule: checkText(cd), ...(message !== undefined ? { message } : {}) });
  }
  return out;
}

/** The rules of a schema; an object's fields first, then its own refinements under `(whole form)`. */
export function zodRules(schema: unknown): ZodRule[] {
  return fieldRules('(whole form)', schema, 0);
}

/** The refinement functions of a schema (for their doc comments). */
export function refinementsOf(schema: unknown): AnyFunction[] {
  const d = defOf(schema);
  if (!d) return [];
  const inner = WRAPPERS.has(d.type) ? refinementsOf(d.innerType) : d.type === 'pipe' ? refinementsOf(d.in) : [];
  return [...inner, ...(d.checks ?? []).map((c) => c._zod.def.fn).filter(isFunction)];
}
