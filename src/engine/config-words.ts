import type { z } from 'zod';
import type { NodeDescriptor } from './node-descriptor';
import { fieldTitle } from './node-docs';

/**
 * Config problems as the form shows the field and as a person would say what to enter: "Date shift days:
 * enter 1 or more", not "config.date_shift_days: Too small: expected number to be >=1".
 */

/** The label of the field at `path` in a node's config form: its title, items by number ("Rules › item 2 › Path"). */
export function configFieldLabel(d: Pick<NodeDescriptor, 'ui'> | undefined, path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'Config';
  return path
    .map((step, i) => {
      if (typeof step === 'number') return `item ${step + 1}`;
      const name = String(step);
      return (i === 0 ? d?.ui?.fields?.[name]?.title : undefined) ?? fieldTitle(name);
    })
    .join(' › ');
}

const WHAT: Record<string, string> = {
  string: 'some text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'yes or no',
  object: 'a set of named values ({ … })',
  array: 'a list',
  record: 'a set of named values ({ … })',
};

const FORMATS: Record<string, string> = { url: 'a full URL (https://…)', email: 'an email address', uuid: 'an id (a UUID)', regex: 'a regular expression' };

function what(type: string): string {
  return WHAT[type] ?? `a value of type ${type}`;
}

/** What to enter, for one problem zod found. */
export function configProblemInWords(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      // zod keeps the input only when asked to; its message says what it received
      return /received (undefined|null)\b/.test(issue.message) ? `is required: enter ${what(issue.expected)}` : `enter ${what(issue.expected)}`;
    case 'invalid_value':
      return `pick one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `has no setting${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}: remove ${issue.keys.length > 1 ? 'them' : 'it'}`;
    case 'too_small': {
      const n = Number(issue.minimum);
      if (issue.origin === 'string') return n <= 1 ? 'is required: fill it in' : `enter at least ${n} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `add at least ${n} item${n === 1 ? '' : 's'}`;
      return issue.inclusive === false ? `enter more than ${n}` : `enter ${n} or more`;
    }
    case 'too_big': {
      const n = Number(issue.maximum);
      if (issue.origin === 'string') return `enter at most ${n} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `keep to ${n} item${n === 1 ? '' : 's'} or fewer`;
      return issue.inclusive === false ? `enter less than ${n}` : `enter ${n} or less`;
    }
    case 'invalid_format':
      return `enter ${FORMATS[issue.format] ?? `a valid ${issue.format}`}`;
    case 'not_multiple_of':
      return `enter a multiple of ${String(issue.divisor)}`;
    case 'invalid_union':
      return "does not match any of the shapes it takes: see the node's documentation";
    default:
      return issue.message;
  }
}

/** One config problem of a node, led by the field's label. */
export function configProblem(d: Pick<NodeDescriptor, 'ui'> | undefined, issue: z.core.$ZodIssue): string {
  const words = configProblemInWords(issue);
  const joiner = /^(is|has|does) /.test(words) ? ' ' : ': ';
  return `${configFieldLabel(d, issue.path)}${joiner}${words}`;
}
