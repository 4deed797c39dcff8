import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse, type ParserPlugin } from '@babel/parser';

// terser 5.51 (our compress options: passes > 1) miscompiles a `let` declared without an initializer and only ever
// assigned constants: it treats the variable as always holding that constant and drops the code it guards.
// Gist: `let conn; let closed; own.close = () => { closed = true; conn?.close(); };
//        p.then(() => { if (closed) return; conn = 1; body(); })` minifies to `p.then(() => {})`.
// Turning off `reduce_vars`/`evaluate`/`conditionals` costs 164–1,062 B of the CDN total, so src/ and elements/ keep
// clear of the pattern instead: such a `let` gets its initial value (`let closed = false`).

type Node = { type: string; loc?: { start: { line: number } } | null; [key: string]: unknown };

/** A `let x;` that may be hazardous: counts its assignments and whether every one stores a constant. */
interface Candidate {
  name: string;
  line: number;
  assignments: number;
  constantOnly: boolean;
}

/** Names declared in one scope; a name bound to null is declared but not a candidate (it still shadows). */
interface Scope {
  parent: Scope | undefined;
  names: Map<string, Candidate | null>;
}

const FUNCTIONS = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ObjectMethod',
  'ClassMethod',
  'ClassPrivateMethod',
  'TSDeclareFunction',
  'TSDeclareMethod',
]);
/** Wrappers that leave the assigned variable the same: `x! = …`, `(x as T) = …`. */
const TS_WRAPPERS = new Set(['TSNonNullExpression', 'TSAsExpression', 'TSSatisfiesExpression', 'TSTypeAssertion', 'ParenthesizedExpression']);

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

function children(node: Node): Node[] {
  const out: Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key.endsWith('Comments')) continue;
    if (Array.isArray(value)) out.push(...value.filter(isNode));
    else if (isNode(value)) out.push(value);
  }
  return out;
}

const unwrap = (node: Node): Node => (TS_WRAPPERS.has(node.type) ? unwrap(node.expression as Node) : node);

/** A literal constant: true/false, a number, a string, null, undefined, `void 0`, `-1`, `!0`, a template without `${}`. */
function isConstant(raw: Node): boolean {
  const node = unwrap(raw);
  switch (node.type) {
    case 'BooleanLiteral':
    case 'NumericLiteral':
    case 'StringLiteral':
    case 'NullLiteral':
    case 'BigIntLiteral':
      return true;
    case 'Identifier':
      return node.name === 'undefined' || node.name === 'NaN' || node.name === 'Infinity';
    case 'TemplateLiteral':
      return (node.expressions as Node[]).length === 0;
    case 'UnaryExpression':
      return ['void', '-', '+', '!', '~'].includes(node.operator as string) && isConstant(node.argument as Node);
    default:
      return false;
  }
}

/** The identifiers a binding pattern (or assignment target pattern) names. */
function patternNames(raw: Node | null | undefined, out: string[] = []): string[] {
  if (!raw) return out;
  const node = unwrap(raw);
  switch (node.type) {
    case 'Identifier':
      out.push(node.name as string);
      break;
    case 'ObjectPattern':
      for (const p of node.properties as Node[]) patternNames(p.type === 'RestElement' ? p : (p.value as Node), out);
      break;
    case 'ArrayPattern':
      for (const e of node.elements as (Node | null)[]) patternNames(e, out);
      break;
    case 'AssignmentPattern':
      patternNames(node.left as Node, out);
      break;
    case 'RestElement':
      patternNames(node.argument as Node, out);
      break;
    case 'TSParameterProperty':
      patternNames(node.parameter as Node, out);
      break;
  }
  return out;
}

/**
 * Every `let` without an initializer (outside `for … in/of` heads) whose assignments, resolved by scope, all store a
 * literal constant. A `let` never assigned is always `undefined` and terser compiles it correctly, so it is not listed.
 */
function hazardousLets(source: string): { name: string; line: number }[] {
  const plugins: ParserPlugin[] = ['typescript', 'decorators-legacy', 'importAttributes'];
  const ast = parse(source, { sourceType: 'module', plugins }).program as unknown as Node;
  const candidates: Candidate[] = [];
  const scopeOf = (parent: Scope | undefined): Scope => ({ parent, names: new Map() });

  const lookup = (scope: Scope, name: string): Candidate | null => {
    for (let s: Scope | undefined = scope; s; s = s.parent) if (s.names.has(name)) return s.names.get(name)!;
    return null;
  };
  const declare = (scope: Scope, names: string[]) => {
    for (const name of names) scope.names.set(name, null);
  };
  const declareVariables = (scope: Scope, decl: Node, loopHead: boolean) => {
    if (decl.declare) return;
    for (const d of decl.declarations as Node[]) {
      const id = d.id as Node;
      if (decl.kind === 'let' && !loopHead && id.type === 'Identifier' && d.init == null) {
        const candidate = { name: id.name as string, line: id.loc!.start.line, assignments: 0, constantOnly: true };
        candidates.push(candidate);
        scope.names.set(candidate.name, candidate);
      } else declare(scope, patternNames(id));
    }
  };
  /** The let/const/class/function/import/enum declarations of one statement list (block-scoped in a module). */
  const declareBlock = (scope: Scope, statements: Node[]) => {
    for (const raw of statements) {
      const stmt = (raw.type === 'ExportNamedDeclaration' || raw.type === 'ExportDefaultDeclaration') && isNode(raw.declaration) ? raw.declaration : raw;
      if (stmt.type === 'VariableDeclaration' && stmt.kind !== 'var') declareVariables(scope, stmt, false);
      else if (stmt.type === 'ImportDeclaration') declare(scope, (stmt.specifiers as Node[]).map((s) => (s.local as Node).name as string));
      else if (isNode(stmt.id) && stmt.id.type === 'Identifier' && /Declaration$|^TSDeclareFunction$/.test(stmt.type)) declare(scope, [stmt.id.name as string]);
    }
  };
  /** `var`s anywhere in a function body (not inside nested functions) belong to the function's scope. */
  const hoistVars = (scope: Scope, node: Node) => {
    for (const child of children(node)) {
      if (FUNCTIONS.has(child.type)) continue;
      if (child.type === 'VariableDeclaration' && child.kind === 'var') for (const d of child.declarations as Node[]) declare(scope, patternNames(d.id as Node));
      hoistVars(scope, child);
    }
  };
  const assign = (scope: Scope, target: Node, constant: boolean) => {
    const node = unwrap(target);
    const single = node.type === 'Identifier';
    for (const name of patternNames(node)) {
      const candidate = lookup(scope, name);
      if (!candidate) continue;
      candidate.assignments++;
      if (!(single && constant)) candidate.constantOnly = false;
    }
  };

  const visit = (node: Node, scope: Scope): void => {
    if (FUNCTIONS.has(node.type)) {
      const inner = scopeOf(scope);
      if (node.type === 'FunctionExpression' && isNode(node.id)) declare(inner, [node.id.name as string]);
      for (const p of (node.params as Node[]) ?? []) declare(inner, patternNames(p));
      const body = node.body as Node | null | undefined;
      if (body?.type === 'BlockStatement') {
        hoistVars(inner, body);
        declareBlock(inner, body.body as Node[]);
      }
      for (const p of (node.params as Node[]) ?? []) visit(p, inner);
      if (body?.type === 'BlockStatement') for (const s of body.body as Node[]) visit(s, inner);
      else if (body) visit(body, inner);
      for (const key of ['decorators', 'key']) if (isNode(node[key])) visit(node[key] as Node, scope);
      return;
    }
    switch (node.type) {
      case 'Program': {
        const inner = scopeOf(scope);
        hoistVars(inner, node);
        declareBlock(inner, node.body as Node[]);
        for (const s of node.body as Node[]) visit(s, inner);
        return;
      }
      case 'BlockStatement':
      case 'StaticBlock':
      case 'TSModuleBlock': {
        const inner = scopeOf(scope);
        declareBlock(inner, node.body as Node[]);
        for (const s of node.body as Node[]) visit(s, inner);
        return;
      }
      case 'SwitchStatement': {
        visit(node.discriminant as Node, scope);
        const inner = scopeOf(scope);
        declareBlock(inner, (node.cases as Node[]).flatMap((c) => c.consequent as Node[]));
        for (const c of node.cases as Node[]) for (const child of children(c)) visit(child, inner);
        return;
      }
      case 'ForStatement':
      case 'ForInStatement':
      case 'ForOfStatement': {
        const inner = scopeOf(scope);
        const head = (node.type === 'ForStatement' ? node.init : node.left) as Node | null;
        if (head?.type === 'VariableDeclaration' && head.kind !== 'var') declareVariables(inner, head, node.type !== 'ForStatement');
        if (head && node.type !== 'ForStatement' && head.type !== 'VariableDeclaration') assign(inner, head, false);
        for (const child of children(node)) visit(child, inner);
        return;
      }
      case 'CatchClause': {
        const inner = scopeOf(scope);
        declare(inner, patternNames(node.param as Node | null));
        for (const child of children(node)) visit(child, inner);
        return;
      }
      case 'ClassExpression': {
        const inner = scopeOf(scope);
        if (isNode(node.id)) declare(inner, [node.id.name as string]);
        for (const child of children(node)) visit(child, inner);
        return;
      }
      case 'AssignmentExpression':
        assign(scope, node.left as Node, isConstant(node.right as Node));
        break;
      case 'UpdateExpression':
        assign(scope, node.argument as Node, false);
        break;
    }
    for (const child of children(node)) visit(child, scope);
  };

  visit(ast, scopeOf(undefined));
  return candidates.filter((c) => c.assignments > 0 && c.constantOnly).map(({ name, line }) => ({ name, line }));
}

function* tsFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* tsFiles(path);
    else if (name.endsWith('.ts')) yield path;
  }
}

test('the scan reports an uninitialized let assigned only constants, and nothing else', () => {
  const hazard = `export function m(p: Promise<void>) {
    let conn: { close(): void } | undefined;
    let closed: boolean | undefined;
    (globalThis as any).own = { close: () => { closed = true; conn?.close(); } };
    p.then(() => { if (closed) return; conn = { close() {} }; });
  }`;
  assert.deepEqual(hazardousLets(hazard), [{ name: 'closed', line: 3 }]);
  assert.deepEqual(hazardousLets(hazard.replace('let closed: boolean | undefined;', 'let closed = false;')), []);
  assert.deepEqual(hazardousLets(hazard.replace('closed = true', 'closed = Date.now() > 0')), []);
  // Other constant forms count; destructuring, loops and `++` do not.
  assert.deepEqual(
    hazardousLets(`let a; a = void 0; let b; b ??= 'x'; let c; c = -1;
      let d; [d] = [1]; let e; for (e of [1]) {} let f; f++; let g; let h = 0; h = 1;`).map((h) => h.name),
    ['a', 'b', 'c'],
  );
  // Assignments to a shadowing declaration belong to it, not to the outer `let`.
  assert.deepEqual(
    hazardousLets(`let x; x = true; function f() { let x = 0; x = foo(); } const g = (x) => { x = bar(); };
      try {} catch (x) { x = baz(); } for (const x of []) {}
      let y; y = bar(); { let y; y = 2; }`),
    [{ name: 'x', line: 1 }, { name: 'y', line: 3 }],
  );
  assert.deepEqual(hazardousLets(`let z; function f() { z = 1; } { z = 2; }`), [{ name: 'z', line: 1 }]);
  assert.deepEqual(hazardousLets(`let z; function f() { z = 1; } { var w; z = w; }`), []);
});

test('src/ and elements/ have no uninitialized let that is only ever assigned constants (terser 5.51 miscompiles it)', () => {
  const hits: string[] = [];
  for (const dir of ['src', 'elements'])
    for (const file of tsFiles(resolve(dir)))
      for (const { name, line } of hazardousLets(readFileSync(file, 'utf8')))
        hits.push(
          `${relative(process.cwd(), file)}:${line}: \`let ${name};\` is only ever assigned constants; initialize it ` +
            `(\`let ${name} = false\`): terser 5.51 treats it as always holding the constant and drops the code it guards`,
        );
  assert.deepEqual(hits, []);
});
