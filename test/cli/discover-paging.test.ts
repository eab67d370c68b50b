/** init --discover proposes paging.<list> from what a list answer shows (issue 25): Link, next token, pageInfo flag. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { proposePaging } from '../../src/cli/discover.js';
import { listPagingOf } from '../../src/harness/target/paging.js';

describe('proposePaging', () => {
  it('reads a Link rel="next", a next token and a pageInfo flag; nothing from a bare array', () => {
    assert.deepEqual(proposePaging([{ code: 'A' }], { link: '<https://x/api/v1/entity?after=2>; rel="next"' })?.paging, 'link-header');
    const cursor = proposePaging({ data: [{ code: 'A' }], next: 'tok' }, {});
    assert.deepEqual(cursor?.paging, { kind: 'cursor', param: 'cursor', next: '/next' });
    assert.equal(cursor?.pointer, '/data');
    const pages = proposePaging({ results: [], pageInfo: { page: 1, hasNextPage: false } }, {});
    assert.deepEqual(pages?.paging, { kind: 'page-number', param: 'page', first: 1, has_next: '/pageInfo/hasNextPage' });
    assert.equal(pages?.pointer, '/results');
    assert.equal(proposePaging([{ code: 'A' }], {}), undefined);
    assert.equal(proposePaging({ items: [] }, {}), undefined);
  });

  it('every proposal is a setting the profile loader reads', () => {
    for (const p of [proposePaging({ data: [], nextCursor: 'x' }, {}), proposePaging({ items: [], meta: { has_more: true } }, {})]) {
      assert.ok(p);
      assert.notEqual(listPagingOf(p.paging).kind, 'none');
    }
  });
});
