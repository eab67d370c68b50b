/**
 * The property tests' fixture, an additive extension of ../fixtures.ts (same worker-scoped `target` with the
 * embedded reference per worker, same schema registry, same `wire` transport), wired by the same function as
 * `engine` (src/harness/engine/wiring.ts) with other sinks: a property makes hundreds of requests, and attaching
 * every exchange to the report would bury the one that matters. Here the recorder (same redaction) feeds a
 * per-run log, and only the shrunk counterexample's exchanges are attached when a property fails.
 * `model` (the stateful model property, which writes) also goes through the production write guard, and
 * announces the secrets it learns (issued tokens) to the reporters as digests, like `engine`.
 */
import { wireEngine } from '../../src/harness/engine/wiring.js';
import { announceSecrets } from '../../src/harness/report/redaction/secret-digests.js';
import { cliAllowsMutations } from '../../src/harness/target/guard.js';
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
    const log = new RunLog();
    const { transport, auth, redact } = wireEngine({ target, schemas, wire, sinks: [log] });
    const api = new EventsApi({ target, schemas, transport, auth, redact });
    await use({ api, log });
  },
  model: async ({ target, schemas, wire }, use) => {
    const log = new RunLog();
    const { transport, auth, redact } = wireEngine({
      target, schemas, wire, sinks: [log],
      writeGuard: { allowMutations: cliAllowsMutations() },
      onSpellings: (spellings) => announceSecrets(spellings),
    });
    await use({ api: new ModelApi({ target, schemas, transport, auth, redact }), events: new EventsApi({ target, schemas, transport, auth, redact }), log });
  },
});

export { expect } from '@playwright/test';
