/**
 * Recursive-descent parser of the expression language. Precedence, lowest first:
 *   a ? b : c  |  ||, or  |  &&, and  |  == != < <= > >=  |  + -  |  * / %  |  unary ! - not  |  postfix . [] ()
 * Calls are allowed on bare function names only (`len(x)`), so a value can never be invoked.
 */
import { ExpressionError } from './errors.js';
import { tokenize, type Token } from './tokenizer.js';

export type Node =
  | { kind: 'literal'; value: unknown; pos: number }
  | { kind: 'number'; text: string; pos: number }
  | { kind: 'var'; name: string; pos: number }
  | { kind: 'member'; object: Node; property: Node; pos: number }
  | { kind: 'call'; name: string; args: Node[]; pos: number }
  | { kind: 'list'; items: Node[]; pos: number }
  | { kind: 'unary'; op: string; arg: Node; pos: number }
  | { kind: 'binary'; op: string; left: Node; right: Node; pos: number }
  | { kind: 'cond'; test: Node; then: Node; otherwise: Node; pos: number };

const KEYWORD_LITERALS: Record<string, unknown> = { true: true, false: false, null: null };
const WORD_OPS: Record<string, string> = { and: '&&', or: '||', not: '!' };

export function parseExpression(src: string): Node {
  const tokens = tokenize(src);
  let i = 0;
  const peek = (): Token => tokens[i] as Token;
  const next = (): Token => tokens[i++] as Token;
  const isOp = (value: string): boolean => {
    const t = peek();
    return (t.type === 'op' && t.value === value) || (t.type === 'ident' && WORD_OPS[t.value] === value);
  };
  const expect = (value: string): Token => {
    const t = peek();
    if (t.type !== 'op' || t.value !== value) {
      throw new ExpressionError(src, t.pos, `expected '${value}' but found ${t.type === 'eof' ? 'end of expression' : `'${t.value}'`}`);
    }
    return next();
  };

  function conditional(): Node {
    const test = or();
    if (!isOp('?')) return test;
    const pos = next().pos;
    const then = conditional();
    expect(':');
    return { kind: 'cond', test, then, otherwise: conditional(), pos };
  }
  function binaryLevel(ops: string[], sub: () => Node): () => Node {
    return () => {
      let left = sub();
      for (;;) {
        const op = ops.find((o) => isOp(o));
        if (!op) return left;
        const pos = next().pos;
        left = { kind: 'binary', op, left, right: sub(), pos };
      }
    };
  }
  const mul = binaryLevel(['*', '/', '%'], unary);
  const add = binaryLevel(['+', '-'], mul);
  const cmp = binaryLevel(['==', '!=', '<=', '>=', '<', '>'], add);
  const and = binaryLevel(['&&'], cmp);
  const or = binaryLevel(['||'], and);

  function unary(): Node {
    if (isOp('!') || isOp('-')) {
      const t = next();
      const op = t.type === 'ident' ? (WORD_OPS[t.value] as string) : t.value;
      return { kind: 'unary', op, arg: unary(), pos: t.pos };
    }
    return postfix();
  }
  function postfix(): Node {
    let node = primary();
    for (;;) {
      if (isOp('.')) {
        next();
        const name = next();
        if (name.type !== 'ident') throw new ExpressionError(src, name.pos, 'expected a property name after "."');
        node = { kind: 'member', object: node, property: { kind: 'literal', value: name.value, pos: name.pos }, pos: name.pos };
      } else if (isOp('[')) {
        const pos = next().pos;
        const property = conditional();
        expect(']');
        node = { kind: 'member', object: node, property, pos };
      } else if (isOp('(')) {
        if (node.kind !== 'var') throw new ExpressionError(src, peek().pos, 'only named functions can be called');
        next();
        const args: Node[] = [];
        if (!isOp(')')) {
          do args.push(conditional());
          while (isOp(',') && next());
        }
        expect(')');
        node = { kind: 'call', name: node.name, args, pos: node.pos };
      } else {
        return node;
      }
    }
  }
  function primary(): Node {
    const t = next();
    switch (t.type) {
      case 'number':
        return { kind: 'number', text: t.value, pos: t.pos };
      case 'string':
        return { kind: 'literal', value: t.value, pos: t.pos };
      case 'ident':
        if (t.value in KEYWORD_LITERALS) return { kind: 'literal', value: KEYWORD_LITERALS[t.value], pos: t.pos };
        if (t.value in WORD_OPS) throw new ExpressionError(src, t.pos, `unexpected operator '${t.value}'`);
        return { kind: 'var', name: t.value, pos: t.pos };
      case 'op':
        if (t.value === '(') {
          const inner = conditional();
          expect(')');
          return inner;
        }
        if (t.value === '[') {
          const items: Node[] = [];
          if (!isOp(']')) {
            do items.push(conditional());
            while (isOp(',') && next());
          }
          expect(']');
          return { kind: 'list', items, pos: t.pos };
        }
        throw new ExpressionError(src, t.pos, `unexpected '${t.value}'`);
      default:
        throw new ExpressionError(src, t.pos, 'unexpected end of expression');
    }
  }

  if (peek().type === 'eof') throw new ExpressionError(src, 0, 'empty expression');
  const root = conditional();
  const rest = peek();
  if (rest.type !== 'eof') throw new ExpressionError(src, rest.pos, `unexpected '${rest.value}' after the end of the expression`);
  return root;
}

/** Free variable names of an expression (for the loader's static "unknown variable" check). */
export function freeVariables(node: Node, out: Set<string> = new Set()): Set<string> {
  switch (node.kind) {
    case 'var':
      out.add(node.name);
      break;
    case 'member':
      freeVariables(node.object, out);
      freeVariables(node.property, out);
      break;
    case 'call':
    case 'list':
      for (const a of node.kind === 'call' ? node.args : node.items) freeVariables(a, out);
      break;
    case 'unary':
      freeVariables(node.arg, out);
      break;
    case 'binary':
      freeVariables(node.left, out);
      freeVariables(node.right, out);
      break;
    case 'cond':
      freeVariables(node.test, out);
      freeVariables(node.then, out);
      freeVariables(node.otherwise, out);
      break;
    default:
      break;
  }
  return out;
}

/** Function names called by an expression (so the loader can flag unknown functions early). */
export function calledFunctions(node: Node, out: Set<string> = new Set()): Set<string> {
  const visit = (n: Node): void => {
    if (n.kind === 'call') out.add(n.name);
    for (const child of children(n)) visit(child);
  };
  visit(node);
  return out;
}

function children(n: Node): Node[] {
  switch (n.kind) {
    case 'member':
      return [n.object, n.property];
    case 'call':
      return n.args;
    case 'list':
      return n.items;
    case 'unary':
      return [n.arg];
    case 'binary':
      return [n.left, n.right];
    case 'cond':
      return [n.test, n.then, n.otherwise];
    default:
      return [];
  }
}
