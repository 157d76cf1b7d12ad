import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkWebhookUrl, isBlockedAddress, type Resolver } from '../../lib/outbound-guard.ts';

export interface WebhookSendResult {
  sent: boolean;
  error?: string;
  /** Worth another attempt later: no answer, a reset, a time-out, 429 or 5xx. */
  retryable?: boolean;
}

export interface WebhookSendOptions {
  allowedHosts: string[];
  /** The one deadline for the whole call (address check, connect, answer): it always settles by then. */
  timeoutMs: number;
  resolve?: Resolver;
  /** Ends the call sooner (the job queue's own deadline, shutdown). */
  signal?: AbortSignal;
}

/** Read at most this much of Slack's answer; the rest is dropped unread. */
export const MAX_RESPONSE_BYTES = 16 * 1024;

/**
 * Resolves like the system does but refuses blocked addresses at connect time, so a name that
 * changes its answer after the check (DNS rebinding) still can't reach inside (docs/security.md#e3).
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const safe = addresses.filter((entry) => !isBlockedAddress(entry.address));
    if (safe.length === 0 || safe.length !== addresses.length) {
      return callback(
        Object.assign(new Error(`${hostname} resolves to a blocked address`), { code: 'EBLOCKED' }),
        '',
        0,
      );
    }
    if (options.all) return callback(null, safe);
    const first = safe[0] as LookupAddress;
    return callback(null, first.address, first.family);
  });
};

/**
 * Posts one message to a Slack incoming webhook, once (the job queue retries). The URL is
 * checked again at send time against WEBHOOK_ALLOWED_HOSTS and the address guard; redirects are
 * not followed; the remote body is never echoed, and neither is the URL (its path is the
 * secret). A failure is returned, never thrown, and every outcome arrives within `timeoutMs`.
 */
export function sendSlackMessage(
  rawUrl: string,
  text: string,
  options: WebhookSendOptions,
): Promise<WebhookSendResult> {
  return sendWebhookJson(rawUrl, { text }, options);
}

/** Who the messages of `sendWebhookJson` name: 'Slack did not answer in time', 'Discord answered HTTP 404'. */
export interface WebhookService {
  /** The remote end in outcome messages ('Slack', 'Discord', 'The webhook'). */
  service: string;
  /** The URL in the address guard's messages ('Slack webhook', 'Discord webhook', 'Webhook'). */
  label: string;
}

/** Who the outcome messages and the address guard name, per kind of webhook. */
export const WEBHOOK_SERVICES = {
  slack: { service: 'Slack', label: 'Slack webhook' },
  discord: { service: 'Discord', label: 'Discord webhook' },
  webhook: { service: 'The webhook', label: 'Webhook' },
} as const satisfies Record<string, WebhookService>;

/**
 * Posts one JSON body to a webhook with the Slack sender's guarantees (docs/security.md#e3):
 * the guard on the URL at send time, the guarded lookup at connect time, one deadline, no
 * redirects, at most MAX_RESPONSE_BYTES read, nothing of the answer or the URL echoed. Used by
 * the add-time Slack message and by every notification channel.
 */
export async function sendWebhookJson(
  rawUrl: string,
  payload: unknown,
  options: WebhookSendOptions & { service?: WebhookService },
): Promise<WebhookSendResult> {
  const { service, label } = options.service ?? WEBHOOK_SERVICES.slack;
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  let url: URL;
  try {
    url = await untilAborted(checkWebhookUrl(rawUrl, options.allowedHosts, options.resolve, label), signal);
  } catch (error) {
    if (signal.aborted) return { sent: false, error: `${service} did not answer in time`, retryable: true };
    const message = (error as Error).message;
    // A refused address or host is configuration and stays refused; a failed lookup may pass later.
    return { sent: false, error: message, retryable: /could not be resolved/.test(message) };
  }
  try {
    const status = await post(url, JSON.stringify(payload), signal);
    if (status >= 200 && status < 300) return { sent: true };
    return {
      sent: false,
      error: `${service} answered HTTP ${status}`,
      retryable: status >= 500 || status === 429,
    };
  } catch {
    return {
      sent: false,
      error: signal.aborted ? `${service} did not answer in time` : `${service} could not be reached`,
      retryable: true,
    };
  }
}

/** `promise`, or a rejection as soon as `signal` aborts (the promise itself can't be cancelled). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * The HTTP status of one POST. Settles exactly once, on whichever comes first: the end of the
 * answer, its first MAX_RESPONSE_BYTES (the rest is cut off), an error or close, or `signal`
 * (then with the status if it arrived, else as a failure).
 * (Before, only `end` and `error` settled it, and destroying an oversized answer fires neither:
 * the add waited forever.)
 */
function post(url: URL, body: string, signal: AbortSignal): Promise<number> {
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    let status: number | undefined;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      outcome();
    };
    const onAbort = () => {
      // An answer whose status arrived but whose body drips on still counts as that status.
      settle(() => (status === undefined ? reject(new Error('deadline')) : resolve(status)));
      request.destroy();
    };
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        // A listed loopback sink (tests) is trusted configuration; everything else is guarded.
        lookup: loopback ? undefined : guardedLookup,
      },
      (response) => {
        const code = response.statusCode ?? 0;
        status = code;
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) {
            settle(() => resolve(code));
            request.destroy();
          }
        });
        response.on('end', () => settle(() => resolve(code)));
        // An answer cut short (reset, destroyed) still carries the status Slack sent.
        response.on('error', () => settle(() => resolve(code)));
        response.on('close', () => settle(() => resolve(code)));
      },
    );
    request.on('error', (error) => settle(() => reject(error)));
    request.on('close', () =>
      settle(() => (status === undefined ? reject(new Error('connection closed')) : resolve(status))),
    );
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    request.end(body);
  });
}
