import { describe, expect, it, vi } from 'vitest';
import { loginBodySchema, registerBodySchema } from '#shared/schemas/auth.ts';
import { confirmationCheck, lazyZodResolver, zodResolver } from './zod-resolver.ts';

describe('zodResolver', () => {
  it("maps the shared schema's issues to fields, first message per field", () => {
    const validate = zodResolver(loginBodySchema);
    expect(validate({ email_or_username: '', password: 'short' })).toEqual({
      email_or_username: 'Email or username is required',
      password: 'Password must be at least 8 characters',
    });
    expect(validate({ email_or_username: 'alice', password: 'long enough' })).toEqual({});
  });

  it('adds client-only checks after the schema', () => {
    type Values = { password: string; confirm_password: string };
    const validate = zodResolver(
      registerBodySchema.pick({ password: true }),
      confirmationCheck<Values>('password', 'confirm_password', 'Passwords do not match'),
    );
    expect(validate({ password: 'Passw0rd1', confirm_password: '' })).toEqual({
      confirm_password: 'Please confirm your password',
    });
    expect(validate({ password: 'Passw0rd1', confirm_password: 'Passw0rd2' })).toEqual({
      confirm_password: 'Passwords do not match',
    });
    expect(validate({ password: 'Passw0rd1', confirm_password: 'Passw0rd1' })).toEqual({});
  });
});

describe('lazyZodResolver', () => {
  it('imports the schema once and validates with it', async () => {
    const load = vi.fn(() => Promise.resolve(loginBodySchema));
    const { preload, validate } = lazyZodResolver(load);
    preload();
    expect(await validate({ email_or_username: '', password: 'long enough' })).toEqual({
      email_or_username: 'Email or username is required',
    });
    expect(await validate({ email_or_username: 'alice', password: 'long enough' })).toEqual({});
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('lets the form through when the import fails, and asks again next time', async () => {
    const load = vi
      .fn<() => Promise<typeof loginBodySchema>>()
      .mockRejectedValueOnce(new Error('chunk failed'))
      .mockResolvedValue(loginBodySchema);
    const { validate } = lazyZodResolver(load);
    expect(await validate({ email_or_username: '', password: '' })).toEqual({});
    expect(await validate({ email_or_username: '', password: 'long enough' })).toEqual({
      email_or_username: 'Email or username is required',
    });
  });
});
