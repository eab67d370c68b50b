/**
 * Per-run request log: an ExchangeSink on the recording transport (so what it holds is already redacted)
 * that keeps the exchanges of the current property run only. The runner starts a new run before each
 * generated case and keeps the log of failing runs for the counterexample.
 */
import type { Exchange, ExchangeSink } from '../http/types.js';

export class RunLog implements ExchangeSink {
  private current: Exchange[] = [];

  onExchange(exchange: Exchange): void {
    this.current.push(exchange);
  }

  /** Starts a new run and returns its (live) list of exchanges. */
  begin(): Exchange[] {
    this.current = [];
    return this.current;
  }
}
