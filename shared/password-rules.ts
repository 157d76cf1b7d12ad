/**
 * The three password rule sets of SPEC §5, one per flow. Pure functions shared by the server
 * (zod schemas) and the web forms (live checklist, strength meter).
 */

/** Registration: ≥ 8 characters with a lowercase, an uppercase and a digit; only letters, digits and @$!%*?&. */
export const REGISTRATION_PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z\d@$!%*?&]{8,}$/;
export const REGISTRATION_PASSWORD_MESSAGE =
  'Password must be at least 8 characters with uppercase, lowercase, and number';

/** Reset: the four parts of the live checklist, in SPEC's order. */
export const RESET_PASSWORD_PARTS = [
  { key: 'length', label: 'at least 8 characters long', test: (value: string) => value.length >= 8 },
  { key: 'uppercase', label: 'at least one uppercase letter', test: (value: string) => /[A-Z]/.test(value) },
  { key: 'lowercase', label: 'at least one lowercase letter', test: (value: string) => /[a-z]/.test(value) },
  { key: 'number', label: 'at least one number', test: (value: string) => /\d/.test(value) },
] as const;

/** 'Password must contain at least 8 characters long, at least one number' — the missing parts, or null. */
export function describeMissingResetParts(value: string): string | null {
  const missing = RESET_PASSWORD_PARTS.filter((part) => !part.test(value)).map((part) => part.label);
  return missing.length === 0 ? null : `Password must contain ${missing.join(', ')}`;
}

export type PasswordStrength = { score: number; label: 'Weak' | 'Medium' | 'Strong' };

/** Change-password meter: one point each for ≥ 8, ≥ 12, lowercase, uppercase, digit, other. */
export function scorePasswordStrength(value: string): PasswordStrength {
  const score = [
    value.length >= 8,
    value.length >= 12,
    /[a-z]/.test(value),
    /[A-Z]/.test(value),
    /\d/.test(value),
    /[^A-Za-z\d]/.test(value),
  ].filter(Boolean).length;
  return { score, label: score <= 2 ? 'Weak' : score <= 4 ? 'Medium' : 'Strong' };
}

/** Longest password accepted anywhere: Argon2 has no 72-byte cut, but a bound keeps hashing cheap to refuse. */
export const PASSWORD_MAX_LENGTH = 1024;
