import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeDecision } from '../../src/runner/judge-decision.js';
import { decisionOf, formFor, problemsOf, setField, type DecisionForm } from '../../src/human/decision-form.js';
import { requestsOf, type Asked } from './requests.js';

const game = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  seats: fc.integer({ min: 2, max: 5 }),
  compact: fc.boolean(),
});

/** Applies each edit (field index, option index or typed text) to whichever field it lands on. */
function edited(form: DecisionForm, edits: readonly [number, number, string][]): DecisionForm {
  let f = form;
  for (const [i, j, text] of edits) {
    const field = f.fields[i % Math.max(1, f.fields.length)];
    if (!field) break;
    f = setField(f, field.key, field.kind === 'select' ? (field.options[j % field.options.length]?.value ?? '') : text);
  }
  return f;
}

const verdict = ({ state, request }: Asked, form: DecisionForm) => judgeDecision(state, request.player_id, request.window, decisionOf(form));

describe('the decision form against the engine, over real requests of seeded games', () => {
  it('given any request, when the person only submits, then the engine takes the default form as it is', () => {
    fc.assert(
      fc.property(game, (g) => {
        for (const asked of requestsOf({ ...g, round_cap: 4 }, 3)) {
          const form = formFor(asked.request);
          expect(problemsOf(form)).toEqual([]);
          expect(verdict(asked, form), `${asked.request.window} ${JSON.stringify(decisionOf(form))}`).toBeNull();
        }
      }),
      { numRuns: 12 },
    );
  });

  it('given any edits through setField, then a form without problems is taken and one with problems is refused', () => {
    const edits = fc.array(fc.tuple(fc.nat(40), fc.nat(40), fc.oneof(fc.constant(''), fc.constant('reckless, I think'), fc.string({ minLength: 1, maxLength: 20 }), fc.constant('x'.repeat(501)))), { maxLength: 12 });
    fc.assert(
      fc.property(game, fc.array(edits, { minLength: 40, maxLength: 40 }), (g, perRequest) => {
        requestsOf({ ...g, round_cap: 4 }, 5).forEach((asked, k) => {
          const form = edited(formFor(asked.request), perRequest[k % perRequest.length]!);
          const problems = problemsOf(form);
          const v = verdict(asked, form);
          if (problems.length === 0) expect(v, `${asked.request.window} ${JSON.stringify(decisionOf(form))}`).toBeNull();
          // The form's checks are the engine's for text: a refused answer is one the form warned of.
          else expect(v ?? problems, JSON.stringify(decisionOf(form))).not.toBeNull();
          if (v) expect(problems.length).toBeGreaterThan(0);
        });
      }),
      { numRuns: 12 },
    );
  });
});
