/**
 * What a scenario's steps say about running on a shared target (isolation.ts) and which profile roles it
 * needs (roles.ts), over the real catalogue: derived from the steps, so these pin the derivation.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { isolationOf } from '../../src/harness/scenario/isolation.js';
import { missingRoles, scenarioRoles } from '../../src/harness/scenario/roles.js';

const suite = loadScenarioSuite(join(REPO_ROOT, 'specs'));
const byId = new Map(suite.scenarios.map((s) => [s.id, s]));
const get = (id: string) => {
  const s = byId.get(id);
  assert.ok(s, `scenario ${id} exists`);
  return s;
};

test('every scenario with a clock step, a raw clock control request or auth: expired is exclusive; readers are not', () => {
  for (const id of ['token.expiry', 'lifecycle.issue-after-cutoff', 'lifecycle.late-funding', 'lifecycle.default-date', 'amounts.indication-uid-expired']) {
    assert.ok(isolationOf(get(id)).reasons.includes('moves the sandbox clock'), id);
  }
  for (const id of ['webhooks.register-delete', 'webhooks.no-delivery']) assert.ok(isolationOf(get(id)).reasons.includes("registers the user's webhook"), id);
  // Malformed webhook bodies in a parallel probe never register anything.
  assert.deepEqual(isolationOf(get('errors.no-server-error-write')).reasons, []);
  assert.deepEqual(isolationOf(get('resources.health')).reasons, []);
});

test('no scenario resets the sandbox (it would wipe every concurrent scenario on a shared target)', () => {
  assert.deepEqual(suite.scenarios.filter((s) => isolationOf(s).resets).map((s) => s.id), []);
});

test('roles: table references and credentials named in auth; a role compared with null is optional', () => {
  assert.ok(scenarioRoles(get('amounts.minimum-fractional')).includes('indications.fractional_minimum'));
  assert.ok(scenarioRoles(get('token.api-key')).includes('credentials.api_key'));
  assert.ok(scenarioRoles(get('token.code-pkce')).includes('credentials.code'));
  const expired = scenarioRoles(get('amounts.indication-uid-expired'));
  assert.ok(!expired.includes('indications.fixed') && expired.includes('indications.primary'), expired.join(', '));
  assert.ok(!scenarioRoles(get('token.expiry')).some((r) => r.startsWith('credentials.expired')));
});

test('missingRoles: absent, null, empty and empty lists are missing; declared values are not', () => {
  const view = { indications: { primary: 'A', extendable: null, fractional_minimum: '' }, entities: { allowed: [], forbidden: 'X' }, credentials: { primary: {} } };
  assert.deepEqual(
    missingRoles(view, ['indications.primary', 'indications.extendable', 'indications.fractional_minimum', 'indications.enforced_maximum', 'entities.allowed', 'entities.forbidden', 'credentials.primary', 'credentials.api_key']),
    ['indications.extendable', 'indications.fractional_minimum', 'indications.enforced_maximum', 'entities.allowed', 'credentials.api_key'],
  );
});
