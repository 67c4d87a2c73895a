import { type Step, step } from './fhir-elements';
import { DATE_LIKE, NOT_TEXT } from './fhir-actions';
import { type FieldRule, type FieldRules, fieldRule, first, type PresetTable, type Trie } from './fhir-preset-table';

/**
 * What the compiled preset's two walks ask of each field of an object, kept per place of a resource: the model's
 * step, the first rule reaching the field, the rules along paths below it, and what a string there gets. All of it
 * depends on where the object is (its model path and type, the rules reaching its fields, whether its strings are the
 * resource's own) and on the field's name, never on the message: it was computed again for every field of every
 * message (a third of the compiled preset's time), and is now computed the first time a place and a field meet.
 */

type Json = Record<string, unknown>;

export interface FieldPlan {
  step: Step;
  /** The first rule reaching the field, unless `choices` (then `rule(o)` asks the object) */
  rule: FieldRule | undefined;
  /** A rule names a field this key is a choice of (`deceased` for `deceasedDateTime`): whether it reaches depends on the object */
  choices: boolean;
  /** The rules along paths from the resource below this field */
  tries: Trie[];
  /** A string here is one of the resource's own (its hash applies) */
  own: boolean;
  /** What a string here gets when it looks like a date, and when it does not (`rule` and `choices` false only) */
  ifDate: FieldRule | undefined;
  otherwise: FieldRule | undefined;
  /** The place of an object value that is not a resource (made when first asked) */
  child: Place | undefined;
  /** The places of contained resources here, by type */
  contained: Map<string, Place> | undefined;
}

export class Place {
  private readonly fields = new Map<string, FieldPlan>();

  constructor(
    private readonly table: PresetTable,
    readonly path: string,
    /** The model's type of the object (null outside the model) */
    readonly type: string | null,
    /** Its data type's rules */
    readonly byType: FieldRules | undefined,
    /** The rules for fields of the resource and of elements along paths from it that reach here */
    readonly tries: Trie[],
    /** The resource's own strings are hashed here (its own backbone elements; `ownRule` is the rule doing it) */
    readonly ownRule: FieldRule | undefined,
  ) {}

  /** What field `k` of an object here gets. */
  field(k: string): FieldPlan {
    let plan = this.fields.get(k);
    if (plan === undefined) {
      if (++made > 100_000) forget(this.table);
      this.fields.set(k, (plan = this.plan(k)));
    }
    return plan;
  }

  /** The first rule reaching field `k` of `o`, as fieldRule over the data type's rules then each trie's finds it. */
  rule(plan: FieldPlan, o: Json, k: string): FieldRule | undefined {
    if (!plan.choices) return plan.rule;
    let rule = this.byType && fieldRule(this.byType, o, k);
    for (const t of this.tries) rule = first(rule, fieldRule(t.fields, o, k));
    return rule;
  }

  /** What string `x` at field `k` of `o` gets: its field's rule, the resource's own hash, or an element-wide walk's. */
  stringRule(plan: FieldPlan, o: Json, k: string, x: string): FieldRule | undefined {
    if (!plan.choices) return plan.ifDate === plan.otherwise ? plan.otherwise : DATE_LIKE.test(x) ? plan.ifDate : plan.otherwise;
    return this.pick(this.rule(plan, o, k), k, DATE_LIKE.test(x), plan.own);
  }

  /** The place of an object at field `k` (a contained resource when `rt`). */
  child(plan: FieldPlan, rt: string | undefined): Place {
    const { table } = this;
    if (rt) {
      let place = (plan.contained ??= new Map()).get(rt);
      if (!place) plan.contained.set(rt, (place = new Place(table, rt, rt, table.byType.get(rt), plan.tries, undefined)));
      return place;
    }
    const s = plan.step;
    return (plan.child ??= new Place(
      table,
      s.typedPath,
      s.type,
      s.type === null ? undefined : table.byType.get(s.type),
      plan.tries,
      s.type === 'BackboneElement' ? this.ownRule : undefined,
    ));
  }

  private plan(k: string): FieldPlan {
    const s = step(this.path, k);
    const holders = [...(this.byType ? [this.byType] : []), ...this.tries.map((t) => t.fields)];
    const choices = holders.some((fields) => [...fields.keys()].some((f) => k.length > f.length && k.startsWith(f) && isUpper(k.charCodeAt(f.length))));
    let rule: FieldRule | undefined;
    if (!choices) {
      const none: Json = {};
      rule = this.byType && fieldRule(this.byType, none, k);
      for (const t of this.tries) rule = first(rule, fieldRule(t.fields, none, k));
    }
    const tries = this.tries.length === 0 ? this.tries : this.tries.map((t) => t.children.get(k)).filter((t): t is Trie => t !== undefined);
    const own = this.ownRule !== undefined && (s.type === 'string' || s.type === 'markdown');
    return {
      step: s,
      own,
      rule,
      choices,
      tries,
      ifDate: choices ? undefined : this.pick(rule, k, true, own),
      otherwise: choices ? undefined : this.pick(rule, k, false, own),
      child: undefined,
      contained: undefined,
    };
  }

  /** The rule a string gets: the field's, the resource's own hash if before it, then the first element-wide walk before both that wants it. */
  private pick(rule: FieldRule | undefined, k: string, dateLike: boolean, own: boolean): FieldRule | undefined {
    let best = rule;
    if (own && (!best || this.ownRule!.rule < best.rule)) best = this.ownRule;
    for (const w of this.table.walks) {
      if (best && best.rule < w.rule) break;
      if (w.action === 'date-shift' ? dateLike : !NOT_TEXT.has(k)) {
        best = w;
        break;
      }
    }
    return best;
  }
}

const isUpper = (c: number) => c >= 65 && c <= 90;

/** Fields planned since the places were last forgotten: an input with ever new field names must not grow them without end */
let made = 0;
const roots = new WeakMap<PresetTable, Map<string, Place>>();

function forget(table: PresetTable): void {
  made = 0;
  roots.delete(table);
}

/** The place of a resource of type `rt` at the top of an input (a Bundle's entry or the input itself). */
export function rootPlace(table: PresetTable, rt: string): Place {
  let byType = roots.get(table);
  if (!byType) roots.set(table, (byType = new Map()));
  let place = byType.get(rt);
  if (!place) {
    const tries = [table.roots.get('*'), table.roots.get(rt)].filter((t): t is Trie => t !== undefined);
    const own = table.ownStrings.get(rt);
    byType.set(rt, (place = new Place(table, rt, rt, undefined, tries, own === undefined ? undefined : { rule: own, action: 'hash' })));
  }
  return place;
}
