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

/**
 * `zodResolver` for a schema imported when first needed, for a first screen whose load should
 * not carry zod (docs/decisions.md, "The first screens"): `preload` starts the import (call it as
 * the visitor starts typing) and `validate`, an async rule for @mantine/form, waits for it. If the
 * import fails the form is sent unchecked: the server validates with the same schema.
 */
export function lazyZodResolver<Values>(load: () => Promise<z.ZodType>): {
  preload: () => void;
  validate: (values: Values) => Promise<Record<string, string>>;
} {
  let resolver: Promise<(values: Values) => Record<string, string>> | null = null;
  const resolve = () => {
    resolver ??= load().then((schema) => zodResolver<Values>(schema));
    // A failed import is asked again at the next submit.
    resolver.catch(() => {
      resolver = null;
    });
    return resolver;
  };
  return {
    preload: () => {
      resolve().catch(() => undefined);
    },
    validate: (values) =>
      resolve().then(
        (validate) => validate(values),
        () => ({}),
      ),
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
