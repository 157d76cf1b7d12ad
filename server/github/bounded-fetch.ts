/**
 * The largest GitHub answer read: a page of 100 commits is about 0.4 MB and a 25-repository
 * GraphQL answer about 0.2 MB. A bigger one is refused instead of filling memory.
 */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/**
 * The connection failed, the answer missed the deadline (headers or body), or it was too large.
 * Not retried: a GitHub that didn't answer within the deadline would double the wait.
 */
export class TransportFailure extends Error {
  override name = 'TransportFailure';
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * Octokit's fetch, reading the whole answer under the request's deadline signal before Octokit
 * sees it, at most `maxBytes`. Octokit reads bodies itself and swallows a failure mid-body (a
 * connection reset or a deadline during a slow drip became an empty 200 answer), and reads
 * any size: here both fail the request, as a TransportFailure.
 */
export function boundedFetch(maxBytes: number): typeof fetch {
  return async (input, init) => {
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      throw new TransportFailure(describeFailure(error), { cause: error });
    }
    if (!response.body) return response;
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) throw new TransportFailure(`GitHub's answer is larger than ${maxBytes} bytes`);
        chunks.push(value);
      }
    } catch (error) {
      reader.cancel().catch(() => {});
      throw error instanceof TransportFailure
        ? error
        : new TransportFailure(describeFailure(error), { cause: error });
    }
    return new Response(NULL_BODY_STATUSES.has(response.status) ? null : Buffer.concat(chunks), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function describeFailure(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'GitHub did not answer in time';
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
  return `GitHub could not be reached${cause ? `: ${cause}` : ''}`;
}
