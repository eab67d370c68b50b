/**
 * The checkpoint lifecycle beyond GET and PATCH (commands.ts): DELETE (path not shown: the profile's
 * paths.checkpoint_delete), every operation on the name after it (404), PUT again (a creation: 201, the cursor at
 * the current end of the stream, the old versions stale), PUT of the existing name (not shown: any reading that
 * answers with that checkpoint), and the second user's DELETE of the same name (scoped to its user).
 */
import { fail, judge, type Cmd, type Model, type Real } from './command-kit.js';

export class DeleteCheckpoint implements Cmd {
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    const a = await r.api.deleteCheckpoint(r.name, 'primary', this.toString());
    m.stream.wrote();
    judge(m.cp.expectDelete(a), [a], this.toString());
  }
  toString = (): string => 'checkpoint DELETE';
}

export class PutCheckpoint implements Cmd {
  private shown = '';
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    const again = m.cp.deleted;
    this.shown = again ? 'again after its DELETE' : 'of the existing name';
    const a = await r.api.putCheckpoint(r.name, 'primary', this.toString());
    m.stream.wrote();
    if (!again) {
      judge(m.cp.expectPutExisting(a), [a], this.toString());
      return;
    }
    judge(m.cp.expectRecreated(a), [a], this.toString());
    // Nothing written since the PUT: a read from the new cursor is empty (the cursor is the current end of the stream).
    const after = await r.events.page({ startCursor: m.cp.current.cursor }, `${this.toString()}: read from its cursor`);
    if (after.events.length > 0 || after.pageInfo.hasNextPage) {
      fail({ clause: 'EP-CHECKPOINT-CREATE', message: `the checkpoint created again after its DELETE has the cursor ${m.cp.current.cursor}, but reading from it returns ${after.events.length} event(s)${after.pageInfo.hasNextPage ? ' and hasNextPage true' : ''} with no write in between: a new checkpoint's cursor is the current end of the stream (not the deleted checkpoint's)` }, this.toString());
    }
  }
  toString = (): string => `checkpoint PUT${this.shown ? ` ${this.shown}` : ''}`;
}

export class SecondUserDelete implements Cmd {
  check = (m: Readonly<Model>): boolean => m.can.second;
  async run(m: Model, r: Real): Promise<void> {
    const a = await r.api.deleteCheckpoint(r.name, 'second', this.toString());
    m.stream.wrote();
    judge(m.cp.expectOtherUsersDelete(a, m.secondCp), [a], this.toString());
    m.secondCp = undefined;
  }
  toString = (): string => 'checkpoint DELETE of the same name by the second user';
}
