/**
 * Variants (issue 12): the registry is well-formed and documented; for EVERY variant a probe sees today's
 * behaviour on the default server and the alternate on a server with the variant; the persona all-alternate
 * shows every alternate at once; unknown or conflicting names are refused (API and CLI); a fault still
 * deviates on a server shaped by variants. Servers are in-process (app.inject, no port).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { buildReferenceApp } from '../../src/reference/app.js';
import { parseCli, UsageError } from '../../src/reference/cli-args.js';
import type { ReferenceOptions } from '../../src/reference/context.js';
import { apiPaths, createVariants, knownVariantNames, NO_VARIANTS, PERSONAS, profileFor, VARIANTS } from '../../src/reference/variants.js';
import { FtfError } from '../../src/shared/errors.js';
import { H } from './faults-harness.js';
import { VARIANT_PROBES, type Seen, type VariantProbe } from './variants-probes.js';

const PERSONA = PERSONAS.find((p) => p.name === 'all-alternate')!;
const DOCS = readFileSync(new URL('../../docs/variants.md', import.meta.url), 'utf8');

async function observe(probe: VariantProbe, options: ReferenceOptions): Promise<Seen> {
  const h = await H.start({ ...(probe.options ?? {}), ...options });
  try {
    return await probe.observe(h);
  } finally {
    await h.close();
  }
}

describe('variant registry', () => {
  it('has unique kebab-case names, a quoted spec basis, both behaviours, and profile settings as data', () => {
    assert.ok(VARIANTS.length >= 30, `only ${VARIANTS.length} variants`);
    assert.equal(new Set(VARIANTS.map((v) => v.name)).size, VARIANTS.length);
    for (const v of VARIANTS) {
      assert.match(v.name, /^[a-z0-9]+(-[a-z0-9]+)*$/, v.name);
      assert.match(v.point, /^[a-z0-9]+(-[a-z0-9]+)*$/, v.name);
      assert.ok(v.spec.length > 20 && v.default.length > 5 && v.alternate.length > 5, v.name);
      assert.notEqual(v.default, v.alternate, v.name);
      for (const key of Object.keys(v.profile)) assert.match(key, /^[a-z_]+(\.[a-z_]+)+$/, `${v.name}: profile key ${key}`);
    }
  });

  it('profile keys nest: no key is also the parent of another (a.b and a.b.c)', () => {
    const keys = new Set(VARIANTS.flatMap((v) => Object.keys(profileFor(createVariants([v.name])))));
    for (const k of keys) for (const other of keys) assert.ok(!other.startsWith(`${k}.`), `${k} and ${other}`);
  });

  it('has exactly one probe per variant', () => {
    assert.deepEqual(VARIANT_PROBES.map((p) => p.variant).sort(), VARIANTS.map((v) => v.name).sort());
  });

  it('is documented: docs/variants.md has a row for every variant and persona', () => {
    for (const name of knownVariantNames()) assert.ok(DOCS.includes(`| \`${name}\` |`), `docs/variants.md lacks ${name}`);
  });

  it('persona all-alternate takes one variant of every point', () => {
    const points = new Set(VARIANTS.map((v) => v.point));
    assert.equal(PERSONA.variants.length, points.size);
    assert.deepEqual(new Set(PERSONA.variants.map((n) => VARIANTS.find((v) => v.name === n)!.point)), points);
  });
});

describe('variant switchboard', () => {
  it('refuses unknown names with the list of known ones (API and CLI)', async () => {
    assert.throws(() => createVariants(['no-such-variant']), (e: unknown) =>
      e instanceof FtfError && e.code === 'FTF_E_UNKNOWN_VARIANT' && /lists-wrapped/.test(e.hint ?? '') && /all-alternate/.test(e.hint ?? ''));
    await assert.rejects(buildReferenceApp({ variants: ['no-such-variant'] }), /unknown variant "no-such-variant"/);
    assert.throws(() => parseCli(['--variant', 'nope']), (e: unknown) => e instanceof UsageError && /known variants: .*lists-wrapped/.test(e.message));
    assert.throws(() => parseCli(['--persona', 'nope']), (e: unknown) => e instanceof UsageError && /known personas: all-alternate/.test(e.message));
  });

  it('refuses two variants of one point', () => {
    assert.throws(() => createVariants(['webhook-post-201', 'webhook-post-202']), (e: unknown) => e instanceof FtfError && e.code === 'FTF_E_VARIANT_CONFLICT');
    assert.throws(() => parseCli(['--persona', 'all-alternate', '--variant', 'indication-wrapped']), /two answers to one point/);
  });

  it('parses several --variant flags and a persona', () => {
    assert.deepEqual(parseCli(['--variant', 'lists-wrapped', '--variant', 'opaque-ids']).options.variants, ['lists-wrapped', 'opaque-ids']);
    assert.deepEqual(parseCli(['--persona', 'all-alternate', '--fault', 'paging-gap']).options.variants, ['all-alternate']);
    assert.equal(parseCli([]).options.variants, undefined);
  });

  it('with no variant: nothing is on, paths and profile are the defaults', () => {
    const none = createVariants([]);
    assert.equal(none, NO_VARIANTS);
    assert.deepEqual(profileFor(none), {});
    assert.equal(apiPaths(none).holdings, '/holding/{entity_code}');
  });

  it('profileFor composes the settings of several variants, paths from the one path table', () => {
    const p = profileFor(createVariants(['all-alternate']));
    assert.equal(p['paths.holdings'], '/holdings?entity_code={entity_code}');
    assert.equal(p['paths.entity_users'], '/users?entity_code={code}');
    assert.equal(p['paths.holidays'], '/holidays/{year}');
    assert.equal(p['paths.health'], '/status');
    assert.equal(p['records.indication'], '/0');
    assert.equal(p['fields.subscription_uid'], '/subscription/uid');
    assert.equal(p['fields.cells_list'], '/items');
    assert.equal(p['fields.checkpoints_list'], '/items');
    assert.equal(p['fields.event_limit_param'], 'page_size');
  });
});

describe('every variant serves its alternate; the default server shows today\'s behaviour', () => {
  for (const probe of VARIANT_PROBES) {
    it(`${probe.variant}: ${probe.checks}`, async () => {
      assert.equal(await observe(probe, {}), 'default', 'the default server does not show today\'s behaviour');
      assert.equal(await observe(probe, { variants: [probe.variant] }), 'alternate', `with --variant ${probe.variant} the alternate is not served`);
    });
  }
});

describe('persona all-alternate flips every point at once', () => {
  it('every variant of the persona is served together on one server', async () => {
    const h = await H.start({ variants: ['all-alternate'], events: 600 });
    try {
      assert.deepEqual([...h.ref.ctx.variants.active].sort(), [...PERSONA.variants].sort());
      for (const name of PERSONA.variants) {
        const probe = VARIANT_PROBES.find((p) => p.variant === name)!;
        assert.equal(await probe.observe(h), 'alternate', `${name} under the persona`);
      }
    } finally {
      await h.close();
    }
  });
});

describe('variants combine with a fault', () => {
  it('a fault deviates on a server shaped by variants', async () => {
    const h = await H.start({ variants: ['plural-paths', 'entity-in-query', 'checkpoint-conflict-bare'], fault: 'entity-403-as-404' });
    try {
      const forbidden = await h.api('GET', '/holdings?entity_code=ENT-GAMMA');
      assert.equal(forbidden.status, 404, 'the fault answers 404 for a forbidden entity at the variant path');
      assert.equal((await h.api('GET', '/holdings?entity_code=ENT-ALPHA')).status, 200);
    } finally {
      await h.close();
    }
    const h2 = await H.start({ variants: ['checkpoint-conflict-bare', 'lists-wrapped'], fault: 'checkpoint-409-without-state' });
    try {
      const a = await h2.api('PUT', '/event/checkpoint/combo');
      const r = await h2.api('PATCH', '/event/checkpoint/combo', { json: { expectedCheckpointVersion: 'ec1.stale', newCursor: a.body.cursor } });
      assert.equal(r.status, 409);
      assert.deepEqual(Object.keys(r.body), ['detail'], 'the fault strips the state the variant would put at the root');
      assert.ok(Array.isArray((await h2.api('GET', '/event/checkpoint')).body.items), 'the variant still shapes the list');
    } finally {
      await h2.close();
    }
  });
});
