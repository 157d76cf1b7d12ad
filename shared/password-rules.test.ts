import { describe, expect, it } from 'vitest';
import {
  describeMissingResetParts,
  REGISTRATION_PASSWORD_PATTERN,
  registrationPasswordProblem,
  scorePasswordStrength,
} from './password-rules.ts';

describe('registration pattern', () => {
  it.each([
    ['Passw0rd', true],
    ['Passw0rd@$!%*?&', true],
    ['password1', false],
    ['PASSWORD1', false],
    ['Password', false],
    ['Pa1', false],
    ['Passw0rd#', false],
    ['Pass w0rd', false],
  ])('%s → %s', (value, ok) => {
    expect(REGISTRATION_PASSWORD_PATTERN.test(value)).toBe(ok);
  });
});

describe('registrationPasswordProblem', () => {
  it('names characters outside the allowed set before the composition rule', () => {
    expect(registrationPasswordProblem('Passw0rd#')).toBe(
      "Password can't contain “#”: use letters, numbers and @$!%*?& only",
    );
    expect(registrationPasswordProblem('pass word#~#')).toBe(
      "Password can't contain spaces, “#”, “~”: use letters, numbers and @$!%*?& only",
    );
    expect(registrationPasswordProblem('password1')).toBe(
      'Password must be at least 8 characters with uppercase, lowercase, and number',
    );
    expect(registrationPasswordProblem('Passw0rd@$!')).toBeNull();
  });
});

describe('reset checklist', () => {
  it('lists only the missing parts in order', () => {
    expect(describeMissingResetParts('abc')).toBe(
      'Password must contain at least 8 characters long, at least one uppercase letter, at least one number',
    );
    expect(describeMissingResetParts('abcdefgH')).toBe('Password must contain at least one number');
    expect(describeMissingResetParts('abcdefH1')).toBeNull();
  });
});

describe('strength meter', () => {
  it.each([
    ['', 0, 'Weak'],
    ['abc', 1, 'Weak'],
    ['abcdefgh', 2, 'Weak'],
    ['abcdefgH', 3, 'Medium'],
    ['abcdefH1', 4, 'Medium'],
    ['abcdefH1!', 5, 'Strong'],
    ['abcdefghH1!x', 6, 'Strong'],
  ])('%s scores %i (%s)', (value, score, label) => {
    expect(scorePasswordStrength(value)).toEqual({ score, label });
  });
});
