/**
 * The checkpoint lifecycle beyond GET and PATCH (commands.ts): DELETE (path not shown: the profile's
 * paths.checkpoint_delete), every operation on the name after it (404), PUT again (a creation: 201, the cursor at
 * the current end of the stream, the old versions stale), PUT of the existing name (not shown: any reading that
 * answers with that checkpoint), and the second user's DELETE of the same name (scoped to its user).
 */
import { fail, judge, type Cmd, type Model, type Real } from './command-kit.js';

/**
 * DELETE, then at once the operations a DELETE must end: a PATCH with the version the checkpoint had (404: a
 * delete that only hides the checkpoint lets it come back), and with `recreate` a PUT of the name again, after an
 * event was appended (control API) so that the deleted checkpoint's cursor is no longer the end of the stream: a
 * PUT that restores the deleted checkpoint instead of creating one shows. Without `recreate` the name stays deleted
 * for the commands that follow (GET, PATCH, DELETE: 404; PUT: a creation).
 */
export class DeleteCheckpoint implements Cmd {
  private shown = '';
  constructor(readonly recreate = false) {}
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    const wasDeleted = m.cp.deleted;
    const last = m.cp.current.version;
    const a = await r.api.deleteCheckpoint(r.name, 'primary', this.toString());
    m.stream.wrote();
    judge(m.cp.expectDelete(a), [a], this.toString());
    if (wasDeleted) return;
    this.shown = `, then PATCH with its last version${this.recreate ? ' and PUT again' : ''}`;
    const role = this.toString();
    const p = await r.api.patchCheckpoint(r.name, last, m.stream.cursorAt(-1), `${role}: PATCH with the version it had`);
    judge(m.cp.expectGone('PATCH (with the version it had before the DELETE)', p), [p], role);
    if (!this.recreate) return;
    if (m.can.append) {
      await r.events.append(1, undefined, `${role}: append 1 event (control API)`);
      m.stream.wrote();
    }
    await putAgain(m, r, role);
  }
  toString = (): string => `checkpoint DELETE${this.shown}`;
}

/** PUT of the name after its DELETE: a creation (201) whose cursor is the current end of the stream (a read from it is empty). */
async function putAgain(m: Model, r: Real, role: string): Promise<void> {
  const a = await r.api.putCheckpoint(r.name, 'primary', `${role}: PUT again`);
  m.stream.wrote();
  judge(m.cp.expectRecreated(a), [a], role);
  // Nothing written since the PUT: a read from the new cursor is empty (the cursor is the current end of the stream).
  const after = await r.events.page({ startCursor: m.cp.current.cursor }, `${role}: read from its cursor`);
  if (after.events.length > 0 || after.pageInfo.hasNextPage) {
    fail({ clause: 'EP-CHECKPOINT-CREATE', message: `the checkpoint created again after its DELETE has the cursor ${m.cp.current.cursor}, but reading from it returns ${after.events.length} event(s)${after.pageInfo.hasNextPage ? ' and hasNextPage true' : ''} with no write in between: a new checkpoint's cursor is the current end of the stream (not the deleted checkpoint's)` }, role);
  }
}

export class PutCheckpoint implements Cmd {
  private shown = '';
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    const again = m.cp.deleted;
    this.shown = again ? 'again after its DELETE' : 'of the existing name';
    if (again) return putAgain(m, r, this.toString());
    const a = await r.api.putCheckpoint(r.name, 'primary', this.toString());
    m.stream.wrote();
    judge(m.cp.expectPutExisting(a), [a], this.toString());
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
