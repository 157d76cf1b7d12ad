import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { STORAGE_KEYS } from '#shared/constants.ts';
import {
  ApiError,
  apiFetch,
  apiRequest,
  getApiBase,
  NETWORK_ERROR_MESSAGE,
  setUnauthorizedHandler,
  TIMEOUT_MESSAGE,
} from './api-client.ts';

const okSchema = z.object({ ok: z.boolean() });

function json(body: unknown, init: ResponseInit = {}) {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'Content-Type': 'application/json' },
  });
}

function stubFetch(implementation: (url: string, init: RequestInit) => Promise<Response>) {
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
    implementation(String(input), init ?? {}),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

afterEach(() => {
  setUnauthorizedHandler(null);
  delete window.__API_BASE__;
});

describe('apiRequest', () => {
  it('sends JSON to the page origin with the stored bearer token and validates the answer', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'token-123');
    const fetchMock = stubFetch(async () => json({ ok: true }));

    const result = await apiRequest('/repositories/', okSchema, { method: 'POST', body: { id: 'a/b' } });

    expect(result).toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`${window.location.origin}/repositories/`);
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"id":"a/b"}');
    expect(init?.headers).toMatchObject({
      'Content-Type': 'application/json',
      Authorization: 'Bearer token-123',
    });
  });

  it('sends no Authorization header without a stored token', async () => {
    const fetchMock = stubFetch(async () => json({ ok: true }));
    await apiRequest('/version', okSchema);
    expect(fetchMock.mock.calls[0]?.[1]?.headers).not.toHaveProperty('Authorization');
  });

  it('uses window.__API_BASE__ when the deployment sets it', async () => {
    window.__API_BASE__ = 'https://api.example.test/';
    const fetchMock = stubFetch(async () => json({ ok: true }));
    await apiRequest('/version', okSchema);
    expect(getApiBase()).toBe('https://api.example.test');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('https://api.example.test/version');
  });

  it('rejects an answer that does not match the schema', async () => {
    stubFetch(async () => json({ ok: 'yes' }));
    const error = await caught(apiRequest('/version', okSchema));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Invalid response format from server', status: 200 });
  });
});

describe('failures', () => {
  it("gives 'Request timeout' with status 0 when the server doesn't answer in time", async () => {
    stubFetch(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const error = await caught(apiRequest('/repositories/', okSchema, { timeoutMs: 20 }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: TIMEOUT_MESSAGE, status: 0, data: null });
  });

  it('defaults the time-out to 30 s', async () => {
    vi.useFakeTimers();
    try {
      stubFetch(
        (_url, init) =>
          new Promise((_resolve, reject) => {
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      );
      const pending = caught(apiRequest('/repositories/', okSchema));
      await vi.advanceTimersByTimeAsync(29_999);
      let settled = false;
      void pending.then(() => {
        settled = true;
      });
      await Promise.resolve();
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toMatchObject({ message: TIMEOUT_MESSAGE, status: 0 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives the network message when fetch itself fails', async () => {
    stubFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    const error = await caught(apiRequest('/repositories/', okSchema));
    expect(error).toMatchObject({ message: NETWORK_ERROR_MESSAGE, status: 0 });
  });

  it("rethrows the caller's own abort untouched", async () => {
    const controller = new AbortController();
    stubFetch(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = caught(apiRequest('/repositories/', okSchema, { signal: controller.signal }));
    controller.abort();
    const error = await pending;
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'AbortError' });
  });

  it("exposes the server's error body as data and its message", async () => {
    stubFetch(async () =>
      json({ message: 'Too many requests', code: 'rate_limited', retry_after: 900 }, { status: 429 }),
    );
    const error = await caught(apiRequest('/auth/forgot-password', okSchema, { method: 'POST' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: 'Too many requests',
      status: 429,
      data: { message: 'Too many requests', code: 'rate_limited', retry_after: 900 },
    });
  });

  it("falls back to 'Request failed' when the JSON body has no message", async () => {
    stubFetch(async () => json({ error: 'nope' }, { status: 400 }));
    const error = await caught(apiRequest('/repositories/', okSchema));
    expect(error).toMatchObject({ message: 'Request failed', status: 400, data: null });
  });

  it('uses the status line when the error body is not JSON', async () => {
    stubFetch(
      async () =>
        new Response('<html>Bad gateway</html>', {
          status: 502,
          statusText: 'Bad Gateway',
          headers: { 'Content-Type': 'text/html' },
        }),
    );
    const error = await caught(apiFetch('/repositories/'));
    expect(error).toMatchObject({ message: '502 Bad Gateway', status: 502, data: null });
  });
});

describe('401 seam', () => {
  it('hands a 401 to the installed handler, which may retry', async () => {
    let calls = 0;
    stubFetch(async () => {
      calls += 1;
      return calls === 1
        ? json({ message: 'Token expired', code: 'unauthorized' }, { status: 401 })
        : json({ ok: true });
    });
    localStorage.setItem(STORAGE_KEYS.accessToken, 'old-token');
    const handler = vi.fn((retry: () => Promise<Response>, _failed: ApiError, _sent: string | null) =>
      retry(),
    );
    setUnauthorizedHandler(handler);

    await expect(apiRequest('/auth/me', okSchema)).resolves.toEqual({ ok: true });
    expect(handler).toHaveBeenCalledOnce();
    expect(handler.mock.calls[0]?.[1]).toMatchObject({ status: 401, message: 'Token expired' });
    // The handler learns which token failed, to tell whether another request already replaced it.
    expect(handler.mock.calls[0]?.[2]).toBe('old-token');
  });

  it.each(['/auth/login', '/auth/register', '/auth/refresh', '/auth/logout'])(
    'never hands a 401 of %s to the handler (it means wrong credentials or a dead session)',
    async (path) => {
      stubFetch(async () =>
        json({ message: 'Invalid email/username or password', code: 'unauthorized' }, { status: 401 }),
      );
      const handler = vi.fn((retry: () => Promise<Response>) => retry());
      setUnauthorizedHandler(handler);
      const error = await caught(apiRequest(path, okSchema, { method: 'POST', body: {} }));
      expect(error).toMatchObject({ status: 401, message: 'Invalid email/username or password' });
      expect(handler).not.toHaveBeenCalled();
    },
  );

  it('throws the second 401 when the retried request is refused too (one retry only)', async () => {
    const fetchMock = stubFetch(async () =>
      json({ message: 'Token expired', code: 'unauthorized' }, { status: 401 }),
    );
    setUnauthorizedHandler((retry) => retry());
    const error = await caught(apiRequest('/auth/me', okSchema));
    expect(error).toMatchObject({ status: 401 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('is a plain 401 error without a handler', async () => {
    stubFetch(async () =>
      json({ message: 'Authentication required', code: 'unauthorized' }, { status: 401 }),
    );
    const error = await caught(apiRequest('/auth/me', okSchema));
    expect(error).toMatchObject({ status: 401, message: 'Authentication required' });
  });
});
