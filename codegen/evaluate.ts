/**
 * A small static evaluator over the TypeScript syntax tree: it reads what a definition *is* from its
 * source, without importing it, so the generated specs can show names, doc comments and expressions.
 *
 * It understands literals, arrays and objects (with spreads), `as const` / `satisfies`, identifiers
 * (followed to their declaration, across imports, inside the project), property and element access,
 * `?:`, `===`, `&&`, `||`, `??`, `+`, template literals, and calls of small project functions whose body
 * is one returned expression (optionally after `const` declarations) — which covers
 * `defineListScreen<Row>()({...})`, `defineCall({...})`, `anyOf(...)` and field factories such as
 * `userFormFields('create')`. Anything else becomes an `unknown` value that still knows its source node,
 * so it can be shown as written.
 */
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';

/** A value together with the expression that produced it where it was written. */
export interface Written {
  readonly value: Val;
  readonly node: Node;
}

export type Val =
  | { readonly kind: 'primitive'; readonly value: string | number | boolean | null | undefined }
  | { readonly kind: 'regex'; readonly text: string }
  | { readonly kind: 'array'; readonly items: readonly Written[] }
  | { readonly kind: 'object'; readonly props: ReadonlyMap<string, Written>; readonly node: Node }
  | { readonly kind: 'function'; readonly node: Node; readonly name?: string; readonly doc?: string; readonly file: string; readonly env: Env }
  | { readonly kind: 'unknown'; readonly node: Node };

/** Names bound by a call (parameters, local consts), looked up before the module scope. */
export interface Env {
  readonly vars: ReadonlyMap<string, Val>;
  readonly parent?: Env;
}

const rootEnv: Env = { vars: new Map() };
const MAX_DEPTH = 40;

export class Evaluator {
  private readonly declarationCache = new Map<Node, Val>();
  private readonly inProgress = new Set<Node>();
  private depth = 0;

  /** @param rootDir absolute path of the project; declarations outside it (or in node_modules / .d.ts) are not followed. */
  constructor(private readonly rootDir: string) {}

  /** The project-relative path of a source file, with forward slashes. */
  relativePath(file: SourceFile): string {
    const p = file.getFilePath();
    return p.startsWith(this.rootDir + '/') ? p.slice(this.rootDir.length + 1) : p;
  }

  isProjectFile(file: SourceFile): boolean {
    const p = file.getFilePath();
    return p.startsWith(this.rootDir + '/') && !p.includes('/node_modules/') && !file.isDeclarationFile();
  }

  /** The value of a declaration (a `const`'s initializer, a function), or undefined when it is not followed. */
  valueOfDeclaration(decl: Node): Val | undefined {
    if (!this.isProjectFile(decl.getSourceFile())) return undefined;
    if (Node.isVariableDeclaration(decl)) {
      const init = decl.getInitializer();
      if (!init) return undefined;
      const cached = this.declarationCache.get(decl);
      if (cached) return cached;
      if (this.inProgress.has(decl)) return { kind: 'unknown', node: init };
      this.inProgress.add(decl);
      try {
        const v = this.evaluate(init, rootEnv);
        this.declarationCache.set(decl, v);
        return v;
      } finally {
        this.inProgress.delete(decl);
      }
    }
    if (Node.isFunctionDeclaration(decl)) {
      return { kind: 'function', node: decl, name: decl.getName(), doc: docOf(decl), file: this.relativePath(decl.getSourceFile()), env: rootEnv };
    }
    return undefined;
  }

  /** The declaration an identifier refers to, through imports; undefined outside the project. */
  declarationOf(id: Node): Node | undefined {
    let symbol = id.getSymbol();
    if (!symbol) return undefined;
    if (symbol.isAlias()) symbol = symbol.getAliasedSymbol() ?? symbol;
    const decl = symbol.getDeclarations()[0];
    if (!decl || !this.isProjectFile(decl.getSourceFile())) return undefined;
    return decl;
  }

  /** Follows an identifier (or `a.b` chain of consts) to the expression it was initialised with. */
  initializerOf(node: Node): Node | undefined {
    const inner = unwrap(node);
    if (Node.isIdentifier(inner)) {
      const decl = this.declarationOf(inner);
      if (decl && Node.isVariableDeclaration(decl)) return decl.getInitializer();
      if (decl && Node.isShorthandPropertyAssignment(decl)) return undefined;
    }
    return undefined;
  }

  evaluate(node: Node, env: Env): Val {
    if (this.depth > MAX_DEPTH) return { kind: 'unknown', node };
    this.depth++;
    try {
      return this.evaluateInner(node, env);
    } finally {
      this.depth--;
    }
  }

  private evaluateInner(node: Node, env: Env): Val {
    const unknown: Val = { kind: 'unknown', node };
    if (Node.isParenthesizedExpression(node) || Node.isAsExpression(node) || Node.isSatisfiesExpression(node) || Node.isNonNullExpression(node) || Node.isTypeAssertion(node)) {
      return this.evaluate(node.getExpression(), env);
    }
    if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return { kind: 'primitive', value: node.getLiteralValue() };
    if (Node.isNumericLiteral(node)) return { kind: 'primitive', value: node.getLiteralValue() };
    if (Node.isTrueLiteral(node)) return { kind: 'primitive', value: true };
    if (Node.isFalseLiteral(node)) return { kind: 'primitive', value: false };
    if (Node.isNullLiteral(node)) return { kind: 'primitive', value: null };
    if (Node.isRegularExpressionLiteral(node)) return { kind: 'regex', text: node.getText() };
    if (Node.isPrefixUnaryExpression(node)) {
      const v = this.evaluate(node.getOperand(), env);
      if (v.kind !== 'primitive') return unknown;
      switch (node.getOperatorToken()) {
        case SyntaxKind.MinusToken:
          return typeof v.value === 'number' ? { kind: 'primitive', value: -v.value } : unknown;
        case SyntaxKind.PlusToken:
          return typeof v.value === 'number' ? v : unknown;
        case SyntaxKind.ExclamationToken:
          return { kind: 'primitive', value: !v.value };
        default:
          return unknown;
      }
    }
    if (Node.isTemplateExpression(node)) {
      let out = node.getHead().getLiteralText();
      for (const span of node.getTemplateSpans()) {
        const v = this.evaluate(span.getExpression(), env);
        if (v.kind !== 'primitive') return unknown;
        out += String(v.value) + span.getLiteral().getLiteralText();
      }
      return { kind: 'primitive', value: out };
    }
    if (Node.isArrayLiteralExpression(node)) {
      const items: Written[] = [];
      for (const el of node.getElements()) {
        if (Node.isSpreadElement(el)) {
          const v = this.evaluate(el.getExpression(), env);
          if (v.kind === 'array') items.push(...v.items);
          else items.push({ value: { kind: 'unknown', node: el }, node: el });
        } else if (Node.isOmittedExpression(el)) {
          items.push({ value: { kind: 'primitive', value: undefined }, node: el });
        } else {
          items.push({ value: this.evaluate(el, env), node: el });
        }
      }
      return { kind: 'array', items };
    }
    if (Node.isObjectLiteralExpression(node)) {
      const props = new Map<string, Written>();
      for (const p of node.getProperties()) {
        if (Node.isPropertyAssignment(p)) {
          const name = propertyNameOf(p.getNameNode(), (n) => this.evaluate(n, env));
          const init = p.getInitializerOrThrow();
          // as in JavaScript, a repeated key keeps its first place and takes the later value
          props.set(name, { value: this.evaluate(init, env), node: init });
        } else if (Node.isShorthandPropertyAssignment(p)) {
          const nameNode = p.getNameNode();
          props.set(p.getName(), { value: this.evaluate(nameNode, env), node: nameNode });
        } else if (Node.isSpreadAssignment(p)) {
          const v = this.evaluate(p.getExpression(), env);
          if (v.kind === 'object') for (const [k, w] of v.props) props.set(k, w);
          else props.set(`...${p.getExpression().getText()}`, { value: { kind: 'unknown', node: p }, node: p });
        } else if (Node.isMethodDeclaration(p)) {
          props.set(p.getName(), { value: { kind: 'function', node: p, name: p.getName(), doc: docOf(p), file: this.relativePath(p.getSourceFile()), env }, node: p });
        } else {
          props.set(p.getText(), { value: { kind: 'unknown', node: p }, node: p });
        }
      }
      return { kind: 'object', props, node };
    }
    if (Node.isArrowFunction(node) || Node.isFunctionExpression(node)) {
      const holder = node.getParent();
      let name: string | undefined;
      let doc: string | undefined;
      if (Node.isVariableDeclaration(holder) && holder.getInitializer() === node) {
        name = holder.getName();
        doc = docOf(holder.getVariableStatement() ?? holder);
      } else if (Node.isFunctionExpression(node)) {
        name = node.getName();
      }
      return { kind: 'function', node, name, doc, file: this.relativePath(node.getSourceFile()), env };
    }
    if (Node.isIdentifier(node)) {
      const name = node.getText();
      for (let e: Env | undefined = env; e; e = e.parent) {
        const v = e.vars.get(name);
        if (v) return v;
      }
      if (name === 'undefined') return { kind: 'primitive', value: undefined };
      const decl = this.declarationOf(node);
      return (decl && this.valueOfDeclaration(decl)) ?? unknown;
    }
    if (Node.isPropertyAccessExpression(node)) {
      const target = this.evaluate(node.getExpression(), env);
      const name = node.getName();
      if (target.kind === 'object') return target.props.get(name)?.value ?? unknown;
      if (target.kind === 'array' && name === 'length') return { kind: 'primitive', value: target.items.length };
      if (target.kind === 'primitive' && typeof target.value === 'string' && name === 'length') return { kind: 'primitive', value: target.value.length };
      return unknown;
    }
    if (Node.isElementAccessExpression(node)) {
      const target = this.evaluate(node.getExpression(), env);
      const arg = node.getArgumentExpression();
      const key = arg ? this.evaluate(arg, env) : undefined;
      if (!key || key.kind !== 'primitive') return unknown;
      if (target.kind === 'object') return target.props.get(String(key.value))?.value ?? unknown;
      if (target.kind === 'array' && typeof key.value === 'number') return target.items[key.value]?.value ?? unknown;
      return unknown;
    }
    if (Node.isConditionalExpression(node)) {
      const c = this.evaluate(node.getCondition(), env);
      if (c.kind !== 'primitive') return unknown;
      return this.evaluate(c.value ? node.getWhenTrue() : node.getWhenFalse(), env);
    }
    if (Node.isBinaryExpression(node)) return this.evaluateBinary(node, env) ?? unknown;
    if (Node.isCallExpression(node)) return this.evaluateCall(node, env) ?? unknown;
    return unknown;
  }

  private evaluateBinary(node: Node & { getLeft(): Node; getRight(): Node; getOperatorToken(): Node }, env: Env): Val | undefined {
    const op = node.getOperatorToken().getKind();
    const left = this.evaluate(node.getLeft(), env);
    if (op === SyntaxKind.AmpersandAmpersandToken || op === SyntaxKind.BarBarToken || op === SyntaxKind.QuestionQuestionToken) {
      const truthy = left.kind === 'primitive' ? !!left.value : left.kind === 'unknown' ? undefined : true;
      const nullish = left.kind === 'primitive' ? left.value === null || left.value === undefined : left.kind === 'unknown' ? undefined : false;
      if (op === SyntaxKind.AmpersandAmpersandToken) return truthy === undefined ? undefined : truthy ? this.evaluate(node.getRight(), env) : left;
      if (op === SyntaxKind.BarBarToken) return truthy === undefined ? undefined : truthy ? left : this.evaluate(node.getRight(), env);
      return nullish === undefined ? undefined : nullish ? this.evaluate(node.getRight(), env) : left;
    }
    const right = this.evaluate(node.getRight(), env);
    if (left.kind !== 'primitive' || right.kind !== 'primitive') return undefined;
    const a = left.value;
    const b = right.value;
    switch (op) {
      case SyntaxKind.EqualsEqualsEqualsToken:
        return { kind: 'primitive', value: a === b };
      case SyntaxKind.ExclamationEqualsEqualsToken:
        return { kind: 'primitive', value: a !== b };
      case SyntaxKind.EqualsEqualsToken:
        return { kind: 'primitive', value: a == b };
      case SyntaxKind.ExclamationEqualsToken:
        return { kind: 'primitive', value: a != b };
      case SyntaxKind.PlusToken:
        if (typeof a === 'number' && typeof b === 'number') return { kind: 'primitive', value: a + b };
        if (typeof a === 'string' || typeof b === 'string') return { kind: 'primitive', value: String(a) + String(b) };
        return undefined;
      case SyntaxKind.MinusToken:
      case SyntaxKind.AsteriskToken:
      case SyntaxKind.SlashToken: {
        if (typeof a !== 'number' || typeof b !== 'number') return undefined;
        const value = op === SyntaxKind.MinusToken ? a - b : op === SyntaxKind.AsteriskToken ? a * b : a / b;
        return { kind: 'primitive', value };
      }
      default:
        return undefined;
    }
  }

  private evaluateCall(node: Node & { getExpression(): Node; getArguments(): Node[] }, env: Env): Val | undefined {
    const callee = this.evaluate(node.getExpression(), env);
    if (callee.kind !== 'function') return undefined;
    const fn = callee.node;
    if (!(Node.isArrowFunction(fn) || Node.isFunctionExpression(fn) || Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn))) return undefined;
    const args: Val[] = [];
    for (const a of node.getArguments()) {
      if (Node.isSpreadElement(a)) {
        const v = this.evaluate(a.getExpression(), env);
        if (v.kind !== 'array') return undefined;
        args.push(...v.items.map((i) => i.value));
      } else args.push(this.evaluate(a, env));
    }
    const vars = new Map<string, Val>();
    const params = fn.getParameters();
    for (let i = 0; i < params.length; i++) {
      const p = params[i];
      const nameNode = p.getNameNode();
      if (!Node.isIdentifier(nameNode)) continue; // destructured parameters stay unknown
      if (p.isRestParameter()) {
        vars.set(nameNode.getText(), { kind: 'array', items: args.slice(i).map((value, j) => ({ value, node: node.getArguments()[i + j] ?? p })) });
        break;
      }
      let v = args[i];
      const init = p.getInitializer();
      if ((v === undefined || (v.kind === 'primitive' && v.value === undefined)) && init) v = this.evaluate(init, callee.env);
      vars.set(nameNode.getText(), v ?? { kind: 'primitive', value: undefined });
    }
    const callEnv: Env = { vars, parent: callee.env };
    const body = fn.getBody();
    if (!body) return undefined;
    if (!Node.isBlock(body)) return this.evaluate(body, callEnv);
    for (const st of body.getStatements()) {
      if (Node.isVariableStatement(st)) {
        for (const d of st.getDeclarations()) {
          const n = d.getNameNode();
          const init = d.getInitializer();
          if (!Node.isIdentifier(n) || !init) return undefined;
          vars.set(n.getText(), this.evaluate(init, callEnv));
        }
      } else if (Node.isReturnStatement(st)) {
        const e = st.getExpression();
        return e ? this.evaluate(e, callEnv) : { kind: 'primitive', value: undefined };
      } else return undefined;
    }
    return undefined;
  }
}

/** Strips parentheses, `as`, `satisfies` and `!`. */
export function unwrap(node: Node): Node {
  let n = node;
  while (Node.isParenthesizedExpression(n) || Node.isAsExpression(n) || Node.isSatisfiesExpression(n) || Node.isNonNullExpression(n) || Node.isTypeAssertion(n)) n = n.getExpression();
  return n;
}

function propertyNameOf(nameNode: Node, evaluate: (n: Node) => Val): string {
  if (Node.isIdentifier(nameNode) || Node.isPrivateIdentifier(nameNode)) return nameNode.getText();
  if (Node.isStringLiteral(nameNode) || Node.isNoSubstitutionTemplateLiteral(nameNode) || Node.isNumericLiteral(nameNode)) return String(nameNode.getLiteralValue());
  if (Node.isComputedPropertyName(nameNode)) {
    const v = evaluate(nameNode.getExpression());
    if (v.kind === 'primitive') return String(v.value);
  }
  return nameNode.getText();
}

/** The description of a node's JSDoc comment (the last one), on one line; undefined when there is none. */
export function docOf(node: Node): string | undefined {
  if (!Node.isJSDocable(node)) return undefined;
  const docs = node.getJsDocs();
  const last = docs[docs.length - 1];
  if (!last) return undefined;
  const text = last.getDescription().replace(/\s+/g, ' ').trim();
  return text || undefined;
}

// ---- reading values ---------------------------------------------------------------------------

export function prop(v: Val | undefined, name: string): Written | undefined {
  return v?.kind === 'object' ? v.props.get(name) : undefined;
}

export function str(v: Val | undefined): string | undefined {
  return v?.kind === 'primitive' && typeof v.value === 'string' ? v.value : undefined;
}

export function num(v: Val | undefined): number | undefined {
  return v?.kind === 'primitive' && typeof v.value === 'number' ? v.value : undefined;
}

export function bool(v: Val | undefined): boolean | undefined {
  return v?.kind === 'primitive' && typeof v.value === 'boolean' ? v.value : undefined;
}

export function items(v: Val | undefined): readonly Written[] {
  return v?.kind === 'array' ? v.items : [];
}

/** A plain JavaScript value for the parts that could be evaluated (functions and unknowns become undefined). */
export function toPlain(v: Val | undefined): unknown {
  if (!v) return undefined;
  switch (v.kind) {
    case 'primitive':
      return v.value;
    case 'regex':
      return v.text;
    case 'array':
      return v.items.map((i) => toPlain(i.value));
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const [k, w] of v.props) o[k] = toPlain(w.value);
      return o;
    }
    default:
      return undefined;
  }
}

/** The source text of a node on one line. */
export function sourceText(node: Node): string {
  return node.getText().replace(/\s*\n\s*/g, ' ').replace(/\s+/g, ' ').trim();
}
