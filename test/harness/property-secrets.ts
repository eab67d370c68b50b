/** Shared by the property tests against the reference: what a counterexample must never contain. */
import assert from 'node:assert/strict';

/** The reference's client secrets, API keys and the primary token, as plain strings. */
export function knownSecrets(clients: Record<string, unknown>, apiKeys: Record<string, unknown>, authorization: unknown): string[] {
  return [...Object.values(clients), ...Object.values(apiKeys), String(authorization).replace(/^Bearer /, '')].filter((s): s is string => typeof s === 'string');
}

export function assertNoSecrets(text: string, secrets: string[]): void {
  for (const s of secrets) assert.ok(!text.includes(s), 'a secret leaked into the counterexample');
  assert.doesNotMatch(text, /Bearer [A-Za-z0-9]/);
}
