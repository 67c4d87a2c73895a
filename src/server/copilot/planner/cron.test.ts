import { describe, expect, it } from 'vitest';
import { readSchedule } from './cron';

describe('readSchedule', () => {
  it.each([
    ['every 15 minutes', '*/15 * * * *'],
    ['every minute', '* * * * *'],
    ['every 2 hours', '0 */2 * * *'],
    ['hourly', '0 * * * *'],
    ['every day at 6', '0 6 * * *'],
    ['daily at 6:30 pm', '30 18 * * *'],
    ['nightly', '0 2 * * *'],
    ['every night at 11pm', '0 23 * * *'],
    ['on weekdays at 7:30 am', '30 7 * * 1-5'],
    ['every Monday at 8', '0 8 * * 1'],
    ['weekly on Sunday at 3am', '0 3 * * 0'],
    ['on the 1st of each month at 4', '0 4 1 * *'],
    ['run on "0 */4 * * *"', '0 */4 * * *'],
  ])('%s → %s', (text, cron) => {
    expect(readSchedule(text)?.cron).toBe(cron);
  });

  it('says when cron cannot keep the interval asked for', () => {
    expect(readSchedule('every 90 minutes')).toMatchObject({ cron: '0 */2 * * *', note: expect.stringContaining('nearest') });
    expect(readSchedule('every 7 minutes')?.note).toMatch(/restarts each hour/);
    expect(readSchedule('every 6 hours')).toEqual({ cron: '0 */6 * * *', said: 'every 6 hours' });
  });

  it('reads a time zone', () => {
    expect(readSchedule('every day at 6 in America/Chicago time')).toMatchObject({ cron: '0 6 * * *', timezone: 'America/Chicago' });
  });

  it('finds no schedule where the request names none', () => {
    expect(readSchedule('Convert ADT messages to FHIR')).toBeNull();
  });
});
