/**
 * Reading and showing imported definition values: properties, strings, numbers, and functions. A
 * function with a name declared at the top of a project file is shown by that name, its file and doc
 * comment (codegen/docs.ts); an inline one by its code as it runs, printed by TypeScript's printer.
 */
import ts from 'typescript';
import type { CallContract } from '../src/api/contract';
import type { Docs } from './docs';
import { code, text } from './markdown';

export type Obj = Readonly<Record<string, unknown>>;

export const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
export const p = (v: unknown, name: string): unknown => (isObj(v) ? v[name] : undefined);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
export const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
export const items = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);
export const isContract = (v: unknown): v is CallContract => isObj(v) && typeof v.path === 'string' && 'request' in v && 'access' in v;
export const isZod = (v: unknown): boolean => isObj(v) && '_zod' in v;

/** Any function (what `Function` meant, without its unchecked calls). */
export type AnyFunction = (...args: never[]) => unknown;
export const isFunction = (v: unknown): v is AnyFunction => typeof v === 'function';

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** A function's code, printed on one line (`row => ({ id: row.id })`). */
export function functionSource(fn: AnyFunction): string {
  const src = fn.toString();
  const file = ts.createSourceFile('f.ts', `const f = ${src};`, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const init = (file.statements[0] as ts.VariableStatement | undefined)?.declarationList.declarations[0]?.initializer;
  if (!init || (file as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length > 0) return src.replace(/\s+/g, ' ');
  // the same text whichever transpiler loaded the module (tsx's esbuild, vitest's vite): single quotes as
  // the project writes them, `undefined`/`true`/`false` for `void 0`/`!0`/`!1`, imported names bare
  const f = ts.factory;
  const visit =
    (c: ts.TransformationContext) =>
    (n: ts.Node): ts.Node => {
      if (ts.isStringLiteral(n)) return f.createStringLiteral(n.text, true);
      if (ts.isVoidExpression(n) && ts.isNumericLiteral(n.expression) && n.expression.text === '0') return f.createIdentifier('undefined');
      if (ts.isPrefixUnaryExpression(n) && n.operator === ts.SyntaxKind.ExclamationToken && ts.isNumericLiteral(n.operand) && ['0', '1'].includes(n.operand.text))
        return n.operand.text === '0' ? f.createTrue() : f.createFalse();
      if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression) && /^__vite_ssr_import_\d+__$/.test(n.expression.text)) return f.createIdentifier(n.name.text);
      if (ts.isParenthesizedExpression(n) && ts.isBinaryExpression(n.expression) && n.expression.operatorToken.kind === ts.SyntaxKind.CommaToken && ts.isNumericLiteral(n.expression.left)) {
        const right = n.expression.right;
        if (ts.isPropertyAccessExpression(right) && ts.isIdentifier(right.expression) && /^__vite_ssr_import_\d+__$/.test(right.expression.text)) return f.createIdentifier(right.name.text);
      }
      if (ts.isParenthesizedExpression(n) && (ts.isPropertyAccessExpression(n.expression) || ts.isElementAccessExpression(n.expression) || ts.isIdentifier(n.expression)))
        return visit(c)(n.expression);
      return ts.visitEachChild(n, visit(c), c);
    };
  const quoted = ts.transform(init, [(c) => (root) => ts.visitNode(root, visit(c)) as ts.Expression]).transformed[0]!;
  const printed = printer.printNode(ts.EmitHint.Expression, quoted, file);
  // parameters in parentheses, as the project writes them (`(row) => ...`)
  return printed.replace(/\s*\n\s*/g, ' ').replace(/(^|[\s(,])([A-Za-z_$][\w$]*) =>/g, '$1($2) =>');
}

/** The values the renderers need to show functions and contracts. */
export interface ShowContext {
  readonly docs: Docs;
  /** The exported name of a contract (`bankList`), when it has one. */
  contractName(c: CallContract): string | undefined;
  /** The exported `const` an object or array is, when it is one (`emptyUser`). */
  exportOf?(v: unknown): { name: string; file: string } | undefined;
}

/** A function: its name, file and doc comment when it is a named declaration (not the property it sits in); else its code. */
export function fnText(fn: AnyFunction, ctx: ShowContext, key?: string, withFile = true): string {
  // a factory's function named after the call that made it (`topLevel('totalAmount')`): the factory's doc
  const factory = /^([A-Za-z_$][\w$]*)\(.*\)$/.exec(fn.name)?.[1];
  const defined = fn.name && fn.name !== key ? ctx.docs.find(factory ?? fn.name) : undefined;
  if (!defined) return code(functionSource(fn));
  return `${code(fn.name)}${withFile ? ` (${code(defined.file)})` : ''}${defined.doc ? ` — ${text(defined.doc)}` : ''}`;
}

/** A plain value on one line, as a literal (`['id', 'bank_code']`, `{ width: 240 }`); a declared function by its name. */
export function literal(v: unknown, ctx?: ShowContext, key?: string): string {
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (isFunction(v)) return v.name && v.name !== key && ctx?.docs.find(v.name) ? v.name : functionSource(v);
  if (v instanceof RegExp) return String(v);
  if (isContract(v)) return `POST /api/${v.path}`;
  if (Array.isArray(v)) return `[${v.map((x) => literal(x, ctx)).join(', ')}]`;
  if (isObj(v))
    return Object.keys(v).length
      ? `{ ${Object.entries(v)
          .map(([k, x]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : literal(k)}: ${literal(x, ctx, k)}`)
          .join(', ')} }`
      : '{}';
  return String(v);
}

/** Any value: a function by name or code, a contract by its call, anything else as a literal. */
export function shown(v: unknown, ctx: ShowContext, key?: string): string {
  if (v === undefined) return '—';
  if (isFunction(v)) return fnText(v, ctx, key);
  if (isContract(v)) return `${code(`POST /api/${v.path}`)}${ctx.contractName(v) ? ` (${code(ctx.contractName(v)!)})` : ''}`;
  if (typeof v === 'string') return code(v);
  const exported = v && typeof v === 'object' ? ctx.exportOf?.(v) : undefined;
  return code(exported ? exported.name : literal(v, ctx, key));
}
