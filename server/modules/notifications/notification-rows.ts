import type { AppConfig } from '../../config.ts';
import type { UserRow } from '../../db/schema.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type {
  MessageInput,
  MessageKind,
  MessagesService,
  NotifiedEvent,
  WebhookSendResult,
} from '../messages/messages.service.ts';
import type { ChannelRow } from './notifications.queries.ts';

/**
 * What the settings and the delivery services share about notification rows: how a channel's
 * URL is sealed and where a channel sends, how lists and errors are stored.
 */

const MAX_ERROR_LENGTH = 1000;

/** Binds a sealed channel URL to its row (docs/security.md#e1). */
export const urlContext = (channelId: number) => `notification_channel:${channelId}:url`;

export function messageInput(
  config: Pick<AppConfig, 'appName' | 'publicUrl'>,
  kind: MessageKind,
  events: NotifiedEvent[],
): MessageInput {
  return { kind, appName: config.appName, publicUrl: config.publicUrl, events };
}

/**
 * One send over the channel now, through the messages pipeline: an e-mail is queued for the
 * member's address, Slack goes to their stored webhook, a webhook or Discord channel to its own
 * sealed URL. A failure is returned, never thrown.
 */
export async function sendOverChannel(
  deps: { messages: Pick<MessagesService, 'sendNotification'>; box: SecretBox },
  channel: ChannelRow,
  user: UserRow,
  input: MessageInput,
  signal?: AbortSignal,
): Promise<WebhookSendResult> {
  switch (channel.kind) {
    case 'email':
      if (user.is_verified === 0) return { sent: false, error: 'Your e-mail address is not verified' };
      return deps.messages.sendNotification({ kind: 'email', address: user.email }, input, signal);
    case 'slack':
      return deps.messages.sendNotification({ kind: 'slack', userId: user.id }, input, signal);
    case 'discord':
    case 'webhook': {
      let url: string;
      try {
        url = deps.box.open(channel.url_enc ?? '', urlContext(channel.id));
      } catch {
        return { sent: false, error: 'The stored URL cannot be opened with this SECRET_KEY; save it again' };
      }
      return deps.messages.sendNotification({ kind: channel.kind, url }, input, signal);
    }
  }
}

/** A stored JSON list (event types, tags, event ids); null for "all" or an unreadable value. */
export function parseList(value: string | null): string[] | null {
  if (value === null) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(String) : null;
  } catch {
    return null;
  }
}

export function clip(value: string | undefined, max = MAX_ERROR_LENGTH): string | null {
  if (value === undefined) return null;
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}
