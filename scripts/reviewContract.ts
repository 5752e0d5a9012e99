/**
 * What a change does to the wire contract and to the schema, for `npm run review`: pure functions of
 * two OpenAPI documents (generated/openapi.json of the base and of the working tree) and of two lists
 * of migration files, each returning the plain text lines the review prints.
 *
 * Contract lines, one block per operation, operations by path then method:
 *
 *     + POST /api/foo/bar (permission foo-edit)
 *       request: + body.comment (string, optional)
 *       reply: + data.id (number)
 *     ~ POST /api/bank/list
 *       access: permission bank-view → permission bank-view or kyc-view
 *       statuses: + 409; - 404
 *       request: ~ body.name: type string → string or null; optional → required
 *       reply: - data.banks[].oldField
 *     - POST /api/old (permission old-view)
 *
 * Paths are dotted from the request body (`body`), the parameters (`path.id`, `query.exp`) and the
 * 2xx reply's top level (`statusCode`, `data`, extras); `[]` is an array's items, `*` a map's values.
 * `$ref`s are followed (to any `#/...` pointer), `allOf` is merged, the fields of `anyOf`/`oneOf`
 * alternatives are merged (a field is required only when every alternative requires it). A change in a
 * union that none of its fields' lines shows, or in a request or reply that shows no field change, is
 * reported as "changed" on that path (a union with a named change gets no extra "changed").
 */

type Dict = Record<string, unknown>;

/** The parts of an OpenAPI 3.1 document the comparison reads. */
export interface OpenApiDocument {
  readonly paths?: Record<string, Record<string, unknown>>;
  readonly components?: { readonly schemas?: Record<string, unknown>; readonly responses?: Record<string, unknown> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Keywords whose change is named with its old and new value. */
const CONSTRAINTS = [
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'default',
  'additionalProperties',
];
/** Keywords that only explain: a change in them changes nothing a client sends or reads. */
const PROSE = new Set(['description', 'summary', 'title', 'example', 'examples', '$comment']);

const isDict = (v: unknown): v is Dict => !!v && typeof v === 'object' && !Array.isArray(v);
const byCodepoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const json = (v: unknown) => JSON.stringify(v);

// ---- schemas to fields ------------------------------------------------------------------------

/** One field (or the root, or an array's items) of a request or reply. */
interface Field {
  /** What is compared: the type, enum or const, without the constraints. */
  readonly type: string;
  /** What an added field is shown with (`array of string`). */
  readonly shown: string;
  readonly required: boolean;
  readonly constraints: Record<string, string>;
  /** The nearest enclosing field's path (undefined for a root). */
  readonly parent?: string;
  /** For a union: the whole resolved schema, so that a change the fields do not show is still seen. */
  readonly union?: string;
}

type Fields = Map<string, Field>;

function pointer(doc: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    if (!isDict(at)) return undefined;
    at = at[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return at;
}

const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** The schema behind `$ref`s (a `$ref`'s siblings are kept over the target's); `cycle` names a ref already being walked. */
function deref(doc: OpenApiDocument, s: unknown, stack: readonly string[]): { schema: Dict; refs: string[]; cycle?: string } {
  const refs: string[] = [];
  let at: unknown = s;
  let siblings: Dict = {};
  while (isDict(at) && typeof at.$ref === 'string') {
    const ref = at.$ref;
    if (stack.includes(ref) || refs.includes(ref)) return { schema: {}, refs, cycle: ref };
    refs.push(ref);
    const { $ref: _ref, ...rest } = at;
    siblings = { ...rest, ...siblings };
    at = pointer(doc, ref);
  }
  return { schema: { ...(isDict(at) ? at : {}), ...siblings }, refs };
}

/** `allOf` folded into one schema: properties merged, required lists joined, the first type kept. */
function merged(doc: OpenApiDocument, s: Dict, stack: readonly string[]): Dict {
  if (!Array.isArray(s.allOf)) return s;
  const { allOf, ...own } = s;
  let out: Dict = { ...own };
  for (const part of allOf as unknown[]) {
    const { schema, refs } = deref(doc, part, stack);
    const m = merged(doc, schema, [...stack, ...refs]);
    out = {
      ...m,
      ...out,
      properties: { ...((m.properties as Dict | undefined) ?? {}), ...((out.properties as Dict | undefined) ?? {}) },
      required: [...new Set([...((out.required as string[] | undefined) ?? []), ...((m.required as string[] | undefined) ?? [])])],
    };
  }
  if (!Object.keys(out.properties as Dict).length) delete out.properties;
  if (!(out.required as string[]).length) delete out.required;
  return out;
}

const isNullSchema = (s: Dict) => s.type === 'null' || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === 'null') || s.const === null;

function unionOf(s: Dict): unknown[] | undefined {
  return Array.isArray(s.anyOf) ? (s.anyOf as unknown[]) : Array.isArray(s.oneOf) ? (s.oneOf as unknown[]) : undefined;
}

/** A schema's type in words: `string`, `number or null`, `"a" | "b"`, `object`, `array`. */
function typeText(doc: OpenApiDocument, raw: unknown, stack: readonly string[], shown: boolean): string {
  const { schema, refs, cycle } = deref(doc, raw, stack);
  if (cycle) return refName(cycle);
  const s = merged(doc, schema, [...stack, ...refs]);
  const inner = [...stack, ...refs];
  const alts = unionOf(s);
  if (alts) {
    const resolved = alts.map((a) => deref(doc, a, inner).schema);
    const nullable = resolved.some(isNullSchema);
    const texts = [...new Set(alts.filter((_, i) => !isNullSchema(resolved[i])).map((a) => typeText(doc, a, inner, shown)))];
    return `${texts.join(' | ')}${nullable ? ' or null' : ''}`;
  }
  if ('const' in s) return json(s.const);
  if (Array.isArray(s.enum)) return s.enum.map(json).join(' | ');
  const types = (Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : []).filter((t) => t !== 'null');
  const nullable = Array.isArray(s.type) && s.type.includes('null');
  const main = types.length ? types.map((t) => (t === 'array' && shown ? `array of ${typeText(doc, s.items, inner, shown)}` : t)).join(' | ') : s.properties ? 'object' : 'any';
  return `${main}${nullable ? ' or null' : ''}`;
}

function constraintsOf(s: Dict): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of CONSTRAINTS) if (k in s) out[k] = isDict(s[k]) ? 'a schema' : json(s[k]);
  return out;
}

/** A schema with every `$ref` replaced by its target (a cycle by its name) and the prose left out, as stable text. */
function canonical(doc: OpenApiDocument, raw: unknown, stack: readonly string[] = []): string {
  const walk = (v: unknown, st: readonly string[]): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, st));
    if (!isDict(v)) return v;
    const { schema, refs, cycle } = deref(doc, v, st);
    if (cycle) return { $ref: cycle };
    const out: Dict = {};
    for (const k of Object.keys(schema).sort()) if (!PROSE.has(k)) out[k] = walk(schema[k], [...st, ...refs]);
    return out;
  };
  return json(walk(raw, stack));
}

const join = (path: string, key: string) => {
  const k = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : json(key);
  return path ? `${path}.${k}` : k;
};

function addField(doc: OpenApiDocument, out: Fields, raw: unknown, path: string, required: boolean, parent: string | undefined, stack: readonly string[], prefix = ''): void {
  const { schema, refs, cycle } = deref(doc, raw, stack);
  const inner = [...stack, ...refs];
  if (cycle) {
    out.set(path, { type: `${refName(cycle)} (recursive)`, shown: `${refName(cycle)} (recursive)`, required, constraints: {}, parent });
    return;
  }
  const s = merged(doc, schema, inner);
  const alts = unionOf(s);
  out.set(path, {
    type: prefix + typeText(doc, s, inner, false),
    shown: prefix + typeText(doc, s, inner, true),
    required,
    constraints: constraintsOf(s),
    parent,
    union: alts ? canonical(doc, s, inner) : undefined,
  });
  if (inner.length > 40) return;
  addChildren(doc, out, s, path, inner);
}

function addChildren(doc: OpenApiDocument, out: Fields, s: Dict, path: string, stack: readonly string[]): void {
  const alts = unionOf(s);
  if (alts) {
    // each alternative's fields, merged: present in some, required only where all require it
    const maps = alts
      .map((a) => deref(doc, a, stack))
      .filter((d) => !d.cycle && !isNullSchema(d.schema))
      .map((d) => {
        const m: Fields = new Map();
        addChildren(doc, m, merged(doc, d.schema, [...stack, ...d.refs]), path, [...stack, ...d.refs]);
        return m;
      });
    const keys = [...new Set(maps.flatMap((m) => [...m.keys()]))];
    for (const k of keys) {
      const seen = maps.map((m) => m.get(k)).filter((f): f is Field => !!f);
      const first = seen[0];
      const same = seen.every((f) => json(f.constraints) === json(first.constraints));
      out.set(k, {
        type: [...new Set(seen.map((f) => f.type))].join(' | '),
        shown: [...new Set(seen.map((f) => f.shown))].join(' | '),
        required: seen.length === maps.length && seen.every((f) => f.required),
        constraints: same ? first.constraints : {},
        parent: first.parent,
        union: seen.some((f) => f.union) ? json(seen.map((f) => f.union ?? f.type)) : undefined,
      });
    }
    return;
  }
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  if (isDict(s.properties)) for (const [k, v] of Object.entries(s.properties)) addField(doc, out, v, join(path, k), required.includes(k), path, stack);
  if (isDict(s.additionalProperties)) addField(doc, out, s.additionalProperties, join(path, '*'), false, path, stack);
  if (isDict(s.items)) addField(doc, out, s.items, `${path}[]`, true, path, stack);
}

/** A media type's schema: JSON's, else the first one's (named with its media type). */
function contentSchema(content: unknown): { schema: unknown; prefix: string } | undefined {
  if (!isDict(content)) return undefined;
  if (isDict(content['application/json'])) return { schema: content['application/json'].schema, prefix: '' };
  const first = Object.keys(content).sort(byCodepoint)[0];
  return first ? { schema: (content[first] as Dict | undefined)?.schema, prefix: `${first}: ` } : undefined;
}

function requestFields(doc: OpenApiDocument, op: Dict): Fields {
  const out: Fields = new Map();
  const params = Array.isArray(op.parameters) ? (op.parameters as unknown[]) : [];
  for (const p of params) {
    const { schema: param } = deref(doc, p, []);
    if (typeof param.name !== 'string') continue;
    const where = typeof param.in === 'string' ? param.in : 'param';
    addField(doc, out, param.schema, `${where}.${param.name}`, param.required === true, undefined, []);
  }
  const { schema: body } = deref(doc, op.requestBody, []);
  const content = contentSchema(body.content);
  if (content) addField(doc, out, content.schema, 'body', body.required === true, undefined, [], content.prefix);
  return out;
}

/** The lowest 2xx status's reply. */
function replyFields(doc: OpenApiDocument, op: Dict): Fields {
  const out: Fields = new Map();
  const responses = isDict(op.responses) ? op.responses : {};
  const ok = Object.keys(responses)
    .filter((k) => /^2\d\d$/.test(k))
    .sort()[0];
  if (!ok) return out;
  const content = contentSchema(deref(doc, responses[ok], []).schema.content);
  if (content) addField(doc, out, content.schema, '', true, undefined, [], content.prefix);
  return out;
}

// ---- comparing --------------------------------------------------------------------------------

/** Fields shown only as the place their fields hang from: an added or removed one still lists its fields. */
const CONTAINERS = new Set(['', 'body', 'data']);
const shownPath = (path: string) => (path === '' ? 'reply body' : path);

function fieldLines(before: Fields, after: Fields, kind: 'request' | 'reply', wholeOperation: boolean): string[] {
  const lines: [string, string][] = [];
  const added = new Set([...after.keys()].filter((k) => !before.has(k)));
  const removed = new Set([...before.keys()].filter((k) => !after.has(k)));
  const under = (set: Set<string>, f: Field) => f.parent !== undefined && set.has(f.parent) && !CONTAINERS.has(f.parent);
  const requiredWord = (f: Field) => (kind === 'request' ? (f.required ? ', required' : ', optional') : f.required ? '' : ', optional');
  for (const k of added) {
    const f = after.get(k)!;
    // a new operation lists its fields, not the envelope they come in
    const envelope = (f.parent === undefined && CONTAINERS.has(k) && f.type === 'object') || (kind === 'reply' && f.parent === '' && k === 'statusCode');
    if (under(added, f) || (wholeOperation && envelope)) continue;
    lines.push([k, `+ ${shownPath(k)} (${f.shown}${requiredWord(f)})`]);
  }
  for (const k of removed) {
    const f = before.get(k)!;
    if (under(removed, f)) continue;
    lines.push([k, `- ${shownPath(k)}`]);
  }
  const changedUnder = new Set<string>();
  const changed: [string, Field, Field][] = [];
  for (const [k, a] of after) {
    const b = before.get(k);
    if (!b) continue;
    const parts: string[] = [];
    if (b.type !== a.type) parts.push(`type ${b.type} → ${a.type}`);
    if (b.required !== a.required) parts.push(b.required ? 'required → optional' : 'optional → required');
    for (const c of [...new Set([...Object.keys(b.constraints), ...Object.keys(a.constraints)])].sort(byCodepoint)) {
      const [x, y] = [b.constraints[c], a.constraints[c]];
      if (x !== y) parts.push(`${c} ${x ?? '(none)'} → ${y ?? '(none)'}`);
    }
    if (parts.length) lines.push([k, `~ ${shownPath(k)}: ${parts.join('; ')}`]);
    changed.push([k, b, a]);
  }
  // a union whose change shows in none of its fields: say so on the union
  for (const [k] of lines) for (let p: string | undefined = k; p !== undefined; p = after.get(p)?.parent ?? before.get(p)?.parent) changedUnder.add(p);
  for (const [k, b, a] of changed) if ((b.union ?? a.union) && b.union !== a.union && !changedUnder.has(k)) lines.push([k, `~ ${shownPath(k)}: changed`]);
  lines.sort((x, y) => byCodepoint(x[0], y[0]) || byCodepoint(x[1][0], y[1][0]));
  return lines.map(([, t]) => `  ${kind}: ${t}`);
}

function accessText(p: unknown): string {
  if (p === undefined) return 'no x-permissions';
  if (p === 'public') return 'public';
  if (p === 'authenticated') return 'any signed-in user';
  if (isDict(p) && Array.isArray(p.anyOf)) return `permission ${(p.anyOf as string[]).slice().sort(byCodepoint).join(' or ')}`;
  if (isDict(p) && typeof p.rule === 'string') return `rule ${p.rule}`;
  return json(p);
}

function operations(doc: OpenApiDocument): Map<string, { path: string; method: string; op: Dict }> {
  const out = new Map<string, { path: string; method: string; op: Dict }>();
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const method of METHODS) {
      const op = item?.[method];
      if (isDict(op)) out.set(`${method.toUpperCase()} ${path}`, { path, method, op });
    }
  return out;
}

function statuses(op: Dict): string[] {
  return Object.keys(isDict(op.responses) ? op.responses : {}).sort(byCodepoint);
}

/**
 * The contract lines between two OpenAPI documents: operations added (with their request and reply
 * fields), removed, and changed (access, statuses, request and reply fields); then shared replies
 * (components.responses) added, removed or changed. Empty when nothing a client sees differs.
 */
export function compareContracts(base: OpenApiDocument, head: OpenApiDocument): string[] {
  const b = operations(base);
  const a = operations(head);
  const keys = [...new Set([...b.keys(), ...a.keys()])].sort((x, y) => {
    const [px, py] = [(b.get(x) ?? a.get(x))!, (b.get(y) ?? a.get(y))!];
    return byCodepoint(px.path.toLowerCase(), py.path.toLowerCase()) || byCodepoint(px.path, py.path) || byCodepoint(px.method, py.method);
  });
  const out: string[] = [];
  for (const key of keys) {
    const before = b.get(key)?.op;
    const after = a.get(key)?.op;
    if (!before) {
      out.push(`+ ${key} (${accessText(after!['x-permissions'])})`);
      out.push(...fieldLines(new Map(), requestFields(head, after!), 'request', true), ...fieldLines(new Map(), replyFields(head, after!), 'reply', true));
      continue;
    }
    if (!after) {
      out.push(`- ${key} (${accessText(before['x-permissions'])})`);
      continue;
    }
    const lines: string[] = [];
    const [wasAccess, isAccess] = [accessText(before['x-permissions']), accessText(after['x-permissions'])];
    if (wasAccess !== isAccess) lines.push(`  access: ${wasAccess} → ${isAccess}`);
    const [sb, sa] = [statuses(before), statuses(after)];
    const statusChanges = [...sa.filter((s) => !sb.includes(s)).map((s) => `+ ${s}`), ...sb.filter((s) => !sa.includes(s)).map((s) => `- ${s}`)];
    if (statusChanges.length) lines.push(`  statuses: ${statusChanges.join('; ')}`);
    for (const kind of ['request', 'reply'] as const) {
      const fields = kind === 'request' ? requestFields : replyFields;
      const found = fieldLines(fields(base, before), fields(head, after), kind, false);
      if (!found.length) {
        const [x, y] =
          kind === 'request'
            ? [
                { p: before.parameters, r: before.requestBody },
                { p: after.parameters, r: after.requestBody },
              ]
            : [okReply(before), okReply(after)];
        if (canonical(base, x) !== canonical(head, y)) found.push(`  ${kind}: ~ ${kind === 'request' ? 'body' : 'reply body'}: changed`);
      }
      lines.push(...found);
    }
    if (lines.length) out.push(`~ ${key}`, ...lines);
  }
  const [rb, ra] = [base.components?.responses ?? {}, head.components?.responses ?? {}];
  for (const name of [...new Set([...Object.keys(rb), ...Object.keys(ra)])].sort(byCodepoint)) {
    if (!(name in rb)) out.push(`+ shared reply ${name}`);
    else if (!(name in ra)) out.push(`- shared reply ${name}`);
    else if (canonical(base, rb[name]) !== canonical(head, ra[name])) out.push(`~ shared reply ${name}: changed`);
  }
  return out;
}

function okReply(op: Dict): unknown {
  const responses = isDict(op.responses) ? op.responses : {};
  const ok = Object.keys(responses)
    .filter((k) => /^2\d\d$/.test(k))
    .sort()[0];
  return ok ? responses[ok] : undefined;
}

// ---- migrations -------------------------------------------------------------------------------

/** A file of src/server/db/migrations/sql/ and its text. */
export interface MigrationFile {
  readonly file: string;
  readonly sql: string;
}

const MIGRATION_FILE = /^(\d{4})-(.+)\.sql$/;

/** What a new migration is about: its first line when that is a comment, else its registered name, else its file name. */
function aboutMigration(m: MigrationFile, names: Readonly<Record<number, string>>): string {
  const first = m.sql.split('\n').find((l) => l.trim() !== '');
  if (first?.trim().startsWith('--')) return first.trim().replace(/^--\s*/, '');
  const [, id, slug] = MIGRATION_FILE.exec(m.file)!;
  return names[Number(id)] ?? slug.replace(/-/g, ' ');
}

/**
 * The migration lines between two revisions' migration files: each new file (`+ 0240-x.sql: what it
 * is about`, by file name) and, first and loud (`!!`), every shipped file edited, removed or renamed,
 * and every new id not above the base's highest (a migrated database would refuse it). Files not
 * named `NNNN-slug.sql` are not migrations and are left out.
 */
export function compareMigrations(base: readonly MigrationFile[], head: readonly MigrationFile[], names: Readonly<Record<number, string>> = {}): string[] {
  const only = (list: readonly MigrationFile[]) => new Map(list.filter((m) => MIGRATION_FILE.test(m.file)).map((m) => [m.file, m]));
  const [b, a] = [only(base), only(head)];
  const loud: string[] = [];
  const added: string[] = [];
  const highest = Math.max(0, ...[...b.keys()].map((f) => Number(f.slice(0, 4))));
  const renamedTo = new Map<string, string>();
  for (const [file, m] of [...b].sort(([x], [y]) => byCodepoint(x, y))) {
    const now = a.get(file);
    if (now && now.sql !== m.sql)
      loud.push(`!! ${file}: FROZEN MIGRATION EDITED. A database that applied it refuses to start (checksum mismatch); restore the file and put the change in a new migration`);
    else if (!now) {
      const same = [...a.values()].find((x) => !b.has(x.file) && x.sql === m.sql && x.file.slice(0, 4) === file.slice(0, 4));
      if (same) {
        renamedTo.set(same.file, file);
        loud.push(`!! ${file}: FROZEN MIGRATION RENAMED to ${same.file}. Shipped migrations keep their file name`);
      } else loud.push(`!! ${file}: FROZEN MIGRATION REMOVED. A database that applied it refuses to start; restore the file`);
    }
  }
  for (const [file, m] of [...a].sort(([x], [y]) => byCodepoint(x, y))) {
    if (b.has(file) || renamedTo.has(file)) continue;
    const id = Number(file.slice(0, 4));
    if (id <= highest) loud.push(`!! ${file}: NEW MIGRATION BELOW THE HIGHEST SHIPPED ID (${String(highest).padStart(4, '0')}). A database that applied that refuses it; take the next free id above`);
    added.push(`+ ${file}: ${aboutMigration(m, names)}`);
  }
  return [...loud, ...added];
}
