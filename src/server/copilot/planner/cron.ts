/**
 * A schedule read from a request in words, as a 5-field cron expression: "every 15 minutes" → `*\/15 * * * *`,
 * "every day at 6" → `0 6 * * *`, "weekdays at 7:30 pm" → `30 19 * * 1-5`, "nightly" → `0 2 * * *`. A cron
 * expression written in the request is taken as it is. Null when the request names no schedule.
 */
export interface Schedule {
  cron: string;
  timezone?: string;
  /** How it was read, for the reasoning. */
  said: string;
  /** When cron cannot say exactly what was asked (every 90 minutes), what it says instead. */
  note?: string;
}

const DAYS: Record<string, number> = { sunday: 0, monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6 };
const NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, ten: 10, twelve: 12, fifteen: 15, twenty: 20, thirty: 30 };

const ZONES: [RegExp, string][] = [
  [/\b([A-Z][a-z]+\/[A-Z][A-Za-z_]+)\b/, '$1'],
  [/\b(eastern|new york)\b/i, 'America/New_York'],
  [/\b(central|chicago)\b/i, 'America/Chicago'],
  [/\b(mountain|denver)\b/i, 'America/Denver'],
  [/\b(pacific|los angeles)\b/i, 'America/Los_Angeles'],
  [/\b(london|uk time)\b/i, 'Europe/London'],
  [/\butc\b/i, 'UTC'],
];

function num(s: string): number {
  return /^\d+$/.test(s) ? Number(s) : (NUMBERS[s.toLowerCase()] ?? NaN);
}

/** The time of day the request names ("at 6", "at 6:30 pm", "18:00", "at noon"), as [minute, hour]. */
function timeOfDay(text: string): [number, number] | null {
  if (/\bnoon\b|\bmidday\b/.test(text)) return [0, 12];
  if (/\bmidnight\b/.test(text)) return [0, 0];
  const m =
    text.match(/\bat\s+(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.|o'clock|h)?/) ??
    text.match(/\b(\d{1,2}):(\d{2})\s*(am|pm)?\b/) ??
    text.match(/\b(\d{1,2})\s*(am|pm)\b/);
  if (!m) return null;
  let hour = Number(m[1]);
  const minute = m[2] && /^\d+$/.test(m[2]) ? Number(m[2]) : 0;
  const half = (m[3] ?? (m[2] && !/^\d+$/.test(m[2]) ? m[2] : '')).replace(/\./g, '');
  if (half === 'pm' && hour < 12) hour += 12;
  if (half === 'am' && hour === 12) hour = 0;
  if (/\b(evening|tonight)\b/.test(text) && !half && hour < 12) hour += 12;
  if (hour > 23 || minute > 59) return null;
  return [minute, hour];
}

export function readSchedule(request: string): Schedule | null {
  const text = request.toLowerCase();
  const timezone = ZONES.map(([re, zone]) => {
    const m = request.match(re);
    return m ? zone.replace('$1', m[1] ?? '') : null;
  }).find((z) => z);
  const at = (cron: string, said: string): Schedule => ({ cron, said, ...(timezone ? { timezone } : {}) });

  const written = request.match(/(?:^|[\s`"'(])((?:[\d*/,-]+|\*)\s+(?:[\d*/,-]+)\s+(?:[\d*/,-]+)\s+(?:[\d*/,A-Za-z-]+)\s+(?:[\d*/,A-Za-z-]+))(?=$|[\s`"')])/);
  if (written && /[*/]/.test(written[1]!)) return at(written[1]!.trim(), `the cron expression ${written[1]!.trim()}`);
  const macro = text.match(/@(hourly|daily|weekly|monthly|yearly)\b/);
  if (macro) return at(`@${macro[1]}`, `@${macro[1]}`);

  const every = text.match(/\bevery\s+(\d+|one|two|three|four|five|six|ten|twelve|fifteen|twenty|thirty)\s*(minutes?|mins?|hours?|hrs?)\b/);
  if (every) {
    const n = num(every[1]!);
    const minutes = /^m/.test(every[2]!) ? n : n * 60;
    if (minutes < 1) return null;
    if (minutes < 60 && 60 % minutes === 0) return at(minutes === 1 ? '* * * * *' : `*/${minutes} * * * *`, every[0]);
    if (minutes % 60 === 0 && minutes < 1440 && 24 % (minutes / 60) === 0) return at(minutes === 60 ? '0 * * * *' : `0 */${minutes / 60} * * *`, every[0]);
    // cron steps restart every hour (and day): the nearest interval it can keep
    const hours = Math.max(1, Math.min(12, Math.round(minutes / 60)));
    const fit = minutes < 60 ? `*/${minutes} * * * *` : hours === 1 ? '0 * * * *' : `0 */${hours} * * *`;
    return {
      ...at(fit, every[0]),
      note: [
        `cron cannot repeat ${every[0]} exactly; ${fit} is the nearest`,
        `(${minutes < 60 ? 'the count restarts each hour' : `every ${hours} hour${hours > 1 ? 's' : ''}`})`,
      ].join(' '),
    };
  }
  if (/\bevery\s+minute\b/.test(text)) return at('* * * * *', 'every minute');
  if (/\b(every\s+hour|hourly)\b/.test(text)) {
    const past = text.match(/\b(\d{1,2})\s+minutes?\s+past\b/);
    return at(`${past ? Number(past[1]) : 0} * * * *`, 'every hour');
  }
  const time = timeOfDay(text);
  const [minute, hour] = time ?? [0, 0];
  const clock = time ? ` at ${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}` : '';
  if (/\b(weekdays?|monday\s*(?:to|-|through)\s*friday|business days?|working days?)\b/.test(text))
    return at(`${minute} ${time ? hour : 6} * * 1-5`, `weekdays${clock}`);
  const day =
    text.match(/\b(?:every|each|on)\s+(sunday|monday|tuesday|wednesday|thursday|friday|saturday)s?\b/) ??
    text.match(/\b(sunday|monday|tuesday|wednesday|thursday|friday|saturday)s\b/);
  if (day) return at(`${minute} ${hour} * * ${DAYS[day[1]!]}`, `every ${day[1]}${clock}`);
  if (/\b(weekly|every\s+week|once\s+a\s+week)\b/.test(text)) return at(`${minute} ${hour} * * 1`, `weekly${clock}`);
  const dom = text.match(/\b(?:on\s+the\s+)?(\d{1,2})(?:st|nd|rd|th)\s+(?:day\s+)?of\s+(?:each|every|the)\s+month\b/);
  if (dom) return at(`${minute} ${hour} ${Number(dom[1])} * *`, `monthly on day ${dom[1]}${clock}`);
  if (/\b(monthly|every\s+month|once\s+a\s+month|first\s+of\s+(?:each|every|the)\s+month)\b/.test(text))
    return at(`${minute} ${hour} 1 * *`, `monthly${clock}`);
  if (/\b(nightly|every\s+night|each\s+night|overnight)\b/.test(text)) return at(`${minute} ${time ? hour : 2} * * *`, `nightly${clock || ' (02:00)'}`);
  if (/\b(every\s+morning|each\s+morning)\b/.test(text)) return at(`${minute} ${time ? hour : 6} * * *`, `every morning${clock || ' (06:00)'}`);
  if (/\b(daily|every\s+day|each\s+day|once\s+a\s+day|every\s+evening)\b/.test(text)) return at(`${minute} ${hour} * * *`, `every day${clock}`);
  return null;
}
