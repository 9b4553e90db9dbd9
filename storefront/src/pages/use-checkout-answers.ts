/**
 * The checkout form's answers (per order, or one set per seat): the sets as typed, a name merged a
 * part at a time, and their check by the same schema as the server's before Book (its zod loads in
 * a chunk of its own, fetched while the buyer types, so Book does not wait for it).
 */
import { useEffect, useState } from 'react';
import type { AnswerSet, FormAnswerValue, NameAnswer, PublicCourse } from '@studio/contracts';
import { answerSetCount } from '@studio/contracts/src/storefront/store-rules';
import { loadAnswerRules } from './checkout-form';

export function useCheckoutAnswers(form: PublicCourse['checkout_form'], party: number) {
  const [answers, setAnswers] = useState<AnswerSet[]>([]);
  const sets = answerSetCount(form, party);
  useEffect(() => {
    if (form) void loadAnswerRules().catch(() => undefined);
  }, [form]);

  const answer = (set: number, fieldId: string, value: FormAnswerValue | Partial<NameAnswer>) =>
    setAnswers((all) => {
      const next = [...all];
      const before = next[set]?.[fieldId];
      next[set] = {
        ...next[set],
        // A name is typed a part at a time: each part is merged into the name.
        [fieldId]:
          typeof value === 'object'
            ? { first_name: '', last_name: '', ...(typeof before === 'object' ? before : {}), ...value }
            : value,
      };
      return next;
    });
  /** The sets sent: one per set asked, empty when not answered. */
  const answersSent = () => Array.from({ length: sets }, (_, i) => answers[i] ?? {});

  /** The answers' errors by the same schema as the server's, or none (and none when it cannot load). */
  const checkAnswers = async (): Promise<Record<string, string>> => {
    if (!form || sets === 0) return {};
    try {
      const rules = await loadAnswerRules();
      const parsed = rules.formAnswersSchema(form, party).safeParse(answersSent());
      return parsed.success ? {} : rules.answerErrors(parsed.error);
    } catch {
      // The rules could not be fetched: the server checks the same and answers field by field.
      return {};
    }
  };

  return { answers, sets, answer, answersSent, checkAnswers };
}
