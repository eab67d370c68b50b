#!/usr/bin/env node
// The example client of the client test plan (docs/client-conformance.md): subscribe, poll to issuance, a
// forbidden entity, and event-sync runs. Reads the plan's FTF_* variables. Run it under the grading server:
//   npx ftf-conformance client run --plan full -- node examples/client/main.js
// Options: --choices alternate (other permitted choices), --fault NAME (break one duty: faults.js).
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { BACKOFF, FtfClient } from './ftf-client.js';
import { CHOICES, FAULTS } from './faults.js';

const { values: args } = parseArgs({ options: { fault: { type: 'string' }, choices: { type: 'string', default: 'default' } } });
if (args.fault !== undefined && !FAULTS[args.fault]) throw new Error(`unknown fault ${args.fault}; known: ${Object.keys(FAULTS).join(', ')}`);
const choices = CHOICES[args.choices];
if (!choices) throw new Error(`unknown choices ${args.choices}; known: ${Object.keys(CHOICES).join(', ')}`);
const faults = new Set(args.fault ? [args.fault] : []);

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run me under \`ftf-conformance client run\``);
  return v;
};
const cfg = {
  baseUrl: env('FTF_BASE_URL'), authUrl: env('FTF_AUTH_URL'), clientId: env('FTF_CLIENT_ID'), clientSecret: env('FTF_CLIENT_SECRET'),
  entity: env('FTF_ENTITY_CODE'), forbidden: env('FTF_FORBIDDEN_ENTITY_CODE'), indication: env('FTF_INDICATION_CODE'),
  amount: Number(env('FTF_AMOUNT')), checkpoint: env('FTF_CHECKPOINT_NAME'), syncRuns: Number(env('FTF_SYNC_RUNS')),
  timeScale: Number(env('FTF_TIME_SCALE')),
  code: {
    clientId: env('FTF_CODE_CLIENT_ID'), clientSecret: env('FTF_CODE_CLIENT_SECRET'), user: env('FTF_CODE_USER'),
    redirectUri: env('FTF_REDIRECT_URI'), refreshCycles: Number(env('FTF_REFRESH_CYCLES')),
  },
};
const log = (msg) => console.log(`[client] ${msg}`);
const api = new FtfClient(cfg, { backoff: BACKOFF[choices.backoff], faults, log });
/** Plan seconds to real milliseconds (FTF_TIME_SCALE). */
const planMs = (seconds) => seconds * cfg.timeScale * 1000;
const UID_GONE = /Indication not found|no longer available/i;

/** CL-INDICATION-CURRENT, CL-IDEM-*, CL-AMOUNT-UNITS, CL-SUBSCRIPTION-DATE, CL-ENTITY-CODE. */
async function subscribe() {
  let key;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const ind = await api.call('GET', `/indication/${cfg.indication}`);
    if (ind.status !== 200) throw new Error(`indication ${cfg.indication}: ${ind.status}`);
    const body = {
      indicationUid: ind.body.uid,
      entityCode: cfg.entity,
      amount: faults.has('amount-in-millions') ? cfg.amount / 1_000_000 : cfg.amount,
      subscriptionDate: ind.body.subscriptionDates[0],
    };
    // A new key for every changed request (the uid changed), the same key for every retry of this one.
    key = attempt > 1 && faults.has('same-key-changed-body') ? key : api.newKey();
    const first = key;
    const res = await api.call('POST', '/subscribe', {
      body,
      headers: (n) => ({ 'idempotency-key': n > 1 && faults.has('new-key-on-retry') ? api.newKey() : first }),
    });
    if (res.status === 200) return res.body.uid;
    if ((res.status === 400 || res.status === 404) && UID_GONE.test(String(res.body?.detail))) {
      log(`indication uid expired (${res.body.detail}); reading it again`);
      continue;
    }
    throw new Error(`subscribe answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
  throw new Error('subscribe: the indication kept expiring');
}

/** CL-POLL-INTERVAL, CL-POLL-STOP: poll every choices.pollSeconds plan seconds until Issued or Cancelled. */
async function pollUntilIssued(uid) {
  const every = planMs(faults.has('poll-every-second') ? 1 : choices.pollSeconds);
  let extra = faults.has('poll-after-issued') ? 2 : 0;
  for (let polls = 0; polls < 200; polls++) {
    await sleep(every);
    const res = await api.call('GET', '/subscription', { query: { entity_code: cfg.entity } });
    const list = Array.isArray(res.body) ? res.body : Object.values(res.body ?? {}).find(Array.isArray) ?? [];
    const sub = list.find((s) => s.uid === uid);
    if (!sub || sub.status === 'Pending') continue;
    if (sub.holdingUid) {
      const holding = await api.call('GET', `/holding/${cfg.entity}/${sub.holdingUid}`);
      log(`subscription ${uid}: holding ${holding.body?.status}`);
    }
    if (extra-- > 0) continue;
    return sub.status;
  }
  throw new Error(`subscription ${uid} never left Pending`);
}

/** CL-NO-RETRY-403: a 403 is final. */
async function forbiddenEntity() {
  const res = await api.call('GET', '/subscription', { query: { entity_code: cfg.forbidden } });
  log(`entity ${cfg.forbidden}: ${res.status}${res.status === 403 ? ' (not ours: not retried)' : ''}`);
}

/** Where a run starts: the checkpoint (GET, created once) or a cursor this process keeps. */
const cursorStore = { cursor: undefined };

async function readCheckpoint() {
  const path = `/event/checkpoint/${cfg.checkpoint}`;
  let res = await api.call('GET', path);
  if (res.status === 404) {
    await api.call('PUT', path);
    res = await api.call('GET', path);
  }
  return res.body.checkpoint;
}

/** CL-EVENT-PAGING, CL-EVENT-RESUME, CL-CHECKPOINT-CYCLE, CL-CHECKPOINT-CONFLICT. */
async function syncRun(run) {
  const cp = choices.checkpoint ? await readCheckpoint() : undefined;
  let start = cp ? cp.cursor : cursorStore.cursor;
  if (faults.has('restart-stream') && run > 1) start = undefined;
  let last = start;
  let events = 0;
  for (let pages = 0; pages < 1000; pages++) {
    const res = await api.call('GET', '/event', { query: { start_cursor: start } });
    if (res.status !== 200) throw new Error(`events: ${res.status}`);
    events += res.body.events.length;
    last = res.body.pageInfo.pageEndCursor ?? last;
    if (!res.body.pageInfo.hasNextPage) break;
    start = res.body.pageInfo.pageEndCursor;
  }
  log(`sync run ${run}: ${events} events`);
  if (!cp) {
    cursorStore.cursor = last;
    return;
  }
  if (last === cp.cursor) return;
  let version = cp.checkpointVersion;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const res = await api.call('PATCH', `/event/checkpoint/${cfg.checkpoint}`, { body: { expectedCheckpointVersion: version, newCursor: last } });
    if (res.status !== 409) return;
    // Someone moved the checkpoint: take its current state before any further PATCH.
    if (!faults.has('stale-patch-after-409')) version = (res.body?.checkpoint ?? (await readCheckpoint())).checkpointVersion;
    log(`checkpoint moved under us (409); version now ${version}`);
  }
}

/** Code Authorisation, then refresh cycles (CL-CODE-EXCHANGE, CL-REFRESH-ROTATED). */
async function codeFlow() {
  const user = new FtfClient({ ...cfg, clientId: cfg.code.clientId, clientSecret: cfg.code.clientSecret }, { backoff: BACKOFF[choices.backoff], faults, log });
  await user.authorizeWithCode(cfg.code.user, cfg.code.redirectUri);
  await user.call('GET', `/indication/${cfg.indication}`);
  for (let cycle = 1; cycle <= cfg.code.refreshCycles; cycle++) {
    await user.refresh();
    const res = await user.call('GET', `/indication/${cfg.indication}`);
    log(`code flow: refresh cycle ${cycle}, indication ${res.status}`);
  }
}

/** CL-BEARER: the API key only in the sandbox; production gets an OAuth token. */
async function production() {
  const sandboxKey = new FtfClient({ ...cfg, apiKey: env('FTF_API_KEY') }, { backoff: BACKOFF[choices.backoff], faults, log });
  log(`sandbox with the API key: ${(await sandboxKey.call('GET', `/indication/${cfg.indication}`)).status}`);
  const prodCfg = { ...cfg, baseUrl: env('FTF_PROD_BASE_URL'), authUrl: env('FTF_PROD_AUTH_URL'), clientSecret: env('FTF_PROD_CLIENT_SECRET') };
  if (faults.has('api-key-in-production')) prodCfg.apiKey = env('FTF_API_KEY');
  const prod = new FtfClient(prodCfg, { backoff: BACKOFF[choices.backoff], faults, log });
  log(`production with OAuth: ${(await prod.call('GET', `/indication/${cfg.indication}`)).status}`);
}

async function main() {
  const uid = await subscribe();
  log(`subscribed: ${uid}`);
  log(`subscription ${uid}: ${await pollUntilIssued(uid)}`);
  await forbiddenEntity();
  for (let run = 1; run <= cfg.syncRuns; run++) await syncRun(run);
  await codeFlow();
  await production();
}

main().catch((err) => {
  console.error(`[client] failed: ${err.message}`);
  process.exitCode = 1;
});
