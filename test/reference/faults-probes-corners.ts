/**
 * Probes of the faults found by the boundary generation and the model's new commands (issue 26): a boundary a
 * tenth of a cent away, a replay after the state moved on, an operation repeated after a delete, a filter combined
 * with a permission, a holding read under another entity, a webhook shared between users (see faults-harness.ts).
 */
import { newKey, type Probe } from './faults-harness.js';

export const CORNER_PROBES: Probe[] = [
  {
    fault: 'minimum-sub-cent-tolerance',
    checks: 'minimum x 1,000,000 - 0.001 is accepted (- 0.01 still refused)',
    deviates: async (h) => (await h.subscribe({ amount: 999_999.999 })).status === 200 && (await h.subscribe({ amount: 999_999.99 })).status === 400,
  },
  {
    fault: 'maximum-sub-cent-tolerance',
    checks: 'the enforced maximum x 1,000,000 + 0.001 is accepted (+ 0.01 still refused)',
    deviates: async (h) => (await h.subscribe({ amount: 50_000_000.001 })).status === 200 && (await h.subscribe({ amount: 50_000_000.01 })).status === 400,
  },
  {
    fault: 'amount-sign-dropped',
    checks: '-(minimum x 1,000,000) is accepted as a subscription (clean: refused)',
    deviates: async (h) => (await h.subscribe({ amount: -1_000_000 })).status === 200,
  },
  {
    fault: 'idempotency-replay-current-state',
    checks: 'after issuance, the retry of a subscribe answers the issued subscription (holdingUid set), not the cached Pending one',
    deviates: async (h) => {
      const key = newKey();
      const first = await h.subscribe({}, key);
      await h.sandbox('/clock/advance', { hours: 8 });
      const again = await h.subscribe({}, key);
      return first.body.holdingUid === null && again.body.holdingUid !== null;
    },
  },
  {
    fault: 'checkpoint-patch-after-delete',
    checks: 'after DELETE, a PATCH with the last version answers 200',
    deviates: async (h) => {
      const cp = (await h.api('PUT', '/event/checkpoint/gone')).body;
      await h.api('DELETE', '/event/checkpoint/gone');
      const patch = await h.api('PATCH', '/event/checkpoint/gone', { json: { expectedCheckpointVersion: cp.checkpointVersion, newCursor: cp.cursor } });
      return patch.status === 200;
    },
  },
  {
    fault: 'checkpoint-recreate-restores',
    checks: 'PUT after DELETE answers the deleted checkpoint (same uid), not a new one',
    deviates: async (h) => {
      const cp = (await h.api('PUT', '/event/checkpoint/again')).body;
      await h.api('DELETE', '/event/checkpoint/again');
      return (await h.api('PUT', '/event/checkpoint/again')).body.uid === cp.uid;
    },
  },
  {
    fault: 'event-filter-skips-allow-list',
    checks: 'GET /event?entity_code=ENT-GAMMA&event_type=… serves ENT-GAMMA events (entity_code alone is still 403)',
    deviates: async (h) => {
      const alone = await h.events('?entity_code=ENT-GAMMA');
      const types = ['SUBSCRIBED', 'ISSUED', 'CASH_MOVED', 'ADJUSTED', 'EXTENDED', 'FINALIZED', 'SPLIT', 'REDEEMED', 'CANCELLED', 'CURRENCY_CONVERTED'];
      for (const t of types) {
        const r = await h.events(`?entity_code=ENT-GAMMA&event_type=${t}`);
        if (alone.status === 403 && r.status === 200 && (r.body.events as Array<{ entityCode: string }>).some((e) => e.entityCode === 'ENT-GAMMA')) return true;
      }
      return false;
    },
  },
  {
    fault: 'event-filter-readonly-skips-allow-list',
    checks: "GET /event?entity_code=ENT-GAMMA by the read-only client serves ENT-GAMMA events (alice's is still 403)",
    deviates: async (h) => {
      const full = await h.events('?entity_code=ENT-GAMMA');
      const r = await h.api('GET', '/event?entity_code=ENT-GAMMA', { as: 'cc-carol-readonly' });
      return full.status === 403 && r.status === 200 && (r.body.events as Array<{ entityCode: string }>).some((e) => e.entityCode === 'ENT-GAMMA');
    },
  },
  {
    fault: 'holding-read-ignores-entity',
    checks: 'a holding of ENT-ALPHA is served under ENT-BETA',
    deviates: async (h) => {
      const list = (await h.api('GET', '/holding/ENT-ALPHA')).body as Array<{ uid: string }>;
      const uid = list[0]?.uid;
      return uid !== undefined && (await h.api('GET', `/holding/ENT-BETA/${uid}`)).status === 200;
    },
  },
  {
    fault: 'webhook-reregister-keeps-old',
    checks: 'register A, DELETE, register B: the next DELETE answers A',
    deviates: async (h) => {
      await h.api('POST', '/webhook', { json: { url: 'https://hooks.ftf.test/a' } });
      await h.api('DELETE', '/webhook');
      await h.api('POST', '/webhook', { json: { url: 'https://hooks.ftf.test/b' } });
      return (await h.api('DELETE', '/webhook')).body?.url === 'https://hooks.ftf.test/a';
    },
  },
  {
    fault: 'webhook-not-user-scoped',
    checks: "alice's DELETE /webhook answers the URL bob registered",
    deviates: async (h) => {
      await h.api('POST', '/webhook', { json: { url: 'https://hooks.ftf.test/bob' }, as: 'cc-bob' });
      return (await h.api('DELETE', '/webhook')).body?.url === 'https://hooks.ftf.test/bob';
    },
  },
];
