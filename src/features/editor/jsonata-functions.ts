/**
 * JSONata's standard library (docs.jsonata.org, function library), plus the `$hl7`/`$hl7all` bindings our
 * JSONata nodes add: name, signature and one line on what it does, for the expression editor's completions.
 */
export interface JsonataFunction {
  name: string;
  signature: string;
  description: string;
}

const table: [string, string, string][] = [
  // strings
  ['string', '(arg, prettify?)', 'Casts a value to a string (objects and arrays as JSON).'],
  ['length', '(str)', 'Number of characters in a string.'],
  ['substring', '(str, start, length?)', 'Part of a string from a zero-based start, optionally this long.'],
  ['substringBefore', '(str, chars)', 'The part of a string before the first occurrence of chars.'],
  ['substringAfter', '(str, chars)', 'The part of a string after the first occurrence of chars.'],
  ['uppercase', '(str)', 'The string in upper case.'],
  ['lowercase', '(str)', 'The string in lower case.'],
  ['trim', '(str)', 'Strips leading and trailing whitespace and collapses runs of whitespace.'],
  ['pad', '(str, width, char?)', 'Pads a string to a width: positive pads right, negative pads left.'],
  ['contains', '(str, pattern)', 'True when the string contains the substring or matches the regex.'],
  ['split', '(str, separator, limit?)', 'Splits a string into an array by a substring or regex.'],
  ['join', '(array, separator?)', 'Joins an array of strings into one string.'],
  ['match', '(str, pattern, limit?)', 'Regex matches in a string, with their index and groups.'],
  ['replace', '(str, pattern, replacement, limit?)', 'Replaces occurrences of a substring or regex.'],
  ['eval', '(expr, context?)', 'Parses and evaluates a string holding a JSONata expression.'],
  ['base64encode', '(str)', 'Encodes a string as base 64.'],
  ['base64decode', '(str)', 'Decodes a base 64 string.'],
  ['encodeUrlComponent', '(str)', 'Percent-encodes a URL component.'],
  ['encodeUrl', '(str)', 'Percent-encodes a whole URL.'],
  ['decodeUrlComponent', '(str)', 'Decodes a percent-encoded URL component.'],
  ['decodeUrl', '(str)', 'Decodes a percent-encoded URL.'],
  // numbers
  ['number', '(arg)', 'Casts a string or boolean to a number.'],
  ['abs', '(number)', 'Absolute value.'],
  ['floor', '(number)', 'Rounds down to the nearest integer.'],
  ['ceil', '(number)', 'Rounds up to the nearest integer.'],
  ['round', '(number, precision?)', 'Rounds half to even, to a number of decimal places.'],
  ['power', '(base, exponent)', 'base raised to the power of exponent.'],
  ['sqrt', '(number)', 'Square root.'],
  ['random', '()', 'A pseudo-random number, 0 ≤ n < 1.'],
  ['formatNumber', '(number, picture, options?)', 'Formats a number with a decimal picture string, e.g. "#,##0.00".'],
  ['formatBase', '(number, radix?)', 'The number as a string in another base (2–36).'],
  ['formatInteger', '(number, picture)', 'An integer in words or numerals by a picture string.'],
  ['parseInteger', '(string, picture)', 'Parses an integer written by a picture string.'],
  // aggregation
  ['sum', '(array)', 'Sum of an array of numbers.'],
  ['max', '(array)', 'Largest number of an array.'],
  ['min', '(array)', 'Smallest number of an array.'],
  ['average', '(array)', 'Mean of an array of numbers.'],
  // booleans
  ['boolean', '(arg)', 'Casts a value to a boolean by JSONata truthiness rules.'],
  ['not', '(arg)', 'Boolean negation.'],
  ['exists', '(arg)', 'True when the expression yields a value.'],
  // arrays
  ['count', '(array)', 'Number of items in an array (1 for a single value).'],
  ['append', '(array1, array2)', 'Concatenates two arrays.'],
  ['sort', '(array, function?)', 'Sorts an array, optionally by a comparator function($a, $b).'],
  ['reverse', '(array)', 'The array in reverse order.'],
  ['shuffle', '(array)', 'The array in random order.'],
  ['distinct', '(array)', 'The array without duplicate values.'],
  ['zip', '(array1, …)', 'Convolves arrays: [[a1, b1], [a2, b2], …].'],
  // objects
  ['keys', '(object)', 'Array of the keys of an object (or of the objects of an array).'],
  ['lookup', '(object, key)', 'The value of a key in an object.'],
  ['spread', '(object)', 'Splits an object into an array of one-key objects.'],
  ['merge', '(array<object>)', 'Merges an array of objects into one (later keys win).'],
  ['sift', '(object, function)', 'The key/value pairs of an object for which function($v, $k) is true.'],
  ['each', '(object, function)', 'Calls function($v, $k) for every key/value pair; array of the results.'],
  ['error', '(message)', 'Throws an error with this message.'],
  ['assert', '(condition, message)', 'Throws an error with the message when condition is false.'],
  ['type', '(value)', 'The type of a value: "string", "number", "object", "array", …'],
  // dates and times
  ['now', '(picture?, timezone?)', 'The current time as an ISO 8601 timestamp (the same within one evaluation).'],
  ['millis', '()', 'The current time in milliseconds since the Unix epoch.'],
  ['fromMillis', '(number, picture?, timezone?)', 'Milliseconds since the epoch to a timestamp string.'],
  ['toMillis', '(timestamp, picture?)', 'A timestamp string to milliseconds since the epoch.'],
  // higher-order functions
  ['map', '(array, function)', 'Calls function($v, $i, $a) on every item; array of the results.'],
  ['filter', '(array, function)', 'The items for which function($v, $i, $a) is true.'],
  ['single', '(array, function?)', 'The one item that satisfies the function; an error when not exactly one.'],
  ['reduce', '(array, function, init?)', 'Folds an array with function($acc, $v) into one value.'],
  // our bindings
  ['hl7', '(message, path)', 'A field of an HL7 v2 message by path, e.g. $hl7($, "PID-5.1") (Clinflow).'],
  ['hl7all', '(message, path)', 'Every repetition of a field of an HL7 v2 message by path (Clinflow).'],
];

export const JSONATA_FUNCTIONS: readonly JsonataFunction[] = table.map(([name, signature, description]) => ({ name, signature, description }));
