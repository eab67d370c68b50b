/**
 * Every entity-scoped operation is probed with the profile's forbidden entity by a scenario covering
 * AUTH-ENTITY-403 (issue 13): read from the scenarios' request templates, so a probe removed or an operation
 * forgotten fails here. The write (POST /subscribe) sits in a scenario that declares `needs: [mutation]`
 * (the production guard skips it).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import type { LocatedStep, RequestSpec, Scenario } from '../../src/harness/scenario/types.js';

/** The entity-scoped operations (operation-map ids) and how a probe of the forbidden entity reads in a template. */
const ENTITY_SCOPED: Array<{ operation: string; probe: (r: RequestSpec) => boolean; write?: true }> = [
  { operation: 'entity.get', probe: (r) => r.path.includes("fill_path(target.paths.entity, 'code', forbidden)") },
  { operation: 'entity.users', probe: (r) => r.path.includes("fill_path(target.paths.entity_users, 'code', forbidden)") },
  { operation: 'holding.list', probe: (r) => r.path.includes("fill_path(target.paths.holdings, 'entity_code', forbidden)") },
  { operation: 'holding.get', probe: (r) => r.path.startsWith('/holding/${forbidden}/') },
  { operation: 'holding.extensions', probe: (r) => r.path.includes("fill_path(target.paths.holding_extensions, 'entity_code', forbidden") },
  { operation: 'subscription.list', probe: (r) => r.path === '/subscription' && (r.query as Record<string, unknown> | undefined)?.entity_code === '${forbidden}' },
  { operation: 'event.list (entity_code filter)', probe: (r) => r.path === '/event' && (r.query as Record<string, unknown> | undefined)?.entity_code === '${forbidden}' },
  { operation: 'subscribe', probe: (r) => r.method === 'POST' && r.path === '/subscribe', write: true },
];

function requests(steps: LocatedStep[]): RequestSpec[] {
  return steps.flatMap((located) => {
    const step = located.step as { request?: RequestSpec; parallel?: { request?: RequestSpec; branches?: RequestSpec[] } };
    return [step.request, step.parallel?.request, ...(step.parallel?.branches ?? [])].filter((r): r is RequestSpec => r !== undefined);
  });
}

describe('forbidden-entity coverage', () => {
  const suite = loadScenarioSuite(join(REPO_ROOT, 'specs'));
  const probing: Scenario[] = suite.scenarios.filter((s) => s.covers.includes('AUTH-ENTITY-403'));

  it('every entity-scoped operation is sent with target.entities.forbidden by a scenario covering AUTH-ENTITY-403', () => {
    assert.ok(probing.length > 0);
    for (const op of ENTITY_SCOPED) {
      const by = probing.filter((s) => s.vars.forbidden === '${target.entities.forbidden}' && requests(s.steps).some(op.probe));
      assert.ok(by.length > 0, `no AUTH-ENTITY-403 scenario probes ${op.operation} with the forbidden entity`);
      // a write is only sent by scenarios the production guard can skip
      if (op.write) assert.ok(by.every((s) => s.needs.includes('mutation')), `${op.operation}: ${by.map((s) => s.id).join(', ')} must declare needs: [mutation]`);
    }
  });
});
