/**
 * The bounded recording (src/harness/http/sinks.ts): ordinary tests are recorded in full; past the head bound
 * only the failing, sampled and last exchanges reach the report sinks, the rest is counted in a summary; the
 * HAR is streamed entry by entry and carries the summary. The batches group passing exchanges into one
 * attachment each; failing ones and a failing step's last ones stay on their own.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { boundedRecording, DEFAULT_RECORDING_BOUNDS, exchangeBatches, harSink, memorySink, type BatchBounds, type BatchWriter } from '../../src/harness/http/sinks.js';
import type { Exchange, RecordingBounds, RecordingSummary } from '../../src/harness/http/types.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-bounded-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function exchange(id: number, status = 200, body = `{"page":${id}}`): Exchange {
  return {
    id,
    label: 'GET /api/v1/event',
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, id)).toISOString(),
    durationMs: 1,
    request: { method: 'GET', url: `http://127.0.0.1:1/api/v1/event?page=${id}`, headers: {}, timeoutMs: 1000 },
    response: { status, headers: { 'content-type': 'application/json' }, bodyText: body, json: undefined, durationMs: 1 },
    curl: `curl http://127.0.0.1:1/api/v1/event?page=${id}`,
  };
}

const small: RecordingBounds = { headCount: 5, headChars: 1_000_000, sample: 3, tail: 2, failing: 2 };

describe('boundedRecording', () => {
  it('writes every exchange of a test within the head bound, and no summary', async () => {
    const mem = memorySink();
    const rec = boundedRecording([mem], small);
    for (let id = 1; id <= 5; id++) await rec.onExchange(exchange(id));
    assert.equal(await rec.finish(), undefined);
    assert.deepEqual(mem.exchanges.map((x) => x.id), [1, 2, 3, 4, 5]);
  });

  it('past the head: every failing exchange (up to the bound), a 1-2-4-8 sample, the last ones; the rest counted', async () => {
    const mem = memorySink();
    const summaries: RecordingSummary[] = [];
    const rec = boundedRecording([mem, { onExchange: () => undefined, onSummary: (s) => void summaries.push(s) }], small);
    for (let id = 1; id <= 100; id++) await rec.onExchange(exchange(id, [40, 50, 60].includes(id) ? 500 : 200));
    assert.deepEqual(mem.exchanges.map((x) => x.id), [1, 2, 3, 4, 5, 6, 7, 9, 40, 50], 'head, sample (past 1, 2, 4), failing (2 of 3); the tail is held');
    const summary = await rec.finish();
    assert.deepEqual(mem.exchanges.slice(-2).map((x) => x.id), [99, 100], 'the last exchanges are written at the end');
    assert.ok(summary);
    assert.deepEqual(summaries, [summary]);
    assert.equal(summary.exchanges, 100);
    assert.deepEqual(summary.kept, { head: 5, failing: 2, sample: 3, tail: 2 });
    assert.equal(summary.omitted, 100 - 12);
    assert.equal(summary.statuses['500'], 3);
    assert.equal(summary.statuses['200'], 97);
    assert.deepEqual(summary.omittedIds[0], [8, 8]);
    assert.deepEqual(summary.omittedIds.at(-1), [51, 98], 'the third failing one is past the failing bound: counted only');
    assert.equal(summary.omittedIds.reduce((n, [a, b]) => n + b - a + 1, 0), summary.omitted);
  });

  it('flushTail writes the held last exchanges at once (a step failed on the page it fetched last)', async () => {
    const mem = memorySink();
    const rec = boundedRecording([mem], small);
    for (let id = 1; id <= 30; id++) await rec.onExchange(exchange(id));
    assert.ok(!mem.exchanges.some((x) => x.id === 30));
    await rec.flushTail();
    assert.deepEqual(mem.exchanges.slice(-2).map((x) => x.id), [29, 30]);
    await rec.onExchange(exchange(31));
    const summary = await rec.finish();
    assert.deepEqual(mem.exchanges.slice(-1).map((x) => x.id), [31]);
    assert.equal(summary?.kept.tail, 3);
  });

  it('the head ends at its character bound: large pages are not all written', async () => {
    const mem = memorySink();
    const rec = boundedRecording([mem], { ...DEFAULT_RECORDING_BOUNDS, headChars: 250 });
    for (let id = 1; id <= 40; id++) await rec.onExchange(exchange(id, 200, 'x'.repeat(100)));
    const summary = await rec.finish();
    assert.equal(summary?.kept.head, 2);
    assert.ok(mem.exchanges.length <= 2 + DEFAULT_RECORDING_BOUNDS.sample + DEFAULT_RECORDING_BOUNDS.tail);
  });

  it('a failing sink does not keep the exchange from the other sinks', async () => {
    const mem = memorySink();
    const rec = boundedRecording([{ onExchange: () => { throw new Error('disk full'); } }, mem], small);
    await assert.rejects(Promise.resolve(rec.onExchange(exchange(1))), /disk full/);
    assert.deepEqual(mem.exchanges.map((x) => x.id), [1]);
  });
});

describe('harSink (streamed)', () => {
  it('appends entries as they come and closes the file with the summary at flush', async () => {
    const file = join(dir, 'h', 'walk.har');
    const har = harSink(file);
    const rec = boundedRecording([har], small);
    for (let id = 1; id <= 50; id++) await rec.onExchange(exchange(id));
    const partial = readFileSync(file, 'utf8');
    assert.ok(partial.includes('"page=7"') || partial.includes('page=7'), 'entries are on disk before the end');
    assert.throws(() => JSON.parse(partial), 'not closed yet');
    await rec.finish();
    await har.flush();
    await har.flush();
    const log = (JSON.parse(readFileSync(file, 'utf8')) as { log: { version: string; entries: Array<{ request: { url: string } }>; comment: string; _recordingSummary: RecordingSummary } }).log;
    assert.equal(log.version, '1.2');
    assert.deepEqual(log.entries.map((e) => Number(new URL(e.request.url).searchParams.get('page'))), [1, 2, 3, 4, 5, 6, 7, 9, 49, 50]);
    assert.equal(log._recordingSummary.omitted, 40);
    assert.match(log.comment, /50 exchanges, 10 written/);
  });

  it('writes a valid empty HAR when nothing was recorded', async () => {
    const file = join(dir, 'empty.har');
    await harSink(file).flush();
    assert.deepEqual((JSON.parse(readFileSync(file, 'utf8')) as { log: { entries: unknown[] } }).log.entries, []);
  });
});

describe('exchangeBatches', () => {
  const writes = (): { log: string[]; writer: BatchWriter } => {
    const log: string[] = [];
    return {
      log,
      writer: {
        one: (x) => Promise.resolve(void log.push(`${x.id}`)),
        many: (xs) => Promise.resolve(void log.push(xs.map((x) => x.id).join(','))),
      },
    };
  };
  const bounds: BatchBounds = { count: 3, chars: 1_000_000, tail: 2 };

  it('writes passing exchanges in batches of `count` (a full batch when the next arrives) and the rest at flush; a batch of one as one', async () => {
    const { log, writer } = writes();
    const b = exchangeBatches(writer, bounds);
    for (let id = 1; id <= 7; id++) await b.onExchange(exchange(id));
    assert.deepEqual(log, ['1,2,3', '4,5,6'], 'the 7th is pending');
    await b.flush();
    assert.deepEqual(log, ['1,2,3', '4,5,6', '7']);
    await b.flush();
    assert.equal(log.length, 3, 'nothing pending, nothing written');
  });

  it('closes a batch at the body-character bound', async () => {
    const { log, writer } = writes();
    const b = exchangeBatches(writer, { count: 100, chars: 20, tail: 2 });
    for (let id = 1; id <= 4; id++) await b.onExchange(exchange(id, 200, 'x'.repeat(10)));
    await b.flush();
    assert.deepEqual(log, ['1,2', '3,4']);
  });

  it('writes an exchange without a response or with a 5xx on its own at once, after what was pending; a 4xx is batched', async () => {
    const { log, writer } = writes();
    const b = exchangeBatches(writer, { count: 10, chars: 1_000_000, tail: 2 });
    await b.onExchange(exchange(1));
    await b.onExchange(exchange(2, 404));
    await b.onExchange(exchange(3, 500));
    const { response: _, ...noResponse } = exchange(4);
    await b.onExchange({ ...noResponse, error: { code: 'FTF_E_TARGET_TIMEOUT', message: 'timed out' } });
    await b.onExchange(exchange(5, 409));
    await b.onExchange(exchange(6));
    await b.flush();
    assert.deepEqual(log, ['1,2', '3', '4', '5,6']);
  });

  it('a failing step: what was pending as a batch, then the step\'s last `tail` exchanges one by one', async () => {
    const { log, writer } = writes();
    const b = exchangeBatches(writer, { count: 10, chars: 1_000_000, tail: 2 });
    await b.onExchange(exchange(1));
    await b.onExchange(exchange(2));
    const mark = b.mark();
    for (let id = 3; id <= 6; id++) await b.onExchange(exchange(id));
    await b.stepFailed(mark);
    assert.deepEqual(log, ['1,2,3,4', '5', '6']);
    await b.stepFailed(0);
    await b.flush();
    assert.equal(log.length, 3, 'an outer step failing after it finds nothing pending');
  });

  it('a step failing on the exchange that filled a batch still gets that exchange on its own', async () => {
    const { log, writer } = writes();
    const b = exchangeBatches(writer, bounds);
    await b.onExchange(exchange(1));
    await b.onExchange(exchange(2));
    const mark = b.mark();
    await b.onExchange(exchange(3));
    await b.stepFailed(mark);
    assert.deepEqual(log, ['1,2', '3']);
  });
});

describe('boundedRecording.summarised (a repeat step)', () => {
  it('records the exchanges inside it like past the head (failing, sample, last ones), the rest counted; before and after it in full', async () => {
    const mem = memorySink();
    const rec = boundedRecording([mem], { headCount: 100, headChars: 1_000_000, sample: 2, tail: 2, failing: 5 });
    await rec.onExchange(exchange(1));
    await rec.summarised(async () => {
      for (let id = 2; id <= 21; id++) await rec.onExchange(exchange(id, id === 10 ? 500 : 200));
    });
    assert.deepEqual(mem.exchanges.map((x) => x.id), [1, 2, 3, 10, 20, 21], 'head, sample (past 1, 2), the failing one, the last two at its end');
    await rec.onExchange(exchange(22));
    const summary = await rec.finish();
    assert.deepEqual(mem.exchanges.map((x) => x.id), [1, 2, 3, 10, 20, 21, 22], 'after it: in full again');
    assert.ok(summary);
    assert.equal(summary.exchanges, 22);
    assert.deepEqual(summary.kept, { head: 2, failing: 1, sample: 2, tail: 2 });
    assert.deepEqual(summary.omittedIds, [[4, 9], [11, 19]]);
  });

  it('writes the held last exchanges when fn fails (the iteration it failed on is the last)', async () => {
    const mem = memorySink();
    const rec = boundedRecording([mem], { headCount: 100, headChars: 1_000_000, sample: 0, tail: 1, failing: 5 });
    await assert.rejects(
      rec.summarised(async () => {
        for (let id = 1; id <= 5; id++) await rec.onExchange(exchange(id));
        throw new Error('iteration 5 failed');
      }),
      /iteration 5 failed/,
    );
    assert.deepEqual(mem.exchanges.map((x) => x.id), [5]);
  });
});
