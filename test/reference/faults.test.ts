/**
 * Faults (issue 5): the registry is well-formed (clause ids exist, every family is represented), and for
 * EVERY fault a direct probe shows that the faulted server deviates in the way the fault names while the
 * clean server does not. Each probe runs on two fresh in-process servers (app.inject, no port).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseCli } from '../../src/reference/cli-args.js';
import { buildReferenceApp } from '../../src/reference/app.js';
import { FAULTS, FAULT_FAMILIES, createFaults, knownFaultNames } from '../../src/reference/faults.js';
import { FtfError } from '../../src/shared/errors.js';
import { loadClauseCatalogue, specDir } from '../../src/harness/spec/clauses.js';
import { H, type Probe } from './faults-harness.js';
import { AUTH_PROBES } from './faults-probes-auth.js';
import { EVENT_PROBES } from './faults-probes-events.js';
import { SUBSCRIBE_PROBES } from './faults-probes-subscribe.js';
import { CORNER_PROBES } from './faults-probes-corners.js';

const PROBES: Probe[] = [...AUTH_PROBES, ...EVENT_PROBES, ...SUBSCRIBE_PROBES, ...CORNER_PROBES];
// The harness's clause catalogue (FTF_SPEC_DIR, else ../shared/spec next to the repository).
const CLAUSES_FILE = join(specDir(), 'clauses.yaml');

describe('fault registry', () => {
  it('has at least 40 faults, unique names, every family represented', () => {
    assert.ok(FAULTS.length >= 40, `only ${FAULTS.length} faults`);
    assert.equal(new Set(FAULTS.map((f) => f.name)).size, FAULTS.length);
    for (const family of FAULT_FAMILIES) assert.ok(FAULTS.some((f) => f.family === family), `no fault in family ${family}`);
    for (const f of FAULTS) {
      assert.match(f.name, /^[a-z0-9]+(-[a-z0-9]+)*$/, f.name);
      assert.ok(f.description.length > 10 && f.clauses.length > 0, f.name);
    }
  });

  it('names only clause ids that exist in clauses.yaml', { skip: !existsSync(CLAUSES_FILE) && `${CLAUSES_FILE} not available` }, () => {
    const ids = new Set(loadClauseCatalogue().byId.keys());
    for (const f of FAULTS) for (const c of f.clauses) assert.ok(ids.has(c), `${f.name}: unknown clause ${c}`);
  });

  it('has exactly one probe per fault', () => {
    assert.deepEqual(PROBES.map((p) => p.fault).sort(), knownFaultNames());
  });

  it('refuses unknown names with the list of known ones (API and CLI); accepts known ones', async () => {
    assert.throws(() => createFaults('no-such-fault'), (e: unknown) =>
      e instanceof FtfError && e.code === 'FTF_E_UNKNOWN_FAULT' && /paging-gap/.test(e.hint ?? ''));
    await assert.rejects(buildReferenceApp({ fault: 'no-such-fault' }), /unknown fault "no-such-fault"/);
    assert.throws(() => parseCli(['--fault', 'nope']), /known faults: .*paging-gap/);
    assert.equal(parseCli(['--fault', 'paging-gap']).options.fault, 'paging-gap');
    const f = createFaults('paging-gap');
    assert.equal(f.active, 'paging-gap');
    assert.ok(f.on('paging-gap') && !f.on('paging-overlap'));
    assert.ok(!createFaults(null).on('paging-gap'));
  });
});

async function observe(probe: Probe, fault: string | undefined): Promise<boolean> {
  const h = await H.start({ ...(probe.options ?? {}), ...(fault === undefined ? {} : { fault }) });
  try {
    return await probe.deviates(h);
  } finally {
    await h.close();
  }
}

describe('every fault changes the behaviour it names; the clean server does not', () => {
  for (const probe of PROBES) {
    it(`${probe.fault}: ${probe.checks}`, async () => {
      assert.equal(await observe(probe, undefined), false, 'the clean server already shows this deviation (probe is wrong)');
      assert.equal(await observe(probe, probe.fault), true, `with --fault ${probe.fault} the server does not deviate`);
    });
  }
});
