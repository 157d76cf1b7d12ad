import { describeEvent, describeEventDetail } from '#shared/event-text.ts';
import { encodeRouteId } from '#shared/route-id.ts';
import type { ActivityEvent } from '#shared/schemas/activity.ts';

/**
 * The activity as an Atom 1.0 document (RFC 4287, docs/product.md#activity-feed). Written by
 * hand: a dozen elements, every text escaped by `xmlText`; the test reads it back with a real
 * XML parser.
 */
export interface AtomFeedInput {
  appName: string;
  /** PUBLIC_URL, without a trailing slash. */
  publicUrl: string;
  tag: string | null;
  events: readonly ActivityEvent[];
  /** When the document was made: its `updated` when there are no entries. */
  now: string;
  /**
   * Another feed than the members' activity (a public page's, docs/product.md#public-pages): its
   * id (under the instance's tag URI), title, own address and page, and where entries link to.
   */
  feed?: {
    id: string;
    title: string;
    self: string;
    alternate: string;
    entryLink: (event: ActivityEvent) => string;
  };
}

/** A date in the tag URIs' authority: fixed, so ids never change (RFC 4151). */
const TAG_DATE = '2026-11-25';

export function buildAtomFeed(input: AtomFeedInput): string {
  const { appName, publicUrl, tag, events } = input;
  const authority = `tag:${hostOf(publicUrl)},${TAG_DATE}:`;
  const feedId = `${authority}${input.feed?.id ?? `activity${tag ? `/tag/${encodeURIComponent(tag.toLowerCase())}` : ''}`}`;
  const title = input.feed?.title ?? (tag ? `${appName}: activity of tag ${tag}` : `${appName}: activity`);
  // The self link leaves the token out: the document may be shared or cached where the token
  // must not travel (a reader keeps the address it was given).
  const self =
    input.feed?.self ?? `${publicUrl}/feeds/activity.atom${tag ? `?tag=${encodeURIComponent(tag)}` : ''}`;
  const alternate =
    input.feed?.alternate ?? `${publicUrl}/#/activity${tag ? `?tag=${encodeURIComponent(tag)}` : ''}`;
  const entryLink =
    input.feed?.entryLink ??
    ((event: ActivityEvent) => `${publicUrl}/#/repo/${encodeRouteId(event.repository.id)}`);
  const updated = events[0]?.occurred_at ?? input.now;
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${xmlText(feedId)}</id>`,
    `  <title>${xmlText(title)}</title>`,
    `  <updated>${xmlText(updated)}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${xmlText(self)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xmlText(alternate)}"/>`,
    `  <author><name>${xmlText(appName)}</name></author>`,
    `  <generator>${xmlText(appName)}</generator>`,
  ];
  for (const event of events) {
    const detail = describeEventDetail(event);
    const sentence = describeEvent(event);
    lines.push(
      '  <entry>',
      `    <id>${xmlText(`${authority}event/${event.id}`)}</id>`,
      `    <title>${xmlText(sentence)}</title>`,
      `    <updated>${xmlText(event.occurred_at)}</updated>`,
      `    <published>${xmlText(event.occurred_at)}</published>`,
      `    <link rel="alternate" type="text/html" href="${xmlText(entryLink(event))}"/>`,
      ...(event.actor ? [`    <author><name>${xmlText(event.actor.name)}</name></author>`] : []),
      `    <category term="${xmlText(event.type)}"/>`,
      `    <content type="text">${xmlText(detail ? `${sentence}.\n${detail}` : `${sentence}.`)}</content>`,
      '  </entry>',
    );
  }
  lines.push('</feed>', '');
  return lines.join('\n');
}

/**
 * Text safe in XML 1.0 content and attribute values: the five special characters escaped and
 * the characters XML can't carry at all (control characters, lone surrogates) dropped, since a
 * repository description may hold anything.
 */
export function xmlText(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char);
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

function hostOf(publicUrl: string): string {
  try {
    return new URL(publicUrl).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}
