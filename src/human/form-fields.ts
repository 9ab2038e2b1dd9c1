/**
 * The vocabulary of a decision form: every field is a select (a closed list of choices in words)
 * or a text (a typed line with a length cap). A renderer — the seat page's <form>, the terminal's
 * numbered menus — iterates `fields` and needs nothing else.
 */

/** One choice of a select: the wire value and what a person reads. */
export type Choice = { value: string; label: string };

export type SelectField = { kind: 'select'; key: string; label: string; options: readonly Choice[]; value: string };
export type TextField = {
  kind: 'text';
  key: string;
  label: string;
  /** The protocol's cap; a longer value is kept (so the person sees it) and reported by problemsOf. */
  max: number;
  value: string;
  /** An empty text is a legal answer (e.g. a reflection note); otherwise problemsOf asks for words. */
  optional: boolean;
};
export type FormField = SelectField | TextField;

export type Values = Readonly<Record<string, string>>;

/**
 * Collects the fields of a form in order while re-deriving each one from the values wanted so far:
 * a select keeps a wanted value only when it is one of its current options (else its default), so
 * a form built from any values is legal in every select. Later fields read the returned values.
 */
export class FieldList {
  readonly fields: FormField[] = [];
  constructor(private readonly wanted: Values) {}

  /** Adds a select; returns its value (the wanted one when offered, else `fallback`, else the first option). */
  select(key: string, label: string, options: readonly Choice[], fallback?: string): string {
    const want = this.wanted[key];
    const offered = (v: string | undefined) => v !== undefined && options.some((o) => o.value === v);
    const value = offered(want) ? want! : offered(fallback) ? fallback! : (options[0]?.value ?? '');
    this.fields.push({ kind: 'select', key, label, options, value });
    return value;
  }

  /** Adds a text; returns its value as typed (or `fallback` when none was typed yet). */
  text(key: string, label: string, max: number, optional: boolean, fallback = ''): string {
    const value = this.wanted[key] ?? fallback;
    this.fields.push({ kind: 'text', key, label, max, value, optional });
    return value;
  }
}

/** The current values of a form's fields by key. */
export const valuesOf = (fields: readonly FormField[]): Record<string, string> => Object.fromEntries(fields.map((f) => [f.key, f.value]));

/** Words for a text field that is too long or empty where words are needed (empty list when fine). */
export function textProblems(fields: readonly FormField[]): string[] {
  const out: string[] = [];
  for (const f of fields) {
    if (f.kind !== 'text') continue;
    if (f.value.length > f.max) out.push(`${f.label}: ${f.value.length} characters, at most ${f.max}`);
    else if (!f.optional && f.value.trim() === '') out.push(`${f.label}: write something, or choose no line`);
  }
  return out;
}
