/**
 * Reads the rules of a zod object schema from its source: per field, each step of its chain
 * (`z.string()`, `.max(limits.name, messages.name)`, `.regex(...)`), the value it resolves to and the
 * exact message; and the whole-object refinements (`.superRefine(checkBranch)`).
 */
import { Node } from 'ts-morph';
import { sourceText, unwrap, type Evaluator, type Val } from './evaluate';

export interface ZodRule {
  /** The field key; `key[]` for the items of an array; `(whole form)` for object refinements. */
  readonly field: string;
  /** The rule with its values resolved, e.g. `max(100)`. */
  readonly rule: string;
  /** The rule as written, e.g. `.max(limits.name, messages.name)`. */
  readonly written: string;
  /** The exact message, when the rule carries one. */
  readonly message?: string;
  /** Where the message comes from when it is not a fixed text (a function, an expression). */
  readonly messageWritten?: string;
  /** The doc comment of the function that makes the message (e.g. `branchMessage`). */
  readonly messageDoc?: string;
  /** The doc comment of a refinement function. */
  readonly doc?: string;
}

export interface ZodReading {
  readonly fields: readonly string[];
  readonly rules: readonly ZodRule[];
  /** The schema could not be read as an object (shown as written instead). */
  readonly unread?: string;
}

interface Step {
  readonly method: string;
  readonly args: readonly Node[];
  readonly root: boolean;
  readonly raw?: string;
}

interface Shape {
  readonly fields: Map<string, Node>;
  readonly objectSteps: Step[];
}

/** Methods whose single argument is a value, not a message. */
const VALUE_METHODS = new Set(['literal', 'default', 'prefault', 'catch', 'startsWith', 'endsWith', 'includes', 'describe', 'meta', 'brand', 'pipe', 'transform', 'overwrite']);
const OBJECT_CONSTRUCTORS = new Set(['object', 'strictObject', 'looseObject']);
const MAX_LISTED = 12;

export class ZodReader {
  constructor(private readonly ev: Evaluator) {}

  read(schema: Node): ZodReading {
    const shape = this.readObject(schema, 0);
    if (!shape) return { fields: [], rules: [], unread: sourceText(schema) };
    const rules: ZodRule[] = [];
    for (const [key, node] of shape.fields) rules.push(...this.fieldRules(key, node, 0));
    for (const step of shape.objectSteps) rules.push(this.objectRule(step));
    return { fields: [...shape.fields.keys()], rules };
  }

  private isZodNamespace(node: Node): boolean {
    if (!Node.isIdentifier(node)) return false;
    const decl = node.getSymbol()?.getDeclarations()[0];
    if (decl && (Node.isImportSpecifier(decl) || Node.isNamespaceImport(decl) || Node.isImportClause(decl))) {
      const imp = decl.getFirstAncestor((a) => Node.isImportDeclaration(a));
      if (imp && Node.isImportDeclaration(imp)) return /^zod(\/|$)/.test(imp.getModuleSpecifierValue());
    }
    return node.getText() === 'z' && !decl;
  }

  private readObject(node: Node, depth: number): Shape | undefined {
    if (depth > 20) return undefined;
    const n = unwrap(node);
    if (Node.isIdentifier(n)) {
      const init = this.ev.initializerOf(n);
      return init ? this.readObject(init, depth + 1) : undefined;
    }
    if (!Node.isCallExpression(n)) return undefined;
    const callee = unwrap(n.getExpression());
    if (!Node.isPropertyAccessExpression(callee)) return undefined;
    const target = callee.getExpression();
    const method = callee.getName();
    const args = n.getArguments();
    if (this.isZodNamespace(target)) {
      if (!OBJECT_CONSTRUCTORS.has(method) || !args[0]) return undefined;
      const fields = this.readShapeLiteral(args[0], depth + 1);
      return fields ? { fields, objectSteps: method === 'strictObject' ? [{ method, args: [], root: true }] : [] } : undefined;
    }
    const base = this.readObject(target, depth + 1);
    if (!base) return undefined;
    const fields = new Map(base.fields);
    const objectSteps = [...base.objectSteps];
    switch (method) {
      case 'extend':
      case 'safeExtend': {
        const more = args[0] && this.readShapeLiteral(args[0], depth + 1);
        if (!more) return undefined;
        for (const [k, v] of more) fields.set(k, v);
        break;
      }
      case 'merge': {
        const other = args[0] && this.readObject(args[0], depth + 1);
        if (!other) return undefined;
        for (const [k, v] of other.fields) fields.set(k, v);
        break;
      }
      case 'pick':
      case 'omit': {
        const keys = args[0] ? this.ev.evaluate(args[0], { vars: new Map() }) : undefined;
        if (keys?.kind !== 'object') return undefined;
        for (const k of [...fields.keys()]) if (keys.props.has(k) !== (method === 'pick')) fields.delete(k);
        break;
      }
      default:
        objectSteps.push({ method, args, root: false });
    }
    return { fields, objectSteps };
  }

  /** `{ a: z.string(), ...others }` (possibly through identifiers) as an ordered map of field nodes. */
  private readShapeLiteral(node: Node, depth: number): Map<string, Node> | undefined {
    if (depth > 20) return undefined;
    const n = unwrap(node);
    if (Node.isIdentifier(n)) {
      const init = this.ev.initializerOf(n);
      return init ? this.readShapeLiteral(init, depth + 1) : undefined;
    }
    if (Node.isPropertyAccessExpression(n) && n.getName() === 'shape') {
      return this.readObject(n.getExpression(), depth + 1)?.fields;
    }
    if (!Node.isObjectLiteralExpression(n)) return undefined;
    const out = new Map<string, Node>();
    for (const p of n.getProperties()) {
      if (Node.isPropertyAssignment(p)) out.set(p.getName().replace(/^['"]|['"]$/g, ''), p.getInitializerOrThrow());
      else if (Node.isShorthandPropertyAssignment(p)) out.set(p.getName(), p.getNameNode());
      else if (Node.isSpreadAssignment(p)) {
        const more = this.readShapeLiteral(p.getExpression(), depth + 1);
        if (!more) return undefined;
        for (const [k, v] of more) out.set(k, v);
      } else return undefined;
    }
    return out;
  }

  /** The steps of a zod chain, following identifiers (`searchText.default('')`) and one-expression helper functions. */
  private chain(node: Node, depth: number): Step[] {
    const n = unwrap(node);
    const raw = (): Step[] => [{ method: '', args: [], root: true, raw: sourceText(n) }];
    if (depth > 20) return raw();
    if (Node.isIdentifier(n)) {
      const init = this.ev.initializerOf(n);
      return init ? this.chain(init, depth + 1) : raw();
    }
    if (!Node.isCallExpression(n)) return raw();
    const callee = unwrap(n.getExpression());
    const args = n.getArguments();
    if (Node.isPropertyAccessExpression(callee)) {
      const target = callee.getExpression();
      if (this.isZodNamespace(target)) return [{ method: callee.getName(), args, root: true }];
      return [...this.chain(target, depth + 1), { method: callee.getName(), args, root: false }];
    }
    if (Node.isIdentifier(callee)) {
      const decl = this.ev.declarationOf(callee);
      const body = decl && Node.isFunctionDeclaration(decl) ? decl.getBody() : undefined;
      const ret = body && Node.isBlock(body) && body.getStatements().length === 1 ? body.getStatements()[0] : undefined;
      const expr = ret && Node.isReturnStatement(ret) ? ret.getExpression() : undefined;
      if (expr) return this.chain(expr, depth + 1);
    }
    return raw();
  }

  private isZodExpression(node: Node): boolean {
    const steps = this.chain(node, 0);
    return steps.length > 0 && !steps[0].raw;
  }

  private fieldRules(field: string, node: Node, depth: number): ZodRule[] {
    const rules: ZodRule[] = [];
    for (const step of this.chain(node, depth)) {
      if (step.raw !== undefined) {
        rules.push({ field, rule: step.raw, written: step.raw });
        continue;
      }
      const { message, messageWritten, valueArgs } = this.messageOf(step);
      rules.push({ field, rule: `${step.method}(${valueArgs.map((a) => this.renderArg(a)).join(', ')})`, written: writtenOf(step), message, messageWritten });
      if (step.root && step.method === 'array' && step.args[0] && this.isZodExpression(step.args[0]) && depth < 5) {
        rules.push(...this.fieldRules(`${field}[]`, step.args[0], depth + 1));
      }
    }
    return rules;
  }

  private objectRule(step: Step): ZodRule {
    const field = '(whole form)';
    if (step.method === 'strictObject') return { field, rule: 'strict: unknown keys are refused', written: 'z.strictObject(...)' };
    const fnNode = step.args[0];
    const { message, messageWritten } = this.messageOf({ ...step, args: step.args.slice(1) });
    let fnText = fnNode ? sourceText(fnNode) : '';
    let doc: string | undefined;
    let inside: { written: string; doc?: string } | undefined;
    if (fnNode) {
      const fn = this.ev.evaluate(fnNode, { vars: new Map() });
      if (fn.kind === 'function') {
        if (fn.name) {
          fnText = fn.name;
          doc = fn.doc;
        }
        if (message === undefined && messageWritten === undefined) inside = messagesInside(this.ev, fn.node);
      }
    }
    return { field, rule: `${step.method}(${fnText})`, written: writtenOf(step), doc, message, messageWritten: messageWritten ?? inside?.written, messageDoc: inside?.doc };
  }

  /** Splits a step's arguments into the message (a string, or `{ error | message }`) and the value arguments. */
  private messageOf(step: Step): { message?: string; messageWritten?: string; valueArgs: readonly Node[] } {
    const args = step.args;
    if (args.length === 0) return { valueArgs: args };
    const last = args[args.length - 1];
    const v = this.ev.evaluate(last, { vars: new Map() });
    const single = args.length === 1;
    if (v.kind === 'primitive' && typeof v.value === 'string' && !(single && VALUE_METHODS.has(step.method))) {
      return { message: v.value, valueArgs: args.slice(0, -1) };
    }
    if (v.kind === 'object' && (v.props.has('error') || v.props.has('message'))) {
      const w = v.props.get('error') ?? v.props.get('message')!;
      const m = w.value.kind === 'primitive' && typeof w.value.value === 'string' ? w.value.value : undefined;
      return { message: m, messageWritten: m === undefined ? sourceText(w.node) : undefined, valueArgs: args.slice(0, -1) };
    }
    return { valueArgs: args };
  }

  private renderArg(node: Node): string {
    if (this.isZodExpression(node)) return this.compact(node);
    const bare = unwrap(node);
    if (Node.isArrayLiteralExpression(bare) && bare.getElements().length > 0 && bare.getElements().every((e) => this.isZodExpression(e))) {
      return bare.getElements().map((e) => this.compact(e)).join(' | ');
    }
    const v = this.ev.evaluate(node, { vars: new Map() });
    const rendered = renderValue(v);
    if (rendered !== undefined) {
      if (v.kind === 'array' && v.items.length > MAX_LISTED) return `${sourceText(bare)} (${v.items.length} values)`;
      return rendered;
    }
    return sourceText(bare);
  }

  /** A nested zod expression on one line: `literal(0)`, `enum(A | B).optional()`. */
  private compact(node: Node): string {
    return this.chain(node, 0)
      .map((s) => (s.raw !== undefined ? s.raw : `${s.root ? '' : '.'}${s.method}(${this.messageOf(s).valueArgs.map((a) => this.renderArg(a)).join(', ')})`))
      .join('');
  }
}

function writtenOf(step: Step): string {
  return `${step.root ? 'z' : ''}.${step.method}(${step.args.map(sourceText).join(', ')})`;
}

function renderValue(v: Val): string | undefined {
  switch (v.kind) {
    case 'primitive':
      return typeof v.value === 'string' ? JSON.stringify(v.value) : String(v.value);
    case 'regex':
      return v.text;
    case 'array': {
      const parts = v.items.map((i) => renderValue(i.value));
      if (parts.some((p) => p === undefined)) return undefined;
      return parts.map((p) => (p!.startsWith('"') ? JSON.parse(p!) : p)).join(' | ');
    }
    default:
      return undefined;
  }
}

/** The `message:` values of the issues a refinement function adds, as written, and the doc of a function making them. */
function messagesInside(ev: Evaluator, fn: Node): { written: string; doc?: string } | undefined {
  const found: string[] = [];
  const docs: string[] = [];
  fn.forEachDescendant((d) => {
    if (!Node.isPropertyAssignment(d) || d.getName() !== 'message') return;
    const init = d.getInitializerOrThrow();
    const v = ev.evaluate(init, { vars: new Map() });
    if (v.kind === 'primitive' && typeof v.value === 'string') found.push(JSON.stringify(v.value));
    else {
      found.push(sourceText(init));
      const f = Node.isCallExpression(init) ? ev.evaluate(init.getExpression(), { vars: new Map() }) : undefined;
      if (f?.kind === 'function' && f.name && f.doc) docs.push(`${f.name}: ${f.doc}`);
    }
  });
  return found.length ? { written: found.join('; '), doc: docs.length ? docs.join(' ') : undefined } : undefined;
}
