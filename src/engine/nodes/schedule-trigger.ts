import { CronExpressionParser } from 'cron-parser';
import { z } from 'zod';
import { describeNode } from '../node-descriptor';

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Why a cron expression cannot run (read in UTC: the zone moves its times, never its syntax), or null. */
export function cronProblem(cron: string): string | null {
  const fields = cron.trim().split(/\s+/);
  if (fields.length === 6) return 'use 5 fields (minute hour day-of-month month day-of-week): schedules fire at most once a minute';
  try {
    CronExpressionParser.parse(cron, { tz: 'UTC' }).next();
    return null;
  } catch (e) {
    const example = 'enter 5 fields, minute hour day-of-month month day-of-week, such as 0 2 * * * (every day at 02:00)';
    // the parser's own words help only about an expression of the right shape ("30 February never comes")
    return fields.length === 5 ? `not a valid cron expression: ${(e as Error).message}` : `not a valid cron expression: ${example}`;
  }
}

// each field is checked on its own, so a bad time zone and a bad cron are reported together
const Config = z.object({
  cron: z
    .string()
    .min(1, 'a cron expression is required')
    .max(200)
    .superRefine((cron, ctx) => {
      const problem = cronProblem(cron);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(
      [
        'When to run: standard cron, minute hour day-of-month month day-of-week (no seconds: schedules fire at most once',
        'a minute); ranges 1-5, lists 1,15, steps */15, names MON/JAN, and @hourly, @daily, @weekly, @monthly, @yearly',
      ].join(' '),
    ),
  timezone: z
    .string()
    .refine(isTimeZone, 'not a known IANA time zone (e.g. "UTC", "America/Chicago")')
    .default('UTC')
    .describe('IANA time zone the cron expression is read in, through daylight-saving changes (0 2 * * * in America/Chicago is 02:00 Chicago time)'),
  inputs: z.record(z.string(), z.unknown()).default({}).describe('Fixed values merged into every run’s inputs'),
});

type Config = z.infer<typeof Config>;

/** The next `count` times the schedule fires after `from` (ISO strings), for the scheduler and the editor. */
export function nextRuns(config: Pick<Config, 'cron' | 'timezone'>, count = 5, from: Date = new Date()): string[] {
  const expression = CronExpressionParser.parse(config.cron, { tz: config.timezone, currentDate: from });
  return expression.take(count).map((d) => d.toISOString() ?? '');
}

export const scheduleTrigger = describeNode({
  id: 'schedule-trigger',
  name: 'Schedule trigger',
  idBase: 'schedule',
  category: 'control',
  description: 'Starts a deployed pipeline on a cron schedule (every night, every 15 minutes…).',
  version: '1.0.0',
  keywords: ['schedule', 'cron', 'timer', 'periodic', 'nightly', 'interval', 'batch', 'trigger'],
  side_effect: 'none',
  trigger: {
    events: ['schedule'],
    toInputs: (event, config) => (event.kind === 'schedule' ? { ...config.inputs, scheduled_at: event.at } : {}),
    sampleInputs: (config) => ({ ...config.inputs }),
  },
  documentation: [
    'Runs the pipeline on a schedule while it is **deployed**; undeploying stops the schedule. Each run is',
    'an ordinary execution (listed with the others) whose inputs are `{"scheduled_at": <ISO time>, …inputs}`,',
    'e.g. `{"scheduled_at": "2025-01-06T02:00:00.000Z", "source": "nightly"}`. The cron expression is checked',
    'when the pipeline is saved; a changed schedule takes effect when that version is deployed (production',
    'runs the deployed version until the next deploy).',
    '',
    'A manual or test run of a scheduled pipeline gets the same shape: missing `scheduled_at` is the',
    'current time and `inputs` fill any key the request did not give.',
    '',
    '**Examples**: `*/15 * * * *` every 15 minutes; `0 2 * * *` nightly at 02:00; `0 6 * * MON-FRI` weekdays',
    'at 06:00; `0 0 1 * *` the first of each month.',
  ].join('\n'),
  config: Config,
  example: { cron: '0 2 * * *', timezone: 'UTC', inputs: { source: 'nightly' } },
  plan: {
    role: 'trigger',
    stage: 'trigger',
    search: false,
    starts: () => [{ port: 'event', flow: { type: 'trigger-event', kind: 'event' } }],
    configure: (a) => {
      if (!a.schedule) {
        a.missing.push('schedule: the description names none (e.g. "every day at 6", "every 15 minutes")');
        return;
      }
      const s = a.schedule!;
      a.config.cron = s.cron;
      if (s.timezone) a.config.timezone = s.timezone;
      a.filled.push(`cron ${s.cron}${s.timezone ? ` (${s.timezone})` : ''}`);
    },
  },
  ui: { order: ['cron', 'timezone', 'inputs'], fields: { cron: { title: 'Schedule (cron)', widget: 'cron', placeholder: '0 2 * * *' } } },
  ports: () => ({ inputs: [], outputs: [{ name: 'event', type: 'trigger-event', description: '{scheduled_at, …inputs}' }] }),
  errors: {},
});
