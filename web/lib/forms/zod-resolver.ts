import type { z } from 'zod';

/** A check the shared schema can't make because its input never reaches the server (a confirmation). */
export type ClientCheck<Values> = (values: Values) => Record<string, string | null>;

/**
 * Validates a @mantine/form form with a shared zod schema (their exact messages), then
 * adds client-only checks. Each field shows its first message; issues without a field path
 * (object-level ones without `path`) are dropped, since a form can only show field errors.
 */
export function zodResolver<Values>(
  schema: z.ZodType,
  ...checks: ClientCheck<Values>[]
): (values: Values) => Record<string, string> {
  return (values) => {
    const errors: Record<string, string> = {};
    const result = schema.safeParse(values);
    if (!result.success) {
      for (const issue of result.error.issues) {
        const field = issue.path.map(String).join('.');
        if (field && !(field in errors)) errors[field] = issue.message;
      }
    }
    for (const check of checks) {
      for (const [field, message] of Object.entries(check(values))) {
        if (message && !(field in errors)) errors[field] = message;
      }
    }
    return errors;
  };
}

export const CONFIRM_REQUIRED_MESSAGE = 'Please confirm your password';

/** The confirmation field must be filled in and equal the password field. */
export function confirmationCheck<Values extends object>(
  field: keyof Values & string,
  confirmField: keyof Values & string,
  mismatchMessage: string,
): ClientCheck<Values> {
  return (values) => {
    const confirmation: unknown = values[confirmField];
    if (typeof confirmation !== 'string' || confirmation === '') {
      return { [confirmField]: CONFIRM_REQUIRED_MESSAGE };
    }
    return { [confirmField]: confirmation === values[field] ? null : mismatchMessage };
  };
}
