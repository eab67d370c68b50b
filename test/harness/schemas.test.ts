/**
 * Every response schema: its spec-following sample validates, and the violations the spec rules out
 * (missing required field, decimal as number, number as string, wrong enum case, date with a time,
 * cursor/version without prefix, 422 detail as string, unknown eventType, finalized false) fail at the
 * right place with a readable message. Extra properties are accepted where the spec leaves objects open.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { schemaRegistry } from '../../src/harness/schemas/registry.js';
import { SAMPLES_DIR, assertFailsAt, assertValid, clone, sample, schemaFile, schemaNames } from './schemas-helpers.js';

const registry = schemaRegistry();
/** common.schema.json only holds $defs; it is exercised through the schemas that reference it. */
const responseSchemas = schemaNames().filter((n) => n !== 'common');

describe('every schema has a valid sample', () => {
  for (const name of responseSchemas) {
    it(`${name} accepts its sample`, () => {
      assert.ok(existsSync(`${SAMPLES_DIR}${name}.valid.json`), `missing test/fixtures/schema-samples/${name}.valid.json`);
      assertValid(registry, name, sample(name));
    });
  }
});

describe('every required property is required', () => {
  for (const name of responseSchemas) {
    const required = (schemaFile(name).required as string[] | undefined) ?? [];
    if (required.length === 0) continue;
    it(`${name} rejects each required property missing`, () => {
      for (const prop of required) {
        const value = clone(sample(name));
        delete value[prop];
        assertFailsAt(registry, name, value, '', 'required', `'${prop}'`);
      }
    });
  }
  it('list schemas reject a non-array and an invalid item', () => {
    for (const name of responseSchemas.filter((n) => n.endsWith('-list'))) {
      assertFailsAt(registry, name, {}, '', 'type');
      assertFailsAt(registry, name, [{}], '/0', 'required');
    }
  });
});

describe('decimals, numbers and currencies', () => {
  it('an event decimal given as a JSON number fails with a readable message', () => {
    const v = { ...sample('event-adjusted'), cost: 12.5 };
    assertFailsAt(registry, 'event-adjusted', v, '/cost', 'type', 'must be a decimal string (got number 12.5)');
  });
  it('malformed decimal strings fail; signed and fractional ones pass', () => {
    for (const amount of ['1e5', '1.2.3', '01.5', '.5', '5.', '+5', '', ' 5', '1,000', 'NaN', 'Infinity']) {
      assertFailsAt(registry, 'event-cash-moved', { ...sample('event-cash-moved'), amount }, '/amount', undefined, 'decimal string');
    }
    for (const amount of ['0', '-0.5', '123.450', '-2500', '99999999999999999999999.123456789']) {
      assertValid(registry, 'event-cash-moved', { ...sample('event-cash-moved'), amount });
    }
  });
  it('a holding number given as a string fails', () => {
    assertFailsAt(registry, 'holding', { ...sample('holding'), cost: '1000000' }, '/cost', 'type', 'must be number (got string "1000000")');
    assertFailsAt(registry, 'extension', { ...sample('extension'), yield: '0.04' }, '/yield', 'type');
    assertFailsAt(registry, 'holding', { ...sample('holding'), finalYield: '0.1' }, '/finalYield', 'type');
  });
  it('currencies are three-letter strings of any case', () => {
    assertValid(registry, 'event-cancelled', { ...sample('event-cancelled'), currency: 'usd' });
    for (const currency of ['US', 'USDX', 'U1D', 840]) {
      assertFailsAt(registry, 'event-cancelled', { ...sample('event-cancelled'), currency }, '/currency');
    }
    assertValid(registry, 'holding', { ...sample('holding'), currency: null });
  });
  it('indication minimum/maximum accept a number or a decimal string, nothing else', () => {
    assertValid(registry, 'indication', { ...sample('indication'), minimum: '0.5', maximum: 25 });
    assertFailsAt(registry, 'indication', { ...sample('indication'), minimum: 'half' }, '/minimum');
    assertFailsAt(registry, 'indication', { ...sample('indication'), maximum: null }, '/maximum', 'type');
  });
});

describe('enums, constants and prefixes', () => {
  it('enum values are case-sensitive', () => {
    assertFailsAt(registry, 'holding', { ...sample('holding'), status: 'issued' }, '/status', 'enum', 'HoldingStatusEnum');
    assertFailsAt(registry, 'holding', { ...sample('holding'), type: 'fixed' }, '/type', 'enum');
    assertFailsAt(registry, 'entity-user', { ...sample('entity-user'), status: 'active' }, '/status', 'enum');
    for (const status of ['Cash', 'Pending', 'PendingWithdrawal', 'Issued', 'Redeemed', 'Cancelled', 'CutOff', 'Processing']) {
      assertValid(registry, 'holding', { ...sample('holding'), status });
    }
  });
  it('entity status is a free string, not an enum', () => {
    assertValid(registry, 'entity', { ...sample('entity'), status: 'Suspended' });
  });
  it('an unknown eventType fails; each known kind is checked against its own fields', () => {
    assertFailsAt(registry, 'event', { ...sample('event-issued'), eventType: 'MERGED' }, '/eventType', 'enum');
    assertFailsAt(registry, 'event', { ...sample('event-adjusted'), eventType: 'adjusted' }, '/eventType', 'enum');
    const noCost = sample('event-adjusted');
    delete noCost.cost;
    assertFailsAt(registry, 'event', noCost, '', 'required', "'cost'");
    // a CASH_MOVED body labelled FINALIZED is judged as FINALIZED
    assertFailsAt(registry, 'event', { ...sample('event-cash-moved'), eventType: 'FINALIZED' }, '', 'required', "'finalized'");
  });
  it('finalized must be true', () => {
    assertFailsAt(registry, 'event-finalized', { ...sample('event-finalized'), finalized: false }, '/finalized', 'const', 'must be true');
    assertFailsAt(registry, 'event', { ...sample('event-finalized'), finalized: 'true' }, '/finalized', 'const');
    assertFailsAt(registry, 'delete-checkpoint-response', { ...sample('delete-checkpoint-response'), deleted: false }, '/deleted', 'const');
  });
  it('cursors need ev1. and checkpoint versions ec1.', () => {
    assertFailsAt(registry, 'event', { ...sample('event-issued'), cursor: 'abc' }, '/cursor', 'pattern', 'prefix ev1.');
    assertFailsAt(registry, 'checkpoint-data', { ...sample('checkpoint-data'), cursor: 'ev2.10' }, '/cursor', 'pattern');
    assertFailsAt(registry, 'checkpoint-data', { ...sample('checkpoint-data'), checkpointVersion: 'v3' }, '/checkpointVersion', 'pattern', 'prefix ec1.');
  });
  it('lastDigits is exactly four digits', () => {
    for (const lastDigits of ['123', '12345', '12a4', 1234]) {
      assertFailsAt(registry, 'entity-bank-account', { ...sample('entity-bank-account'), lastDigits }, '/lastDigits');
    }
  });
});

describe('dates and date-times', () => {
  it('a date with a time part, an impossible date or a short form fails', () => {
    for (const issueDate of ['2026-01-05T00:00:00Z', '2026-02-30', '2025-02-29', '2026-1-5', '20260105', '2026-13-01']) {
      assertFailsAt(registry, 'holding', { ...sample('holding'), issueDate }, '/issueDate', undefined, 'calendar date');
    }
    assertValid(registry, 'holding', { ...sample('holding'), issueDate: '2024-02-29' });
    assertFailsAt(registry, 'indication', { ...sample('indication'), subscriptionDates: ['2026-01-05', '2026-01-05 10:00'] }, '/subscriptionDates/1');
  });
  it('optional dates accept null; a malformed one fails', () => {
    const v = sample('event-extended');
    delete v.extensionOptionDate;
    assertValid(registry, 'event-extended', v);
    assertValid(registry, 'event-extended', { ...v, extensionOptionDate: null });
    assertFailsAt(registry, 'event-extended', { ...v, extensionOptionDate: '2026-09-31' }, '/extensionOptionDate');
  });
  it('Holding.cutoffDatetime must carry a timezone; CheckpointData.updatedAt is any ISO 8601 date-time', () => {
    assertFailsAt(registry, 'holding', { ...sample('holding'), cutoffDatetime: '2026-01-05T14:00:00' }, '/cutoffDatetime', undefined, 'timezone');
    assertValid(registry, 'holding', { ...sample('holding'), cutoffDatetime: '2026-01-05T19:00:00.000Z' });
    assertValid(registry, 'checkpoint-data', { ...sample('checkpoint-data'), updatedAt: '2026-01-05T10:15:30.123456' });
    assertFailsAt(registry, 'checkpoint-data', { ...sample('checkpoint-data'), updatedAt: 'yesterday' }, '/updatedAt');
    assertFailsAt(registry, 'checkpoint-data', { ...sample('checkpoint-data'), updatedAt: '2026-01-05' }, '/updatedAt');
  });
});

describe('error bodies', () => {
  it('422 detail must be an array of {loc, msg, type}', () => {
    assertFailsAt(registry, 'validation-error', { detail: 'amount is required' }, '/detail', 'type');
    assertFailsAt(registry, 'validation-error', { detail: [{ loc: 'amount', msg: 'x', type: 'y' }] }, '/detail/0/loc', 'type');
    assertFailsAt(registry, 'validation-error', { detail: [{ loc: [], msg: 'x' }] }, '/detail/0', 'required', "'type'");
  });
  it('other failures are {detail: string}', () => {
    assertFailsAt(registry, 'error', { detail: [{ loc: [], msg: 'x', type: 'y' }] }, '/detail', 'type');
    assertFailsAt(registry, 'error', { message: 'Not Found' }, '', 'required');
    assertFailsAt(registry, 'error', 'Not Found', '', 'type');
  });
});

describe('open objects and "not shown" shapes', () => {
  it('extra properties are accepted where the spec does not close an object', () => {
    assertValid(registry, 'holding', { ...sample('holding'), vendorExtra: { any: 1 } });
    assertValid(registry, 'event', { ...sample('event-cash-moved'), reference: 'X-1' });
    assertValid(registry, 'events-response', { ...sample('events-response'), meta: {} });
    assertValid(registry, 'error', { detail: 'Not Found', code: 'E404' });
    assertValid(registry, 'token-response', { ...sample('token-response'), scope: 'read', refresh_token: 'r' });
  });
  it('kinds whose fields are not shown assert only the common fields', () => {
    for (const kind of ['event-subscribed', 'event-issued', 'event-split', 'event-redeemed']) {
      assertValid(registry, kind, { ...sample(kind), amount: 5, whatever: null });
      assertFailsAt(registry, kind, { ...sample(kind), cursor: 7 }, '/cursor', 'type');
    }
  });
  it('token responses: positive integer expires_in, optional string refresh_token', () => {
    for (const expires_in of [0, -1, 1.5, '3600']) {
      assertFailsAt(registry, 'token-response', { ...sample('token-response'), expires_in }, '/expires_in');
    }
    assertFailsAt(registry, 'token-response', { ...sample('token-response'), access_token: '' }, '/access_token');
    assertFailsAt(registry, 'token-response', { ...sample('token-response'), refresh_token: 5 }, '/refresh_token', 'type');
  });
  it('checkpoint state: wrapped or bare CheckpointData', () => {
    assertValid(registry, 'checkpoint-state', sample('checkpoint-data'));
    assertValid(registry, 'checkpoint-state', sample('get-checkpoint-response'));
    assertFailsAt(registry, 'checkpoint-state', { checkpoint: { uid: 'x' } }, '/checkpoint', 'required', "'checkpointVersion'");
    assertFailsAt(registry, 'checkpoint-state', { detail: 'conflict' }, '', 'required', "'checkpointVersion'");
  });
  it('indication: a current uid (uid string or uids array) is required', () => {
    const v = sample('indication');
    delete v.uid;
    assertFailsAt(registry, 'indication', v, '', 'required', "'uid'");
    assertValid(registry, 'indication', { ...v, uids: ['a', 'b'] });
    assertFailsAt(registry, 'indication', { ...v, uids: 'a' }, '/uids', 'type');
  });
  it('subscription holdingUid is string or null; webhook url is optional string or null', () => {
    assertFailsAt(registry, 'subscription', { uid: 's', holdingUid: 5 }, '/holdingUid', 'type');
    assertValid(registry, 'delete-webhook-response', { email: 'a@ftf.test' });
    assertFailsAt(registry, 'delete-webhook-response', { email: 'a@ftf.test', url: 5 }, '/url', 'type');
  });
  it('unspecified accepts an empty body; json-object needs an object', () => {
    assertValid(registry, 'unspecified', undefined);
    assertValid(registry, 'json-object', {});
    assertFailsAt(registry, 'json-object', 'invalid_client', '', 'type');
    assertFailsAt(registry, 'json-object', [], '', 'type');
  });
});
