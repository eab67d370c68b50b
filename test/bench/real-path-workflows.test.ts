/**
 * The generated workflows of bench/real-path.ts (issue 15, item 1) are what docs/performance.md says they are,
 * without running any tool: our scenario loads and holds one checked GET per request; the Step CI workflow
 * sends the token then `gets` GETs; the Newman environment carries the count; the files are private and none
 * holds the client secret (it reaches the peers through bench/lib/peer-run.mjs). And the
 * portable Holding schema the peers check (bench/lib/peer-schema.ts), compiled the way Step CI compiles it
 * (Ajv 8, draft-07, ajv-formats, strictSchema off), accepts and rejects the same holdings as our registry.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { parse } from 'yaml';
import { peerSchema } from '../../bench/lib/peer-schema.js';
import { privateDir, writeProfile, writeWorkflow } from '../../bench/lib/workflows.js';
import { newmanDuration } from '../../bench/real-path.js';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { schemaRegistry } from '../../src/harness/schemas/registry.js';
import { loadTargetProfile } from '../../src/harness/target/load.js';
import { buildReferenceApp } from '../../src/reference/app.js';

// ajv-formats is CommonJS with `exports.default` (as in src/harness/schemas/ajv.ts).
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin;
const dir = privateDir();
after(() => rmSync(dir, { recursive: true, force: true }));

const target = { baseUrl: 'http://127.0.0.1:9/api/v1', authUrl: 'http://127.0.0.1:9', clientId: 'cc-alice', clientSecret: 'bench-secret-value', holdingPath: '/holding/ENT-ALPHA/H-1' };

describe('real-path workflows', () => {
  it('our scenario: one request + status expectation per GET, loads without problems; the profile resolves with the secret from the environment only', () => {
    const files = writeWorkflow(dir, 'w3', 3, target);
    const suite = loadScenarioSuite(files.specsDir);
    assert.deepEqual(suite.problems, []);
    const [scenario] = suite.scenarios;
    assert.equal(scenario?.id, 'bench.holding-gets');
    assert.equal(scenario?.vars.holding_path, target.holdingPath);
    assert.equal(scenario?.steps.length, 6);
    const profile = writeProfile(dir, target, 'FTF_PRIMARY_CLIENT_SECRET');
    assert.equal(readFileSync(profile, 'utf8').includes(target.clientSecret), false, 'the profile names the variable, not the secret');
    const resolved = loadTargetProfile(profile, { env: { FTF_PRIMARY_CLIENT_SECRET: target.clientSecret } });
    assert.equal(resolved.baseUrl, target.baseUrl);
    assert.equal(resolved.credentials.primary?.secret, target.clientSecret);
  });

  it('Step CI: the token step then one GET step per request; Newman: the count in its environment; the files private and without the secret', () => {
    const files = writeWorkflow(dir, 'w5', 5, target);
    const stepci = parse(readFileSync(files.stepci, 'utf8')) as { tests: Record<string, { steps: Array<{ name: string }> }> };
    const steps = Object.values(stepci.tests).flatMap((t) => t.steps.map((s) => s.name));
    assert.deepEqual(steps, ['token', ...Array<string>(5).fill('get holding')]);
    const env = JSON.parse(readFileSync(files.newmanEnv, 'utf8')) as { values: Array<{ key: string; value: string }> };
    assert.equal(env.values.find((v) => v.key === 'gets')?.value, '5');
    for (const f of [files.stepci, files.newmanEnv, join(files.specsDir, 'bench', 'holding-gets.yaml')]) {
      assert.equal(statSync(f).mode & 0o077, 0, `${f} is readable by its owner only`);
      assert.equal(readFileSync(f, 'utf8').includes(target.clientSecret), false, `${f} does not hold the client secret`);
    }
    assert.equal(statSync(dir).mode & 0o077, 0, 'the folder is private');
  });

  it('Newman\'s total run duration is read in milliseconds whatever unit it prints', () => {
    const line = (d: string): string => `│ total run duration: ${d}                           │`;
    assert.equal(newmanDuration(line('990ms')), 990);
    assert.equal(newmanDuration(line('12.3s')), 12_300);
    assert.equal(newmanDuration(line('1m 2.5s')), 62_500);
    assert.equal(newmanDuration('no summary'), undefined);
  });

  it('the peers\' Holding schema is self-contained and judges holdings as our registry does', async () => {
    const schema = peerSchema('holding');
    const text = JSON.stringify(schema);
    assert.equal(/"\$ref"|"\$schema"|"\$id"|"x-[a-z-]+"/.test(text), false, text);
    const ajv = new Ajv({ strictSchema: false });
    addFormats(ajv);
    const peer = ajv.compile(schema as object);
    const ours = schemaRegistry();

    const { app, ctx } = await buildReferenceApp({ seed: 1 });
    const key = ctx.secrets.apiKeys['alice@ftf.test'] ?? '';
    const res = await app.inject({ method: 'GET', url: '/api/v1/holding/ENT-ALPHA', headers: { authorization: `Bearer ${key}` } });
    await app.close();
    const holdings = JSON.parse(res.body) as Array<Record<string, unknown>>;
    assert.ok(holdings.length > 0, 'the reference lists holdings of ENT-ALPHA');
    const broken = (h: Record<string, unknown>): Array<[string, Record<string, unknown>]> => [
      ['uid missing', Object.fromEntries(Object.entries(h).filter(([k]) => k !== 'uid'))],
      ['cost as a string', { ...h, cost: '100.5' }],
      ['issueDate not a calendar date', { ...h, issueDate: '2025-02-30' }],
      ['unknown status', { ...h, status: 'Bogus' }],
      ['currency of four letters', { ...h, currency: 'EURO' }],
    ];
    for (const h of holdings) {
      assert.equal(peer(h), true, `peer schema accepts ${String(h.uid)}: ${JSON.stringify(peer.errors)}`);
      assert.equal(ours.validate('holding', h).valid, true);
      for (const [what, bad] of broken(h)) {
        assert.equal(ours.validate('holding', bad).valid, false, `ours rejects ${what}`);
        assert.equal(peer(bad), false, `the peer schema rejects ${what}`);
      }
    }
  });
});
