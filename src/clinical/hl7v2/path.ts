/**
 * HL7 paths, as engineers write them: `PID-5` (field), `PID-5.1` (component), `PID-5.1.2` (sub-component),
 * `PID-3[2].1` (second repetition), `OBX[2]-5` (second OBX), `OBX[*]-5` / `PID-3[*]` (every one). A dot or a
 * hyphen may separate the numbers (`PID.5.1`, `PID-5-1`); segment ids are upper-cased.
 */
export interface Hl7Path {
  segment: string;
  /** 1-based occurrence of the segment; `*` every one; absent: the first (get) or every one (getAll) */
  occurrence?: number | '*';
  field: number;
  /** 1-based repetition; `*` every one; absent: the first (get) or every one (getAll) */
  repetition?: number | '*';
  component?: number;
  subcomponent?: number;
}

export class Hl7PathError extends Error {
  readonly code = 'HL7_PATH_INVALID';
  constructor(readonly path: string) {
    super(`Not an HL7 path: ${JSON.stringify(path)} (write a segment id and field number, as in PID-5, PID-5.1, PID-3[2].1, OBX[2]-5 or OBX[*]-5).`);
    this.name = 'Hl7PathError';
  }
}

const PATH = /^([A-Za-z][A-Za-z0-9]{2})(?:\[(\d+|\*)\])?[-.](\d+)(?:\[(\d+|\*)\])?(?:[-.](\d+)(?:[-.](\d+))?)?$/;

const cache = new Map<string, Hl7Path>();

function index(text: string | undefined): number | '*' | undefined {
  if (text === undefined) return undefined;
  return text === '*' ? '*' : Number(text);
}

/** Reads a path; throws Hl7PathError when it is not one. */
export function parsePath(path: string): Hl7Path {
  const hit = cache.get(path);
  if (hit) return hit;
  const m = typeof path === 'string' ? PATH.exec(path.trim()) : null;
  if (!m) throw new Hl7PathError(String(path));
  const parsed: Hl7Path = {
    segment: m[1]!.toUpperCase(),
    ...(m[2] !== undefined ? { occurrence: index(m[2]) } : {}),
    field: Number(m[3]),
    ...(m[4] !== undefined ? { repetition: index(m[4]) } : {}),
    ...(m[5] !== undefined ? { component: Number(m[5]) } : {}),
    ...(m[6] !== undefined ? { subcomponent: Number(m[6]) } : {}),
  };
  const zero = [parsed.occurrence, parsed.repetition, parsed.component, parsed.subcomponent].some((n) => n === 0) || parsed.field === 0;
  if (zero) throw new Hl7PathError(path);
  if (cache.size > 1_000) cache.clear();
  cache.set(path, parsed);
  return parsed;
}

/** A path written back the usual way (`OBX[2]-5.1`). */
export function formatPath(p: Hl7Path): string {
  const occ = p.occurrence !== undefined ? `[${p.occurrence}]` : '';
  const rep = p.repetition !== undefined ? `[${p.repetition}]` : '';
  const comp = p.component !== undefined ? `.${p.component}` : '';
  const sub = p.subcomponent !== undefined ? `.${p.subcomponent}` : '';
  return `${p.segment}${occ}-${p.field}${rep}${comp}${sub}`;
}
