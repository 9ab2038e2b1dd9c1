import { useEffect, useState } from 'preact/hooks';
import { decisionOf, formFor, problemsOf, setField, type DecisionForm, type FormField } from '../../../src/human/decision-form.js';
import type { Pending, Sent, SeatSession } from './seat-session.js';

/** "1:05" from milliseconds (rounded up, so 0:00 only when the time is really gone). */
const clock = (ms: number): string => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** The time left on the pending decision, ticking each second; the seat's default is taken at 0:00. */
function Countdown({ pending }: { pending: Pending }) {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const t = setInterval(() => setNow(performance.now()), 1000);
    return () => clearInterval(t);
  }, [pending.requestId]);
  if (pending.deadline === null) return null;
  const left = pending.deadline - now;
  const urgent = left < 15_000;
  return (
    <p class={`seat-clock${urgent ? ' urgent' : ''}`} data-testid="decision-clock" aria-label={`time left: ${clock(left)}`}>
      <span aria-hidden="true">{clock(left)}</span> <span class="muted">left{pending.timeoutMs ? ` of ${clock(pending.timeoutMs)}` : ''}; then your seat takes its default</span>
    </p>
  );
}

/** One field: a labelled select or a text line; a text over its cap is kept, and said to be too long. */
function Field({ field, set }: { field: FormField; set: (key: string, value: string) => void }) {
  const id = `f-${field.key}`;
  if (field.kind === 'select')
    return (
      <div class="seat-field">
        <label for={id}>{field.label}</label>
        <select id={id} name={field.key} value={field.value} onChange={(e) => set(field.key, (e.target as HTMLSelectElement).value)}>
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
    );
  const over = field.value.length > field.max;
  return (
    <div class="seat-field">
      <label for={id}>{field.label}</label>
      <input id={id} name={field.key} type="text" autoComplete="off" value={field.value} aria-invalid={over} onInput={(e) => set(field.key, (e.target as HTMLInputElement).value)} />
      <span class={`count${over ? ' error' : ' muted'}`}>
        {field.value.length}/{field.max}
      </span>
    </div>
  );
}

/**
 * The pending decision as a form: every field from the headless form model (src/human), checked as
 * the person edits (problems shown inline), pre-filled with a legal answer, so pressing submit
 * alone plays. A refusal from the engine (422) is shown in its words and the form stays.
 */
export function DecisionPanel({ session, pending }: { session: SeatSession; pending: Pending }) {
  // The page keys this panel by request id: a new request starts a fresh form.
  const [form, setForm] = useState<DecisionForm>(() => formFor(pending.request));
  const [verdict, setVerdict] = useState<Sent | null>(null);
  const [sending, setSending] = useState(false);
  const problems = problemsOf(form);
  const submit = async (e: Event) => {
    e.preventDefault();
    setSending(true);
    try {
      const sent = await session.submit(decisionOf(form));
      setVerdict(sent.ok ? null : sent);
    } catch (err) {
      setVerdict({ ok: false, status: 0, code: 'network', message: err instanceof Error ? err.message : String(err) });
    } finally {
      setSending(false);
    }
  };
  return (
    <section class="panel seat-decision" aria-labelledby="decision-h">
      <h2 id="decision-h">{form.title}</h2>
      <Countdown pending={pending} />
      {form.notes.map((n) => (
        <p key={n} class="seat-note" role="note">
          {n}
        </p>
      ))}
      <form data-testid="decision" data-window={form.window} data-request={pending.requestId} onSubmit={(e) => void submit(e)} aria-describedby={problems.length ? 'decision-problems' : undefined}>
        {form.fields.map((f) => (
          <Field key={f.key} field={f} set={(k, v) => setForm((cur) => setField(cur, k, v))} />
        ))}
        {form.fields.length === 0 && <p class="muted">Nothing to choose: confirm to go on.</p>}
        {problems.length > 0 && (
          <ul id="decision-problems" class="error seat-problems" data-testid="decision-problems" aria-live="polite">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
        {verdict && !verdict.ok && (
          <p class="error" role="alert" data-testid="decision-verdict" data-code={verdict.code}>
            {verdict.status === 409 ? 'Too late: this decision is no longer open (its time ran out, or the game moved on).' : `Refused: ${verdict.message}`} <span class="muted">({verdict.code})</span>
          </p>
        )}
        <button type="submit" data-testid="submit-decision" disabled={sending}>
          {sending ? 'Sending…' : 'Submit'}
        </button>
      </form>
    </section>
  );
}
