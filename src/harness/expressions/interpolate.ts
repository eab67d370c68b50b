/**
 * `${…}` interpolation inside scenario strings. A string that is exactly one `${expr}` yields the value with
 * its type (list, object, decimal, boolean); otherwise each part is rendered as text. `$${` is a literal `${`.
 * Parsed expressions are cached by their text: the same template is evaluated many times (poll, paginate).
 */
import { ExpressionError } from './errors.js';
import { evaluateNode, type Scope } from './evaluator.js';
import { parseExpression, type Node } from './parser.js';
import { isPlainObject, toText } from './values.js';

export type TemplatePart = { text: string } | { expr: string; node: Node; offset: number };

const exprCache = new Map<string, Node>();
const templateCache = new Map<string, TemplatePart[]>();

export function compileExpression(src: string): Node {
  let node = exprCache.get(src);
  if (!node) {
    node = parseExpression(src);
    exprCache.set(src, node);
  }
  return node;
}

export function evaluate(src: string, scope: Scope): unknown {
  return evaluateNode(compileExpression(src), scope, src);
}

/** Split a template into literal text and expressions; throws ExpressionError on an unclosed `${`. */
export function parseTemplate(template: string): TemplatePart[] {
  const cached = templateCache.get(template);
  if (cached) return cached;
  const parts: TemplatePart[] = [];
  let text = '';
  let i = 0;
  while (i < template.length) {
    if (template.startsWith('$${', i)) {
      text += '${';
      i += 3;
      continue;
    }
    if (!template.startsWith('${', i)) {
      text += template[i];
      i++;
      continue;
    }
    const start = i + 2;
    let j = start;
    let quote: string | undefined;
    while (j < template.length) {
      const c = template[j];
      if (quote) {
        if (c === '\\') j++;
        else if (c === quote) quote = undefined;
      } else if (c === "'" || c === '"') quote = c;
      else if (c === '}') break;
      j++;
    }
    if (j >= template.length) throw new ExpressionError(template, i, "unclosed '${'", "close the expression with '}'");
    if (text) parts.push({ text });
    text = '';
    const expr = template.slice(start, j);
    parts.push({ expr, node: compileExpression(expr), offset: start });
    i = j + 1;
  }
  if (text || parts.length === 0) parts.push({ text });
  templateCache.set(template, parts);
  return parts;
}

export function interpolateString(template: string, scope: Scope): unknown {
  if (!template.includes('${')) return template;
  const parts = parseTemplate(template);
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only && 'expr' in only) return evaluateNode(only.node, scope, only.expr);
  return parts
    .map((p) => {
      if ('text' in p) return p.text;
      const v = evaluateNode(p.node, scope, p.expr);
      if (v === undefined) throw new ExpressionError(p.expr, 0, 'the value is undefined and cannot be placed in text');
      return toText(v);
    })
    .join('');
}

/** Interpolate every string inside a YAML value (keys stay literal). */
export function resolveDeep(value: unknown, scope: Scope): unknown {
  if (typeof value === 'string') return interpolateString(value, scope);
  if (Array.isArray(value)) return value.map((v) => resolveDeep(v, scope));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveDeep(v, scope)]));
  return value;
}

/** Every expression text inside a YAML value's strings (for static checks). */
export function expressionsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' && value.includes('${')) {
    for (const p of parseTemplate(value)) if ('expr' in p) out.push(p.expr);
  } else if (Array.isArray(value)) value.forEach((v) => expressionsIn(v, out));
  else if (isPlainObject(value)) Object.values(value).forEach((v) => expressionsIn(v, out));
  return out;
}

/** The string as a bare expression: `x == 1`, or a whole-string `${x == 1}` unwrapped. */
export function bareExpression(s: string): string {
  const m = /^\$\{([\s\S]*)\}$/.exec(s.trim());
  return m && !m[1]?.includes('${') ? (m[1] as string) : s;
}
