/**
 * Turns ajv errors (data) into issues with readable messages, and issues into one failure text.
 * Example: `/events/3/cost: must be a decimal string (got number 12.5)`.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { SchemaIssue, SchemaResult } from './types.js';
import { EXPECT_KEYWORD } from './formats.js';
import { shortName } from './store.js';

const VALUE_KEYWORDS = new Set(['type', 'pattern', 'format', 'enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength']);

/** A short description of a value, never longer than ~60 characters. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array(${value.length})`;
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `string ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'object') return 'object';
  return `${typeof value} ${String(value)}`;
}

function messageOf(error: ErrorObject): string {
  const expect = (error.parentSchema as Record<string, unknown> | undefined)?.[EXPECT_KEYWORD];
  const got = ` (got ${describeValue(error.data)})`;
  if (typeof expect === 'string' && VALUE_KEYWORDS.has(error.keyword)) return `must be ${expect}${got}`;
  switch (error.keyword) {
    case 'type':
      return `must be ${String((error.params as { type: unknown }).type).replace(/,/g, ' or ')}${got}`;
    case 'enum':
      return `must be one of ${((error.params as { allowedValues: unknown[] }).allowedValues).map((v) => JSON.stringify(v)).join(', ')}${got}`;
    case 'const':
      return `must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}${got}`;
    case 'anyOf':
      return 'must match one of the allowed shapes (each alternative failed, see the other issues)';
    default:
      return VALUE_KEYWORDS.has(error.keyword) ? `${error.message ?? 'is invalid'}${got}` : (error.message ?? 'is invalid');
  }
}

export function toIssues(errors: readonly ErrorObject[] | null | undefined): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const seen = new Set<string>();
  // Missing properties of one object become one issue listing them all (readable within maxIssues).
  const missing = new Map<string, { issue: SchemaIssue; names: string[] }>();
  for (const error of errors ?? []) {
    // An `if` failure only says "must match then"; the `then` errors next to it carry the detail.
    if (error.keyword === 'if') continue;
    if (error.keyword === 'required') {
      const name = String((error.params as { missingProperty: unknown }).missingProperty);
      const group = missing.get(error.instancePath);
      if (group) {
        if (!group.names.includes(name)) group.names.push(name);
      } else {
        const issue: SchemaIssue = { instancePath: error.instancePath, keyword: 'required', message: '' };
        missing.set(error.instancePath, { issue, names: [name] });
        issues.push(issue);
      }
      continue;
    }
    const message = messageOf(error);
    const key = `${error.instancePath}\u0000${message}`;
    if (seen.has(key)) continue; // shared $refs (event-common via event and via its kind) report twice
    seen.add(key);
    issues.push({ instancePath: error.instancePath, keyword: error.keyword, message });
  }
  for (const { issue, names } of missing.values()) {
    issue.message = `must have required ${names.length === 1 ? 'property' : 'properties'} ${names.map((n) => `'${n}'`).join(', ')}`;
  }
  return issues;
}

/** Failure text for a check message: the schema's short name, then up to `maxIssues` issues. */
export function formatIssues(result: SchemaResult, maxIssues = 5): string {
  const name = shortName(result.schemaId);
  if (result.valid) return `matches ${name}`;
  const lines = result.issues.slice(0, maxIssues).map((i) => `  ${i.instancePath || '(root)'}: ${i.message}`);
  const more = result.issues.length > maxIssues ? [`  … and ${result.issues.length - maxIssues} more`] : [];
  const count = `${result.issues.length} issue${result.issues.length === 1 ? '' : 's'}`;
  return [`does not match ${name} (${count}):`, ...lines, ...more].join('\n');
}
