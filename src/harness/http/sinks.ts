/**
 * Exchange sinks provided with the recorder: an in-memory one (tests, engine assertions on traffic), a HAR
 * 1.2 file streamed to disk entry by entry (closed at flush()), the bounded recording that sits in front
 * of the report sinks so a walk of a million events writes a bounded report, and the batches that group
 * exchanges into one attachment each (those without a response or with a 5xx stay on their own). Exchanges arrive already
 * redacted (the recorder is the one redaction point); sinks never see raw secrets.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Exchange, ExchangeSink, RecordingBounds, RecordingSummary } from './types.js';

export interface MemorySink extends ExchangeSink {
  readonly exchanges: Exchange[];
  clear(): void;
}

export function memorySink(): MemorySink {
  const exchanges: Exchange[] = [];
  return {
    exchanges,
    onExchange(exchange) {
      exchanges.push(exchange);
    },
    clear() {
      exchanges.length = 0;
    },
  };
}

export interface HarSink extends ExchangeSink {
  readonly file: string;
  /** Closes the HAR file (entries are already on disk); exchanges after it are not written. Idempotent. */
  flush(): Promise<void>;
}

/**
 * A HAR 1.2 file written as the exchanges arrive: the file is opened at the first exchange (or at flush),
 * each entry is appended, and flush() writes the closing part (with the recording summary, if any). Memory
 * does not grow with the number of exchanges. Until flush() the file is not valid JSON.
 */
export function harSink(file: string, creator = { name: 'ftf-conformance', version: '0.1.0' }): HarSink {
  let fd: number | undefined;
  let entries = 0;
  let closed = false;
  let summary: RecordingSummary | undefined;
  const open = (): number => {
    if (fd === undefined) {
      mkdirSync(dirname(file), { recursive: true });
      fd = openSync(file, 'w');
      writeSync(fd, `{\n  "log": {\n    "version": "1.2",\n    "creator": ${JSON.stringify(creator)},\n    "entries": [`);
    }
    return fd;
  };
  return {
    file,
    onExchange(exchange) {
      if (closed) return;
      const out = open();
      writeSync(out, `${entries++ === 0 ? '' : ','}\n${indent(JSON.stringify(harEntry(exchange), null, 2), '      ')}`);
    },
    onSummary(s) {
      summary = s;
    },
    async flush() {
      if (closed) return;
      const out = open();
      closed = true;
      const tail = summary
        ? `,\n    "comment": ${JSON.stringify(summaryComment(summary))},\n    "_recordingSummary": ${indent(JSON.stringify(summary, null, 2), '    ').trimStart()}`
        : '';
      try {
        writeSync(out, `${entries ? '\n    ' : ''}]${tail}\n  }\n}\n`);
      } finally {
        closeSync(out);
      }
    },
  };
}

const indent = (text: string, pad: string): string => text.replace(/^/gm, pad);

/** One line for readers of the HAR (and of the summary attachment). */
export function summaryComment(s: RecordingSummary): string {
  return `bounded recording: ${s.exchanges} exchanges, ${s.exchanges - s.omitted} written (first ${s.kept.head}, failing ${s.kept.failing}, sample ${s.kept.sample}, last ${s.kept.tail}), ${s.omitted} counted only`;
}

export const DEFAULT_RECORDING_BOUNDS: RecordingBounds = { headCount: 200, headChars: 512 * 1024, sample: 8, tail: 3, failing: 100 };

export interface BoundedRecording extends ExchangeSink {
  /** Writes the held last exchanges now (a step failed: the exchange that shows it is among them). */
  flushTail(): Promise<void>;
  /**
   * Runs `fn` with its exchanges recorded as if past the head bound (failing ones, the sample, the last ones;
   * the rest counted in the summary), then writes the held last ones; after it, exchanges are recorded as
   * before. A `repeat` step's iterations (engine.summarised).
   */
  summarised<T>(fn: () => Promise<T>): Promise<T>;
  /** Writes the held last exchanges and, when some were left out, hands the summary to the sinks. */
  finish(): Promise<RecordingSummary | undefined>;
}

const failing = (x: Exchange): boolean => x.response === undefined || x.error !== undefined || x.response.status >= 400;
/**
 * What a batch never hides: no response, or a server error. A 4xx is routine here (error-contract scenarios
 * and races send requests the spec refuses, dozens per test): it is batched like a 2xx, and a step that fails
 * on one still gets its last exchanges on their own (stepFailed).
 */
const standsAlone = (x: Exchange): boolean => x.response === undefined || x.error !== undefined || x.response.status >= 500;
const chars = (x: Exchange): number => (x.request.body?.length ?? 0) + (x.response?.bodyText.length ?? 0);
const MAX_LABELS = 20;

/**
 * Sits in front of the report sinks (attachments, HAR) of one test. Every exchange is written until the
 * head bound (headCount exchanges or headChars body characters), so ordinary scenarios are recorded in
 * full. Past it, only these are written: every failing exchange (no response, status >= 400; at most
 * `failing`), a sample (the 1st, 2nd, 4th, 8th... exchange past the head; at most `sample`) and the last
 * `tail` exchanges, held back and written when a step fails (flushTail: the page that broke a rule is the
 * last one a walk fetched) or when the test ends (finish). The rest is counted in a RecordingSummary.
 * Within summarised(fn) the same applies to fn's exchanges whatever the head holds. Holds at most `tail`
 * exchanges in memory.
 */
export function boundedRecording(sinks: ExchangeSink[], bounds: RecordingBounds = DEFAULT_RECORDING_BOUNDS): BoundedRecording {
  let seen = 0;
  let headChars = 0;
  let past = 0;
  let open = true;
  let forced = 0;
  const kept = { head: 0, failing: 0, sample: 0, tail: 0 };
  const held: Exchange[] = [];
  const omittedIds: Array<[number, number]> = [];
  const statuses: Record<string, number> = {};
  const labels: Record<string, number> = {};
  let responseChars = 0;
  // Every sink gets the exchange even when one fails; the first failure is rethrown (the recorder reports it).
  const write = async (x: Exchange): Promise<void> => {
    let failure: { error: unknown } | undefined;
    for (const sink of sinks) {
      try {
        await sink.onExchange(x);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  };
  const omit = (x: Exchange): void => {
    const last = omittedIds[omittedIds.length - 1];
    if (last && last[1] === x.id - 1) last[1] = x.id;
    else omittedIds.push([x.id, x.id]);
  };
  const flushTail = async (): Promise<void> => {
    while (held.length) {
      kept.tail++;
      await write(held.shift() as Exchange);
    }
  };
  return {
    async onExchange(x) {
      seen++;
      const status = x.response ? String(x.response.status) : 'error';
      statuses[status] = (statuses[status] ?? 0) + 1;
      const label = x.label in labels || Object.keys(labels).length < MAX_LABELS ? x.label : '(other)';
      labels[label] = (labels[label] ?? 0) + 1;
      responseChars += x.response?.bodyText.length ?? 0;
      if (!forced && open && kept.head < bounds.headCount && (kept.head === 0 || headChars + chars(x) <= bounds.headChars)) {
        headChars += chars(x);
        kept.head++;
        await write(x);
        return;
      }
      if (!forced) open = false;
      past++;
      if (failing(x) && kept.failing < bounds.failing) {
        kept.failing++;
        await write(x);
        return;
      }
      // 1, 2, 4, 8...: early pages densely, later ones sparsely, never more than `sample`.
      if ((past & (past - 1)) === 0 && kept.sample < bounds.sample) {
        kept.sample++;
        await write(x);
        return;
      }
      held.push(x);
      if (held.length > bounds.tail) omit(held.shift() as Exchange);
    },
    flushTail,
    async summarised(fn) {
      forced++;
      try {
        return await fn();
      } finally {
        forced--;
        if (!forced) await flushTail();
      }
    },
    async finish() {
      await flushTail();
      const omitted = seen - kept.head - kept.failing - kept.sample - kept.tail;
      if (omitted === 0) return undefined;
      const summary: RecordingSummary = { exchanges: seen, kept: { ...kept }, omitted, omittedIds, statuses, labels, responseChars, bounds };
      for (const sink of sinks) await sink.onSummary?.(summary);
      return summary;
    },
  };
}

/** How passing exchanges are grouped into one attachment (exchangeBatches). */
export interface BatchBounds {
  /** Passing exchanges per batch at most. */
  count: number;
  /** Body characters (request + response, after the report cap) that close a batch (it is written once it holds them). */
  chars: number;
  /** A failing step's last this-many exchanges are written one by one, not in the batch. */
  tail: number;
}

export const DEFAULT_BATCH_BOUNDS: BatchBounds = { count: 50, chars: 256 * 1024, tail: 3 };

/** Where exchange batches go (the Playwright fixtures: one attachment each). */
export interface BatchWriter {
  /** One exchange on its own. */
  one(exchange: Exchange): Promise<void>;
  /** Several passing exchanges in order, as one. */
  many(exchanges: Exchange[]): Promise<void>;
}

export interface ExchangeBatches extends ExchangeSink {
  /** Where a step starts; the exchanges after this mark are that step's (for stepFailed). */
  mark(): number;
  /** The step started at `mark` failed: what is pending is written, the step's last `tail` exchanges one by one. */
  stepFailed(mark: number): Promise<void>;
  /** Writes what is pending (the test ends). */
  flush(): Promise<void>;
}

/**
 * Groups passing exchanges so that a test of N exchanges costs about N / count writes, not N (each attachment
 * is a Playwright step with a captured stack, an IPC message and a file for every reporter: docs/performance.md).
 * Every exchange without a response or with a 5xx is written on its own at once, after what was pending (4xx go in batches);
 * when a step fails, what is pending is written first and the step's last `tail` exchanges (the one it failed
 * on is the last: a step stops at its first failing check) on their own, so the evidence of a failure stays
 * individually visible. A batch of one is written as one. Holds at most one batch (plus one exchange) in memory.
 */
export function exchangeBatches(writer: BatchWriter, bounds: BatchBounds = DEFAULT_BATCH_BOUNDS): ExchangeBatches {
  let seq = 0;
  let pending: Array<{ seq: number; x: Exchange }> = [];
  let pendingChars = 0;
  const write = async (items: Exchange[]): Promise<void> => {
    if (items.length === 1) await writer.one(items[0] as Exchange);
    else if (items.length > 1) await writer.many(items);
  };
  const take = (): Array<{ seq: number; x: Exchange }> => {
    const out = pending;
    pending = [];
    pendingChars = 0;
    return out;
  };
  const flush = async (): Promise<void> => write(take().map((p) => p.x));
  return {
    async onExchange(x) {
      seq++;
      if (standsAlone(x)) {
        await flush();
        await writer.one(x);
        return;
      }
      // A full batch is written when the next exchange arrives, so the latest one is always pending (a step that
      // fails on it gets it on its own).
      if (pending.length >= bounds.count || pendingChars >= bounds.chars) await flush();
      pending.push({ seq, x });
      pendingChars += chars(x);
    },
    mark: () => seq,
    async stepFailed(mark) {
      const items = take();
      const own = items.filter((p) => p.seq > mark);
      const alone = new Set(own.slice(Math.max(0, own.length - bounds.tail)));
      await write(items.filter((p) => !alone.has(p)).map((p) => p.x));
      for (const p of alone) await writer.one(p.x);
    },
    flush,
  };
}

const pairs = (h: Record<string, string>) => Object.entries(h).map(([name, value]) => ({ name, value }));

function harEntry(x: Exchange): object {
  let queryString: Array<{ name: string; value: string }> = [];
  try {
    queryString = [...new URL(x.request.url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    // a redacted URL can still be relative or odd; the HAR simply has no query list then
  }
  const reqType = Object.entries(x.request.headers).find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? 'application/octet-stream';
  const res = x.response;
  return {
    startedDateTime: x.startedAt,
    time: x.durationMs,
    comment: x.label,
    request: {
      method: x.request.method,
      url: x.request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(x.request.headers),
      queryString,
      ...(x.request.body === undefined ? {} : { postData: { mimeType: reqType, text: x.request.body } }),
      headersSize: -1,
      bodySize: x.request.body === undefined ? 0 : Buffer.byteLength(x.request.body),
    },
    response: {
      status: res?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: res ? pairs(res.headers) : [],
      content: { size: res ? Buffer.byteLength(res.bodyText) : 0, mimeType: res?.headers['content-type'] ?? 'x-unknown', text: res?.bodyText ?? '' },
      redirectURL: res?.headers.location ?? '',
      headersSize: -1,
      bodySize: res ? Buffer.byteLength(res.bodyText) : -1,
      ...(x.error ? { _error: x.error } : {}),
    },
    cache: {},
    timings: { send: 0, wait: x.durationMs, receive: 0 },
    _curl: x.curl,
  };
}
