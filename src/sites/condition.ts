/**
 * Visitor conditions of site spaces, sections, pages and header items: JavaScript expressions
 * (evaluated per visitor by the published site, e.g. `visitor.claims.plan === "pro"`). They are
 * parsed here with acorn so a malformed one is refused when written, with the parser's own words
 * and position.
 */
import { parseExpressionAt } from 'acorn';
import { badRequest } from '../lib/errors.js';

/** Throws a 400 naming `field` unless `source` is exactly one JavaScript expression. */
export function assertExpression(source: string, field: string): void {
  let end: number;
  try {
    end = parseExpressionAt(source, 0, { ecmaVersion: 'latest' }).end;
  } catch (error) {
    throw badRequest(`${field} is not a valid expression: ${(error as Error).message}`);
  }
  // parseExpressionAt stops after the first expression; anything but whitespace after it is an error.
  const rest = source.slice(end);
  if (rest.trim() !== '') {
    throw badRequest(`${field} is not a valid expression: unexpected "${rest.trim().slice(0, 20)}" at ${end + 1}`);
  }
}

/** What a condition sees: `visitor.claims` (signed claims, with the unsigned ones under `unsigned`). */
export interface VisitorContext {
  claims: Record<string, unknown>;
}

type Node = { type: string; [key: string]: unknown };

/** Methods a condition may call on a string or an array value (pure, no callbacks). */
const METHODS = new Set(['includes', 'startsWith', 'endsWith', 'toLowerCase', 'toUpperCase', 'trim', 'indexOf']);

class Unsupported extends Error {}

const parsed = new Map<string, Node | null>();

function parse(source: string): Node | null {
  let node = parsed.get(source);
  if (node === undefined) {
    try {
      node = parseExpressionAt(source, 0, { ecmaVersion: 'latest' }) as unknown as Node;
    } catch {
      node = null;
    }
    if (parsed.size > 1000) parsed.clear();
    parsed.set(source, node);
  }
  return node;
}

/** A property of a value, read only where it is the value's own (never the prototype chain). */
function property(target: unknown, key: unknown): unknown {
  if (target === null || target === undefined) return undefined;
  if (typeof target === 'string' || Array.isArray(target)) {
    if (key === 'length') return target.length;
    if (typeof key === 'number' || (typeof key === 'string' && /^\d+$/.test(key))) return target[Number(key)];
    return undefined;
  }
  if (typeof target === 'object' && typeof key === 'string' && Object.hasOwn(target, key)) {
    return (target as Record<string, unknown>)[key];
  }
  return undefined;
}

function evaluate(node: Node, scope: { visitor: VisitorContext }): unknown {
  const ev = (n: unknown) => evaluate(n as Node, scope);
  switch (node.type) {
    case 'Literal':
      return node.regex ? undefined : node.value;
    case 'Identifier':
      if (node.name === 'visitor') return scope.visitor;
      if (node.name === 'undefined') return undefined;
      throw new Unsupported(`unknown name ${String(node.name)}`);
    case 'ChainExpression':
      return ev(node.expression);
    case 'MemberExpression': {
      const object = ev(node.object);
      const key = node.computed ? ev(node.property) : (node.property as { name: string }).name;
      return property(object, key);
    }
    case 'TemplateLiteral': {
      const quasis = node.quasis as Array<{ value: { cooked: string } }>;
      const expressions = node.expressions as Node[];
      return quasis.map((q, i) => q.value.cooked + (i < expressions.length ? String(ev(expressions[i])) : '')).join('');
    }
    case 'ArrayExpression':
      return (node.elements as Node[]).map((e) => ev(e));
    case 'UnaryExpression': {
      const value = ev(node.argument);
      if (node.operator === '!') return !value;
      if (node.operator === '-') return -Number(value);
      if (node.operator === '+') return Number(value);
      if (node.operator === 'typeof') return typeof value;
      throw new Unsupported(`operator ${String(node.operator)}`);
    }
    case 'LogicalExpression': {
      const left = ev(node.left);
      if (node.operator === '&&') return left ? ev(node.right) : left;
      if (node.operator === '||') return left ? left : ev(node.right);
      return left ?? ev(node.right);
    }
    case 'ConditionalExpression':
      return ev(node.test) ? ev(node.consequent) : ev(node.alternate);
    case 'BinaryExpression': {
      const a = ev(node.left) as never;
      const b = ev(node.right) as never;
      switch (node.operator) {
        case '===':
          return a === b;
        case '!==':
          return a !== b;
        // Loose equality between primitives only (objects compare by identity, which never matters here).
        case '==':
          // biome-ignore lint/suspicious/noDoubleEquals: the expression's own operator
          return a == b;
        case '!=':
          // biome-ignore lint/suspicious/noDoubleEquals: the expression's own operator
          return a != b;
        case '<':
          return a < b;
        case '<=':
          return a <= b;
        case '>':
          return a > b;
        case '>=':
          return a >= b;
        case '+':
          return (a as number) + (b as number);
        case '-':
          return (a as number) - (b as number);
        case 'in':
          return typeof b === 'object' && b !== null && Object.hasOwn(b, String(a));
        default:
          throw new Unsupported(`operator ${String(node.operator)}`);
      }
    }
    case 'CallExpression': {
      const callee = node.callee as Node;
      if (callee.type !== 'MemberExpression' || callee.computed) throw new Unsupported('call');
      const name = (callee.property as { name: string }).name;
      const target = ev(callee.object);
      if (!METHODS.has(name) || (typeof target !== 'string' && !Array.isArray(target))) return undefined;
      const args = (node.arguments as Node[]).map((a) => ev(a));
      const method = (target as unknown as Record<string, (...args: unknown[]) => unknown>)[name];
      return typeof method === 'function' ? method.apply(target, args) : undefined;
    }
    default:
      throw new Unsupported(node.type);
  }
}

/**
 * Whether content with `condition` (a site space, section, page or header item) is shown to a visitor. The expression is
 * interpreted, never run as code: it reads `visitor.claims` (own properties only), compares, combines
 * with `&&`/`||`/`!`, and calls a few string and array methods. An expression that fails, or uses
 * anything else, hides the content: adaptive content is hidden unless the visitor is shown to qualify.
 */
export function conditionHolds(condition: string | null, visitor: VisitorContext): boolean {
  if (condition === null || condition.trim() === '') return true;
  const node = parse(condition);
  if (!node) return false;
  try {
    return Boolean(evaluate(node, { visitor }));
  } catch {
    return false;
  }
}
