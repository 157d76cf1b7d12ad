/**
 * Every password rule (docs/product.md#password-rules) in one place: the lengths, the character classes, and
 * the three rule sets built from them (registration, reset checklist, change-password meter). Pure functions
 * shared by the server (zod schemas) and the web forms (live checklist, strength meter).
 */

/** Shortest password accepted by sign-in, registration, reset and change. */
export const PASSWORD_MIN_LENGTH = 8;
/** The meter's second length point, and the length its hint suggests. */
export const PASSWORD_STRONG_LENGTH = 12;
/** Longest password accepted anywhere: Argon2 has no 72-byte cut, but a bound keeps hashing cheap to refuse. */
export const PASSWORD_MAX_LENGTH = 1024;

/** The character classes the rules count, each with the words the screens use for it. */
export const PASSWORD_CHARACTER_CLASSES = {
  lowercase: { pattern: /[a-z]/, hint: 'A lowercase letter', part: 'at least one lowercase letter' },
  uppercase: { pattern: /[A-Z]/, hint: 'An uppercase letter', part: 'at least one uppercase letter' },
  digit: { pattern: /\d/, hint: 'A number', part: 'at least one number' },
  special: { pattern: /[^A-Za-z\d]/, hint: 'A special character', part: null },
} as const;
export type PasswordCharacterClass = keyof typeof PASSWORD_CHARACTER_CLASSES;

export function hasCharacterClass(value: string, kind: PasswordCharacterClass): boolean {
  return PASSWORD_CHARACTER_CLASSES[kind].pattern.test(value);
}

/**
 * Registration: ≥ 8 characters with a lowercase, an uppercase and a digit; only letters, digits
 * and @$!%*?&.
 */
export const REGISTRATION_PASSWORD_PATTERN = new RegExp(
  `^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d)[A-Za-z\\d@$!%*?&]{${PASSWORD_MIN_LENGTH},}$`,
);
export const REGISTRATION_PASSWORD_MESSAGE = `Password must be at least ${PASSWORD_MIN_LENGTH} characters with uppercase, lowercase, and number`;
/** The only characters a registration password may hold besides letters and digits. */
export const REGISTRATION_PASSWORD_SPECIALS = '@$!%*?&';
const REGISTRATION_ALLOWED_CHARACTER = /[A-Za-z\d@$!%*?&]/;

/**
 * What is wrong with a registration password, or null. A character outside the allowed set is
 * named first: the composition message alone ('…with uppercase, lowercase, and number') hid
 * that cause from someone whose password had all three plus a `#`.
 */
export function registrationPasswordProblem(value: string): string | null {
  const refused = [...new Set([...value].filter((char) => !REGISTRATION_ALLOWED_CHARACTER.test(char)))];
  if (refused.length > 0) {
    const named = refused.map((char) => (/\s/.test(char) ? 'spaces' : `“${char}”`)).join(', ');
    return `Password can't contain ${named}: use letters, numbers and ${REGISTRATION_PASSWORD_SPECIALS} only`;
  }
  return REGISTRATION_PASSWORD_PATTERN.test(value) ? null : REGISTRATION_PASSWORD_MESSAGE;
}

/** Reset: the four parts of the live checklist, in the checklist's order. */
export const RESET_PASSWORD_PARTS = [
  {
    key: 'length',
    label: `at least ${PASSWORD_MIN_LENGTH} characters long`,
    test: (value: string) => value.length >= PASSWORD_MIN_LENGTH,
  },
  ...(['uppercase', 'lowercase', 'digit'] as const).map((kind) => ({
    key: kind,
    label: PASSWORD_CHARACTER_CLASSES[kind].part,
    test: (value: string) => hasCharacterClass(value, kind),
  })),
];

/** 'Password must contain at least 8 characters long, at least one number' — the missing parts, or null. */
export function describeMissingResetParts(value: string): string | null {
  const missing = RESET_PASSWORD_PARTS.filter((part) => !part.test(value)).map((part) => part.label);
  return missing.length === 0 ? null : `Password must contain ${missing.join(', ')}`;
}

/** The meter's character hints, in the order it lists them (suggestions, not rules). */
export const STRENGTH_HINT_CLASSES = ['uppercase', 'lowercase', 'digit', 'special'] as const;

/** Change-password meter: one point each for ≥ 8, ≥ 12, lowercase, uppercase, digit, other. */
const STRENGTH_POINTS: ((value: string) => boolean)[] = [
  (value) => value.length >= PASSWORD_MIN_LENGTH,
  (value) => value.length >= PASSWORD_STRONG_LENGTH,
  ...(['lowercase', 'uppercase', 'digit', 'special'] as const).map(
    (kind) => (value: string) => hasCharacterClass(value, kind),
  ),
];
export const PASSWORD_STRENGTH_MAX = STRENGTH_POINTS.length;

export type PasswordStrength = { score: number; label: 'Weak' | 'Medium' | 'Strong' };

export function scorePasswordStrength(value: string): PasswordStrength {
  const score = STRENGTH_POINTS.filter((point) => point(value)).length;
  return { score, label: score <= 2 ? 'Weak' : score <= 4 ? 'Medium' : 'Strong' };
}
