const MAX_PATHS = 80;

/** The JSONata paths of a value (`name[0].family`), for the field picker; arrays show their first item. */
export function pathsOf(value: unknown, prefix = '', depth = 0, out: { path: string; sample: string }[] = []): { path: string; sample: string }[] {
  if (out.length >= MAX_PATHS || depth > 5) return out;
  if (Array.isArray(value)) {
    const first: unknown = value[0];
    if (first !== null && typeof first === 'object') pathsOf(first, `${prefix}[0]`, depth + 1, out);
    else if (value.length > 0 && prefix) out.push({ path: `${prefix}[0]`, sample: JSON.stringify(first) ?? '' });
    return out;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const name = /^[A-Za-z_$][\w$]*$/.test(k) ? k : `\`${k.replace(/`/g, '')}\``;
      const path = prefix ? `${prefix}.${name}` : name;
      if (v !== null && typeof v === 'object') pathsOf(v, path, depth + 1, out);
      else if (out.length < MAX_PATHS) out.push({ path, sample: JSON.stringify(v) ?? '' });
    }
  }
  return out;
}

