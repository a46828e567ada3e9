// The request ids of answered changes in the project file: an id is written in the
// transaction of the edit it made (a rolled-back edit leaves none), its answer saved after,
// and rows are forgotten by age and beyond the newest per account.
import { describe, expect, test } from 'vitest';
import {
  ANSWER_TTL_MS,
  ANSWERS_PER_ACCOUNT,
  inRequest,
  saveAnswer,
  savedAnswer,
  type CallRequest,
} from '../../../src/main/store/answered-requests.ts';
import { setGold } from '../../../src/main/review/editor.ts';
import { project, sure } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-answered-');
const request = (id: string, account = 'ann'): CallRequest => ({ account, channel: 'editor.setGold', id });

describe('answered requests', () => {
  test('an id is in the file exactly when its edit is committed', async () => {
    const { store, ids } = project(dir, [['a b', 'x y']]);
    // an edit rolled back with its transaction leaves no id
    await expect(
      inRequest(store, request('p-1.0'), async () =>
        store.transaction(() => {
          setGold(store, 'ann', ids[0], [sure(0, 0)], []);
          throw new Error('rolled back');
        }),
      ),
    ).rejects.toThrow('rolled back');
    expect(savedAnswer(store, request('p-1.0'))).toBeUndefined();
    // a committed one leaves its id, without an answer until it is saved
    await inRequest(store, request('p-2.0'), async () => {
      await Promise.resolve();
      setGold(store, 'ann', ids[0], [sure(0, 0)], []);
    });
    expect(savedAnswer(store, request('p-2.0'))).toBeNull();
    saveAnswer(store, request('p-2.0'), '{"ok":true,"value":1}');
    expect(savedAnswer(store, request('p-2.0'))).toBe('{"ok":true,"value":1}');
    // an edit made outside any call records nothing; the same id of another account is not this one
    setGold(store, 'ann', ids[0], [sure(1, 1)], []);
    expect(savedAnswer(store, request('p-2.0', 'bob'))).toBeUndefined();
    store.close();
  });

  test('rows are kept for their time and the newest of each account', () => {
    const { store } = project(dir, [['a', 'x']]);
    const start = 1_000_000;
    saveAnswer(store, request('old', 'bob'), '"bob"', start);
    for (let k = 0; k <= ANSWERS_PER_ACCOUNT; k++) saveAnswer(store, request(`r${k}`), `${k}`, start + k);
    // ann's oldest went beyond the count; bob's one row stays
    expect(savedAnswer(store, request('r0'))).toBeUndefined();
    expect(savedAnswer(store, request('r1'))).toBe('1');
    expect(savedAnswer(store, request(`r${ANSWERS_PER_ACCOUNT}`))).toBe(`${ANSWERS_PER_ACCOUNT}`);
    expect(savedAnswer(store, request('old', 'bob'))).toBe('"bob"');
    // past their time, every account's rows go
    saveAnswer(store, request('new', 'cy'), '"cy"', start + ANSWER_TTL_MS + 1);
    expect(savedAnswer(store, request('old', 'bob'))).toBeUndefined();
    expect(savedAnswer(store, request(`r${ANSWERS_PER_ACCOUNT}`))).toBe(`${ANSWERS_PER_ACCOUNT}`);
    saveAnswer(store, request('newer', 'cy'), '"cy"', start + ANSWERS_PER_ACCOUNT + ANSWER_TTL_MS + 1);
    expect(savedAnswer(store, request(`r${ANSWERS_PER_ACCOUNT}`))).toBeUndefined();
    store.close();
  });
});
