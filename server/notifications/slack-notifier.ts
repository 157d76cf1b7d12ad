import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkWebhookUrl, isBlockedAddress, type Resolver } from '../lib/outbound-guard.ts';

export interface NotificationResult {
  sent: boolean;
  error?: string;
}

const TIMEOUT_MS = 5_000;
const MAX_RESPONSE_BYTES = 16 * 1024;

/**
 * Resolves like the system does but refuses blocked addresses at connect time, so a name that
 * changes its answer after the check (DNS rebinding) still can't reach inside (SECURITY.md E3).
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
 * Posts one message to a Slack incoming webhook. The URL is checked again at send time against
 * WEBHOOK_ALLOWED_HOSTS and the address guard; redirects are not followed; the remote body is
 * never echoed. A failure is returned, never thrown: notifications never fail the add.
 */
export async function sendSlackMessage(
  rawUrl: string,
  text: string,
  allowedHosts: string[],
  resolve?: Resolver,
): Promise<NotificationResult> {
  let url: URL;
  try {
    url = await checkWebhookUrl(rawUrl, allowedHosts, resolve);
  } catch (error) {
    return { sent: false, error: (error as Error).message };
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    const status = await post(url, JSON.stringify({ text })).catch((error: Error) => error);
    if (typeof status === 'number' && status >= 200 && status < 300) return { sent: true };
    const retryable = typeof status !== 'number' || status >= 500 || status === 429;
    if (!retryable || attempt === 1) {
      return {
        sent: false,
        error: typeof status === 'number' ? `Slack answered HTTP ${status}` : 'Slack could not be reached',
      };
    }
    await new Promise((done) => setTimeout(done, 500));
  }
  return { sent: false, error: 'Slack could not be reached' };
}

function post(url: URL, body: string): Promise<number> {
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: TIMEOUT_MS,
        // A listed loopback sink (tests) is trusted configuration; everything else is guarded.
        lookup: loopback ? undefined : guardedLookup,
      },
      (response) => {
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', reject);
    request.end(body);
  });
}

/** "Added facebook/react (★ 230k)" style messages: one per add, one summary per batch (DESIGN §3). */
export function addedMessage(
  appName: string,
  actor: string,
  repositories: { id: string; url: string; stars: number }[],
): string {
  if (repositories.length === 1) {
    const [repository] = repositories;
    return `${actor} added <${repository?.url}|${repository?.id}> (★ ${repository?.stars}) to ${appName}.`;
  }
  const lines = repositories
    .slice(0, 20)
    .map((repository) => `• <${repository.url}|${repository.id}> (★ ${repository.stars})`);
  const more = repositories.length > 20 ? `\n…and ${repositories.length - 20} more.` : '';
  return `${actor} added ${repositories.length} repositories to ${appName}:\n${lines.join('\n')}${more}`;
}
