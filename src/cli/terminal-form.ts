import { decisionOf, problemsOf, setField, type DecisionForm, type FormField } from '../human/decision-form.js';

/** A terminal as the menus use it: write text; read one typed line (null once input has ended). */
export type LinePort = {
  write(text: string): void;
  line(prompt: string): Promise<string | null>;
};

/** The person closed the input (Ctrl-D) mid-decision: the game cannot go on without them. */
export class InputEndedError extends Error {
  override readonly name = 'InputEndedError';
}

/** A select as numbered options, its current value marked as the Enter default. */
function menu(f: Extract<FormField, { kind: 'select' }>): string {
  const rows = f.options.map((o, i) => `  ${o.value === f.value ? '*' : ' '}${String(i + 1).padStart(2)}. ${o.label}`);
  return `${f.label}\n${rows.join('\n')}\n`;
}

/** The value a typed line picks for a select: Enter keeps the default; a number in range picks that option; anything else is null (ask again). */
export function pick(f: Extract<FormField, { kind: 'select' }>, typed: string): string | null {
  const t = typed.trim();
  if (t === '') return f.value;
  if (!/^\d{1,3}$/.test(t)) return null;
  return f.options[Number(t) - 1]?.value ?? null;
}

/**
 * Asks every field of `form` in order on the terminal — a select as numbered options, a text as a
 * typed line — and returns the form as the person left it. Enter keeps each field's current value
 * (the form comes pre-filled with a legal choice), so a person who only presses Enter answers
 * legally. A change re-derives the fields after it (setField), which are then asked as they are now.
 */
export async function askFields(port: LinePort, start: DecisionForm): Promise<DecisionForm> {
  let form = start;
  for (let i = 0; i < form.fields.length; i++) {
    const f = form.fields[i]!;
    if (f.kind === 'select') {
      // One option is no choice: say what it is and go on.
      if (f.options.length === 1) {
        port.write(`${f.label}: ${f.options[0]!.label}\n`);
        continue;
      }
      port.write(menu(f));
      for (;;) {
        const typed = await port.line(`Choose 1–${f.options.length} [Enter: ${f.options.findIndex((o) => o.value === f.value) + 1}]: `);
        if (typed === null) throw new InputEndedError('input ended');
        const value = pick(f, typed);
        if (value !== null) {
          form = setField(form, f.key, value);
          break;
        }
        port.write(`  type a number from 1 to ${f.options.length}, or press Enter\n`);
      }
    } else {
      const typed = await port.line(`${f.label}${f.value ? ` [Enter keeps “${f.value}”]` : ' [Enter: none]'}: `);
      if (typed === null) throw new InputEndedError('input ended');
      if (typed.trim() !== '') form = setField(form, f.key, typed.trim());
    }
  }
  return form;
}

/**
 * One decision on the terminal: the form's title and notes, its fields, then the checks — the
 * form's own (text too long, words missing) and the engine's verdict (`judge`) — in words; a
 * refused answer is asked again with the person's choices as the new defaults.
 *
 * @example await askDecision(port, formFor(request), judge) // { tactical_intent: 'build', emotional_intent: null }
 */
export async function askDecision(port: LinePort, start: DecisionForm, judge?: (decision: unknown) => { code: string; message: string } | null): Promise<unknown> {
  let form = start;
  for (;;) {
    port.write(`\n${form.title}\n${form.notes.map((n) => `  ${n}\n`).join('')}`);
    form = await askFields(port, form);
    const problems = problemsOf(form);
    if (problems.length) {
      port.write(problems.map((p) => `  ✗ ${p}\n`).join(''));
      continue;
    }
    const decision = decisionOf(form);
    const verdict = judge?.(decision) ?? null;
    if (!verdict) return decision;
    port.write(`  ✗ refused: ${verdict.message} (${verdict.code}); choose again\n`);
  }
}
