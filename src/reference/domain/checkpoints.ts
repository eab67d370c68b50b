/**
 * Named event-stream checkpoints, scoped per user e-mail. Versions are opaque ("ec1." + base64url) and
 * change on every update; PATCH is a synchronous compare-and-set, so of concurrent PATCHes carrying the
 * same version exactly one wins.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Faults } from '../context.js';
import { NO_FAULTS } from '../faults.js';
export interface CheckpointData {
  uid: string;
  name: string;
  cursor: string;
  checkpointVersion: string;
  updatedAt: string;
}

/** Per-user cap, so a runaway client cannot grow memory without bound. */
export const MAX_CHECKPOINTS_PER_USER = 1000;

export type CasResult = { ok: true; checkpoint: CheckpointData } | { ok: false; checkpoint: CheckpointData };

export class CheckpointBook {
  private readonly byUser = new Map<string, Map<string, CheckpointData>>();
  /** Deleted checkpoints kept aside, under the faults checkpoint-patch-after-delete and checkpoint-recreate-restores only. */
  private readonly deletedByUser = new Map<string, Map<string, CheckpointData>>();
  private counter = 0;

  constructor(private readonly newUid: () => string, private readonly faults: Faults = NO_FAULTS) {}

  private version(uid: string): string {
    this.counter += 1;
    return `${this.faults.on('checkpoint-version-prefix-missing') ? '' : 'ec1.'}${Buffer.from(`${uid}:${this.counter}`, 'utf8').toString('base64url')}`;
  }

  private userMap(email: string): Map<string, CheckpointData> {
    let m = this.byUser.get(email);
    if (!m) {
      m = new Map();
      this.byUser.set(email, m);
    }
    return m;
  }

  get(email: string, name: string): CheckpointData | undefined {
    return this.byUser.get(email)?.get(name);
  }

  list(email: string): CheckpointData[] {
    return [...(this.byUser.get(email)?.values() ?? [])];
  }

  /**
   * Creates `name` at `cursor` unless it exists. `created` false returns the existing one: unchanged, or
   * with `resetExisting` (variant checkpoint-put-existing-reset) moved to `cursor` with a new version.
   */
  create(email: string, name: string, cursor: string, nowIso: string, resetExisting = false): { created: boolean; checkpoint: CheckpointData } | 'limit' {
    const m = this.userMap(email);
    const existing = m.get(name);
    if (existing && resetExisting) {
      const moved: CheckpointData = { ...existing, cursor, checkpointVersion: this.version(existing.uid), updatedAt: nowIso };
      m.set(name, moved);
      return { created: false, checkpoint: moved };
    }
    if (existing) return { created: false, checkpoint: existing };
    if (m.size >= MAX_CHECKPOINTS_PER_USER) return 'limit';
    // The fault: a name created again after its DELETE gets the deleted checkpoint back (old cursor and version).
    const restored = this.faults.on('checkpoint-recreate-restores') ? this.deletedByUser.get(email)?.get(name) : undefined;
    if (restored) {
      this.deletedByUser.get(email)?.delete(name);
      m.set(name, restored);
      return { created: true, checkpoint: restored };
    }
    const uid = this.newUid();
    const cp: CheckpointData = { uid, name, cursor, checkpointVersion: this.version(uid), updatedAt: nowIso };
    m.set(name, cp);
    return { created: true, checkpoint: cp };
  }

  /**
   * The compare-and-set. Clean, it never awaits: the check and the write happen in one synchronous stretch
   * (the promise only delivers the result). The faults checkpoint-cas-not-atomic (50 ms) and checkpoint-cas-window-2ms open a gap between them.
   */
  async compareAndSet(email: string, name: string, expectedVersion: string, cursor: string, nowIso: string, noopKeepsVersion = false): Promise<CasResult | undefined> {
    const m = this.byUser.get(email);
    let cp = m?.get(name);
    // The fault: a deleted checkpoint is only hidden from GET; a PATCH with its version brings it back.
    const hidden = this.faults.on('checkpoint-patch-after-delete') ? this.deletedByUser.get(email)?.get(name) : undefined;
    if (m && !cp && hidden) {
      this.deletedByUser.get(email)?.delete(name);
      m.set(name, hidden);
      cp = hidden;
    }
    if (!m || !cp) return undefined;
    // The fault: "nothing to move" is answered before the version is compared.
    if (cp.cursor === cursor && this.faults.on('checkpoint-same-cursor-unversioned')) return { ok: true, checkpoint: cp };
    if (cp.checkpointVersion !== expectedVersion && !this.faults.on('checkpoint-no-version-check')) return { ok: false, checkpoint: cp };
    // Variant checkpoint-noop-keeps-version: the state does not change, so neither does its version token.
    if (noopKeepsVersion && cp.cursor === cursor) return { ok: true, checkpoint: cp };
    // 50 ms: any concurrency finds it; 2 ms: only requests that truly reach the server together (a barrier).
    if (this.faults.on('checkpoint-cas-not-atomic')) await sleep(50);
    else if (this.faults.on('checkpoint-cas-window-2ms')) await sleep(2);
    const version = this.faults.on('checkpoint-version-unchanged') ? cp.checkpointVersion : this.version(cp.uid);
    const next: CheckpointData = { ...cp, cursor, checkpointVersion: version, updatedAt: nowIso };
    m.set(name, next);
    return { ok: true, checkpoint: next };
  }

  delete(email: string, name: string): CheckpointData | undefined {
    const m = this.byUser.get(email);
    const cp = m?.get(name);
    if (cp) m?.delete(name);
    if (cp && (this.faults.on('checkpoint-patch-after-delete') || this.faults.on('checkpoint-recreate-restores'))) {
      const kept = this.deletedByUser.get(email) ?? new Map<string, CheckpointData>();
      kept.set(name, cp);
      this.deletedByUser.set(email, kept);
    }
    return cp;
  }
}
