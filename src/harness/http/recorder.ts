/**
 * The ONE recording point: wraps a transport, times each exchange, learns secrets from the traffic before
 * anything is written, builds the redacted Exchange (bodies capped for reports) plus a reproducing curl,
 * and hands it to every sink. A failing sink never breaks the request (reporters must not take down runs).
 */
import { performance } from 'node:perf_hooks';
import { FtfError } from '../../shared/errors.js';
import { buildCurl } from './curl.js';
import type { Redactor } from './redactor.js';
import type { Exchange, ExchangeSink, HttpRequest, HttpResponse, RaceLane, RaceSettled, Transport } from './types.js';

export const DEFAULT_REPORT_BODY_CHARS = 64 * 1024;

export interface RecorderOptions {
  /** Bodies in exchanges are cut after this many characters (after redaction). Default 64 Ki. */
  maxReportBodyChars?: number;
  /** Told about sink failures (the error is never rethrown). */
  onSinkError?: (error: unknown, sink: ExchangeSink) => void;
}

export class RecordingTransport implements Transport {
  private nextId = 1;
  private readonly sinks: ExchangeSink[];

  constructor(
    private readonly inner: Transport,
    readonly redactor: Redactor,
    sinks: ExchangeSink[] = [],
    private readonly options: RecorderOptions = {},
  ) {
    this.sinks = [...sinks];
  }

  addSink(sink: ExchangeSink): void {
    this.sinks.push(sink);
  }

  removeSink(sink: ExchangeSink): void {
    const i = this.sinks.indexOf(sink);
    if (i >= 0) this.sinks.splice(i, 1);
  }

  async send(req: HttpRequest, label?: string): Promise<HttpResponse> {
    const id = this.nextId++;
    const startedAt = new Date().toISOString();
    const t0 = performance.now();
    this.learnFromRequest(req);
    let response: HttpResponse | undefined;
    let failure: unknown;
    try {
      response = await this.inner.send(req);
    } catch (err) {
      failure = err;
    }
    await this.record(id, req, label, startedAt, performance.now() - t0, { response, error: failure });
    if (failure !== undefined) throw this.redactThrown(failure);
    return response as HttpResponse;
  }

  /**
   * A race through the inner transport's barrier (http/race-lanes.ts). Each warm and each race exchange is
   * recorded like a send; failures come back per lane, redacted like a thrown send error.
   */
  async race(lanes: RaceLane[], label?: string): Promise<RaceSettled[]> {
    const inner = this.inner.race?.bind(this.inner);
    if (!inner) throw new FtfError('FTF_E_RACE_UNSUPPORTED', 'this transport cannot release requests from a barrier (no race lanes)');
    const startedAt = new Date().toISOString();
    const t0 = performance.now();
    for (const lane of lanes) {
      this.learnFromRequest(lane.warm);
      this.learnFromRequest(lane.request);
    }
    let settled: RaceSettled[];
    try {
      settled = await inner(lanes);
    } catch (err) {
      for (const lane of lanes) await this.record(this.nextId++, lane.request, label, startedAt, performance.now() - t0, { error: err });
      throw this.redactThrown(err);
    }
    const at = (t: number): string => new Date(Date.now() - (performance.now() - t)).toISOString();
    for (const [i, s] of settled.entries()) {
      const lane = lanes[i] as RaceLane;
      await this.record(this.nextId++, lane.warm, `${label ?? 'race'} (warm-up)`, startedAt, s.warm.response?.durationMs ?? 0, s.warm);
      await this.record(this.nextId++, lane.request, label, at(s.sentAt), s.response?.durationMs ?? s.answeredAt - s.sentAt, s);
    }
    return settled.map((s) => ({
      ...s,
      warm: s.warm.error === undefined ? s.warm : { error: this.redactThrown(s.warm.error) },
      ...(s.error === undefined ? {} : { error: this.redactThrown(s.error) }),
    }));
  }

  private learnFromRequest(req: HttpRequest): void {
    // Learn from what we send too: a code or verifier in a form, a bearer the engine built itself.
    this.redactor.learnFromHeaders(req.headers);
    if (req.body !== undefined) this.redactor.learnFromBody(req.body);
  }

  private async record(id: number, req: HttpRequest, label: string | undefined, startedAt: string, durationMs: number, got: { response?: HttpResponse | undefined; error?: unknown }): Promise<void> {
    const { response, error } = got;
    if (response) {
      this.redactor.learnFromHeaders(response.headers);
      this.redactor.learnFromBody(response.json !== undefined ? response.json : response.bodyText, response.bodyText);
    }
    const exchange: Exchange = {
      id,
      label: label ?? `${req.method} ${safePath(req.url)}`,
      startedAt,
      durationMs,
      request: this.redactRequest(req),
      ...(response ? { response: this.redactResponse(response) } : {}),
      ...(error !== undefined ? { error: this.redactError(error) } : {}),
      curl: buildCurl(req, this.redactor),
    };
    await this.publish(exchange);
  }

  async dispose(): Promise<void> {
    await this.inner.dispose?.();
  }

  private async publish(exchange: Exchange): Promise<void> {
    for (const sink of this.sinks) {
      try {
        await sink.onExchange(exchange);
      } catch (err) {
        try {
          this.options.onSinkError?.(err, sink);
        } catch {
          // a failing error callback must not break the run either
        }
      }
    }
  }

  private cap(text: string): { text: string; cut: boolean } {
    const max = this.options.maxReportBodyChars ?? DEFAULT_REPORT_BODY_CHARS;
    return text.length <= max ? { text, cut: false } : { text: `${text.slice(0, max)}…[truncated ${text.length - max} chars]`, cut: true };
  }

  /**
   * cap(redact(text)) without redacting what the cap throws away (a 1000-event page is ~6x the cap). The
   * slice is redacted with a margin of the longest secret spelling, then the margin is dropped: a secret cut
   * by the slice lies entirely in that margin, so no partial secret survives.
   */
  private redactCapped(text: string): { text: string; cut: boolean } {
    const max = this.options.maxReportBodyChars ?? DEFAULT_REPORT_BODY_CHARS;
    const margin = this.redactor.longestSpelling;
    if (text.length <= max + 2 * margin) return this.cap(this.redactor.redactText(text));
    const head = this.redactor.redactText(text.slice(0, max + margin));
    const safe = head.slice(0, Math.min(max, head.length - margin));
    return { text: `${safe}…[truncated ${text.length - safe.length} chars]`, cut: true };
  }

  private redactRequest(req: HttpRequest): HttpRequest {
    return {
      method: req.method,
      url: this.redactor.redactText(req.url),
      headers: this.redactor.redactHeaders(req.headers),
      ...(req.body === undefined ? {} : { body: this.redactCapped(req.body).text }),
      timeoutMs: req.timeoutMs,
      ...(req.maxBodyBytes === undefined ? {} : { maxBodyBytes: req.maxBodyBytes }),
    };
  }

  private redactResponse(res: HttpResponse): HttpResponse {
    const { text, cut } = this.redactCapped(res.bodyText);
    let json: unknown;
    if (res.json !== undefined && !cut) {
      try {
        json = JSON.parse(text) as unknown;
      } catch {
        json = undefined;
      }
    }
    return {
      status: res.status,
      headers: this.redactor.redactHeaders(res.headers),
      bodyText: text,
      json,
      ...(res.jsonError !== undefined ? { jsonError: this.redactor.redactText(res.jsonError) } : cut && res.json !== undefined ? { jsonError: 'body truncated for the report' } : {}),
      durationMs: res.durationMs,
    };
  }

  /** What escapes the recorder is redacted too (a URL may carry a code or a consent parameter). No cause: it may hold raw data. */
  private redactThrown(err: unknown): unknown {
    if (!(err instanceof FtfError)) return new FtfError('FTF_E_TARGET_PROTOCOL', this.redactor.redactText(err instanceof Error ? err.message : String(err)));
    const redacted = new FtfError(err.code, this.redactor.redactText(err.message), {
      ...(err.hint ? { hint: err.hint } : {}),
      ...(err.location ? { location: err.location } : {}),
    });
    return redacted;
  }

  private redactError(err: unknown): { code: string; message: string } {
    const code = err instanceof FtfError ? err.code : 'FTF_E_TARGET_PROTOCOL';
    return { code, message: this.redactor.redactText(err instanceof Error ? err.message : String(err)) };
  }
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
