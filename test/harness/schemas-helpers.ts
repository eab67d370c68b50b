/** Shared helpers for the schema self-tests: sample loading and a compact "fails at" assertion. */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SchemaRegistry, SchemaResult } from '../../src/harness/schemas/types.js';

export const SAMPLES_DIR = fileURLToPath(new URL('../fixtures/schema-samples/', import.meta.url));
export const API_DIR = fileURLToPath(new URL('../../schemas/api/', import.meta.url));

export function sample(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(`${SAMPLES_DIR}${name}.valid.json`, 'utf8')) as Record<string, unknown>;
}

/** A sample with a caller-chosen type (e.g. arrays or the events-response shape). */
export function sampleAs<T>(name: string): T {
  return sample(name) as unknown as T;
}

export function schemaNames(): string[] {
  return readdirSync(API_DIR).filter((f) => f.endsWith('.schema.json')).map((f) => f.slice(0, -'.schema.json'.length)).sort();
}

export function schemaFile(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(`${API_DIR}${name}.schema.json`, 'utf8')) as Record<string, unknown>;
}

export function assertValid(registry: SchemaRegistry, name: string, value: unknown): void {
  const result = registry.validate(name, value);
  assert.equal(result.valid, true, `${name} should accept ${JSON.stringify(value)?.slice(0, 200)}: ${JSON.stringify(result.issues)}`);
}

/** Asserts the value fails and that one issue is at `path` (with `keyword` and message fragment when given). */
export function assertFailsAt(registry: SchemaRegistry, name: string, value: unknown, path: string, keyword?: string, fragment?: string): SchemaResult {
  const result = registry.validate(name, value);
  assert.equal(result.valid, false, `${name} should reject ${JSON.stringify(value)?.slice(0, 200)}`);
  const hit = result.issues.find((i) => i.instancePath === path && (keyword === undefined || i.keyword === keyword));
  assert.ok(hit, `${name}: expected an issue at "${path}"${keyword ? ` (${keyword})` : ''}, got ${JSON.stringify(result.issues)}`);
  if (fragment !== undefined) assert.ok(hit.message.includes(fragment), `message "${hit.message}" should contain "${fragment}"`);
  return result;
}

export const clone = <T>(v: T): T => structuredClone(v);
