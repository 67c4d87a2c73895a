import { describe, expect, it } from 'vitest';
import { PreparedTexts } from './prepared-texts';

describe('which statements are prepared', () => {
  it('a text that comes again and again, from its third time, under one name', () => {
    const texts = new PreparedTexts('pgboss');
    const fetch =
      "WITH next AS (SELECT j.id FROM pgboss.job_common j WHERE j.name = 'execute-pipeline' LIMIT 1 FOR UPDATE SKIP LOCKED) UPDATE pgboss.job_common j SET state = 'active' FROM next WHERE j.id = next.id RETURNING j.id";
    expect([texts.nameOf(fetch), texts.nameOf(fetch)]).toEqual([undefined, undefined]);
    const name = texts.nameOf(fetch);
    expect(name).toMatch(/^pgboss_[0-9a-f]{20}$/);
    expect(texts.nameOf(fetch)).toBe(name);
    expect(texts.nameOf(`${fetch} `)).toBeUndefined();
  });

  it('never several statements in one text, nor more than 100 texts', () => {
    const texts = new PreparedTexts('pgboss');
    const transaction = 'BEGIN; SET LOCAL lock_timeout = 30000; SELECT 1; COMMIT;';
    for (let i = 0; i < 5; i++) expect(texts.nameOf(transaction)).toBeUndefined();
    const names = new Set<string>();
    for (let t = 0; t < 150; t++)
      for (let i = 0; i < 3; i++) {
        const name = texts.nameOf(`SELECT ${t};`);
        if (name) names.add(name);
      }
    expect(names.size).toBe(100);
  });
});
