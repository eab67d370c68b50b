/**
 * The property tests' fixture, an additive extension of ../fixtures.ts (same worker-scoped `target` with the
 * embedded reference per worker, same schema registry, same `wire` transport). It builds its own recording transport instead of
 * using `engine`: a property makes hundreds of requests, and attaching every exchange to the report would
 * bury the one that matters. Here the recorder (same redaction) feeds a per-run log, and only the shrunk
 * counterexample's exchanges are attached when a property fails.
 * `model` (the stateful model property, which writes) also goes through the production write guard, and
 * announces the secrets it learns (issued tokens) to the reporters as digests, like `engine`.
 */
import { createAuthClient } from '../../src/harness/auth/client.js';
import { RecordingTransport } from '../../src/harness/http/recorder.js';
import { Redactor } from '../../src/harness/http/redactor.js';
import { announceSecrets } from '../../src/harness/report/redaction/secret-digests.js';
import { cliAllowsMutations, guardProductionWrites } from '../../src/harness/target/guard.js';
import { test as base } from '../fixtures.js';
import { EventsApi } from '../../src/harness/properties/events-api.js';
import { ModelApi } from '../../src/harness/properties/model/api.js';
import { RunLog } from '../../src/harness/properties/run-log.js';

export interface PagingFixture {
  api: EventsApi;
  log: RunLog;
}

export interface ModelFixture {
  api: ModelApi;
  events: EventsApi;
  log: RunLog;
}

export const test = base.extend<{ paging: PagingFixture; model: ModelFixture }>({
  paging: async ({ target, schemas, wire }, use) => {
    const redactor = new Redactor();
    const log = new RunLog();
    const transport = new RecordingTransport(wire, redactor, [log]);
    const auth = createAuthClient(target, transport, redactor);
    const api = new EventsApi({ target, schemas, transport, auth, redact: (t) => redactor.redactText(t) });
    await use({ api, log });
  },
  model: async ({ target, schemas, wire: raw }, use) => {
    const redactor = new Redactor();
    redactor.onSpellings((spellings) => announceSecrets(spellings));
    const log = new RunLog();
    const wire = guardProductionWrites(raw, target, cliAllowsMutations());
    const transport = new RecordingTransport(wire, redactor, [log]);
    const auth = createAuthClient(target, transport, redactor);
    const redact = (t: string): string => redactor.redactText(t);
    await use({ api: new ModelApi({ target, schemas, transport, auth, redact }), events: new EventsApi({ target, schemas, transport, auth, redact }), log });
  },
});

export { expect } from '@playwright/test';
