import { DEFAULT_RESET_RETRY_S } from '#shared/constants.ts';

/**
 * The auth screens' texts (docs/product.md#screens-and-routes) that are not already in the shared schemas.
 */
export const AUTH_MESSAGES = {
  loginFailed: 'Login failed',
  registrationFailed: 'Registration failed',
  network: 'Network error. Please try again.',

  verifyInvalid: 'Invalid or expired verification token. Please request a new verification email.',
  verifyNotFound: 'Verification token not found. The link may have expired or already been used.',
  verifyServer: 'Server error occurred. Please try again later or contact support.',
  verifyMissingToken:
    'No verification token found in the URL. Please make sure you clicked the correct link from your email.',
  verifyNetwork: 'Network error. Please check your internet connection and try again.',
  verifyFallback: 'An unexpected error occurred during email verification. Please try again.',

  forgotFailed: 'Failed to send password reset email',
  forgotSent: 'If the email exists, a password reset link has been sent.',
  resendFailed: 'Failed to send verification email',

  resetMissingToken: 'Invalid reset link. Please request a new password reset.',
  resetInvalidToken: 'Invalid or expired reset token. Please request a new password reset.',
  resetCheckFailed: 'Failed to verify reset token',
  resetFailed: 'Failed to reset password',
} as const;

/** n = retry_after (default DEFAULT_RESET_RETRY_S) / 60, rounded up. */
export function tooManyResetRequests(retryAfterSeconds: number | undefined): string {
  const minutes = Math.ceil((retryAfterSeconds ?? DEFAULT_RESET_RETRY_S) / 60);
  return `Too many password reset requests. Please try again in ${minutes} minutes.`;
}
