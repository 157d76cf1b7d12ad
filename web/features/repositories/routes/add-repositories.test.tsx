import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatTime } from '#shared/format.ts';
import { encodeRouteId } from '#shared/route-id.ts';
import type { RepositorySummary } from '#shared/schemas/repositories.ts';
import { catalogueDouble } from '../../../../test/web/catalogue-double.ts';
import {
  errorResponse,
  type FetchHandler,
  jsonResponse,
  renderApp,
  signIn,
} from '../../../../test/web/render.tsx';
import { buildSummary, ndjsonStream } from '../../../../test/web/repository-fixtures.ts';

const INVALID = 'Invalid repository format. Use github.com/user/repo or owner/repo.';

beforeEach(() => {
  // The progress list is virtualised in its own scroll box; happy-dom lays nothing out.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(360);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(600);
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(44);
});

async function openAdd(handlers: Record<string, FetchHandler> = {}, hasWebhook = true) {
  signIn();
  const rendered = renderApp({
    route: '/add',
    handlers: {
      ...catalogueDouble([
        buildSummary({ user_id: 1, tags: 'frontend,ui' }),
        buildSummary({ user_id: 1, tags: 'frontend' }),
        buildSummary({ user_id: 2, tags: 'someone-else' }),
      ]).handlers,
      'GET /auth/me/slack-webhook': () => jsonResponse({ has_webhook: hasWebhook, webhook_set_at: null }),
      ...handlers,
    },
  });
  await screen.findByRole('heading', { level: 1, name: 'Add Repositories' });
  return rendered;
}

function added(id: string): { ok: true; status: 'added'; repository: RepositorySummary } {
  return { ok: true, status: 'added', repository: buildSummary({ id }) };
}

function requests(fetchMock: ReturnType<typeof vi.fn>, pathname: string): Request[] {
  return fetchMock.mock.calls
    .map(([input, init]) => new Request(input as RequestInfo, init as RequestInit))
    .filter((request) => new URL(request.url).pathname === pathname);
}

/** The progress row of `line` (the `nth` one when a line repeats). */
function progressRow(line: string, nth = 0): HTMLElement {
  const list = screen.getByRole('list', { name: 'Repositories being added' });
  const row = within(list)
    .getAllByRole('listitem')
    .filter((item) => item.textContent?.startsWith(line))[nth];
  if (!row) throw new Error(`no progress row for ${line}`);
  return row;
}

const textarea = () => screen.getByRole('textbox', { name: 'Repositories' });

describe('add page', () => {
  it("is headed 'Add Repositories', focuses the textarea and offers the quick links", async () => {
    await openAdd();
    expect(await screen.findByRole('heading', { level: 1, name: 'Add Repositories' })).toBeVisible();
    await waitFor(() => expect(document.activeElement).toBe(textarea()));
    const links = screen.getByRole('navigation', { name: 'Quick links' });
    expect(within(links).getByRole('link', { name: 'All repositories' }).getAttribute('href')).toBe('#/');
    expect(within(links).getByRole('link', { name: 'Tags' }).getAttribute('href')).toBe('#/tags');
    expect(within(links).getByRole('link', { name: 'Statistics' }).getAttribute('href')).toBe('#/stats');
  });

  it('needs at least one non-empty line', async () => {
    const { user, fetchMock } = await openAdd();
    await user.type(textarea(), '   {Enter}  ');
    await user.click(screen.getByRole('button', { name: 'Add Repositories' }));
    expect(await screen.findByText('❌ Please enter at least one repository.')).toBeVisible();
    expect(requests(fetchMock, '/repositories/batch')).toHaveLength(0);
  });

  it('fails invalid lines locally, without any call, when no line is valid', async () => {
    const { user, fetchMock } = await openAdd();
    await user.type(textarea(), 'not a repository{Enter}also/not/valid');
    await user.click(screen.getByRole('button', { name: 'Add Repositories' }));
    expect(await screen.findByText('❌ Failed to add all 2 repositories.')).toBeVisible();
    expect(within(progressRow('not a repository')).getByText(`Failed: ${INVALID}`)).toBeVisible();
    expect(requests(fetchMock, '/repositories/batch')).toHaveLength(0);
  });
});

describe('batch progress', () => {
  it('sends every valid line in one streamed batch and shows each item pending → processing → done', async () => {
    const stream = ndjsonStream();
    const { user, fetchMock } = await openAdd({ 'POST /repositories/batch': () => stream.response() });
    await screen.findByRole('heading', { level: 1, name: 'Add Repositories' });
    await user.type(
      textarea(),
      'facebook/react{Enter}https://github.com/vitejs/vite{Enter}github.com/a/b{Enter}bad line{Enter}facebook/react',
    );
    const tags = screen.getByRole('combobox', { name: 'Tags for every repository' });
    await user.type(tags, ' web {Enter}');
    await user.click(screen.getByRole('button', { name: 'Add Repositories' }));

    expect(await screen.findByRole('button', { name: 'Adding...' })).toBeDisabled();
    const [request] = requests(fetchMock, '/repositories/batch');
    expect(request?.headers.get('Accept')).toBe('application/x-ndjson');
    expect(await request?.json()).toEqual({
      items: [
        { id: 'facebook/react' },
        { url: 'https://github.com/vitejs/vite' },
        { url: 'https://github.com/a/b' },
        { id: 'facebook/react' },
      ],
      tags: 'web',
      notify_slack: true,
    });
    expect(progressRow('facebook/react').dataset.status).toBe('processing');
    expect(progressRow('https://github.com/vitejs/vite').dataset.status).toBe('pending');
    expect(progressRow('bad line').dataset.status).toBe('error');

    await act(async () => stream.push({ index: 0, input: 'facebook/react', ...added('facebook/react') }));
    await waitFor(() => expect(progressRow('facebook/react').dataset.status).toBe('success'));
    expect(progressRow('https://github.com/vitejs/vite').dataset.status).toBe('processing');
    expect(screen.getByText('Processing 2 of 5...')).toBeVisible();

    // A line split over two chunks, and two lines in one chunk.
    await act(async () => {
      stream.pushRaw('{"index":1,"input":"https://github.com/vitejs/vite","ok":false,"status":"queued",');
      stream.pushRaw('"eta":"2026-11-24T15:05:00.000Z"}\n');
      stream.push(
        { index: 2, input: 'https://github.com/a/b', ...added('a/b') },
        {
          index: 3,
          input: 'facebook/react',
          ok: false,
          status: 'skipped',
          repository: buildSummary({ id: 'facebook/react' }),
          error: 'facebook/react is already in the catalogue.',
        },
        { done: true, succeeded: 2, failed: 0, skipped: 1, queued: 1 },
      );
      stream.end();
    });

    const eta = formatTime('2026-11-24T15:05:00.000Z');
    expect(
      await screen.findByText(
        `⚠️ Added 2 repositories, 1 already in the catalogue, 1 queued (done by ${eta}), 1 failed.`,
      ),
    ).toBeVisible();
    expect(
      within(progressRow('https://github.com/vitejs/vite')).getByText(
        `Queued: GitHub asks us to slow down, added by ${eta}`,
      ),
    ).toBeVisible();
    expect(progressRow('https://github.com/vitejs/vite').dataset.status).toBe('queued');
    expect(progressRow('facebook/react', 1).dataset.status).toBe('skipped');
    const results = screen.getByRole('heading', { name: 'Results' }).closest('div') as HTMLElement;
    expect(within(results).getByText('Successful')).toBeVisible();
    expect(within(results).getByText('Already in the catalogue')).toBeVisible();
    expect(within(results).getByText(`Queued (done by ${eta})`)).toBeVisible();
    expect(within(results).getByText(new RegExp(INVALID.replace(/[.]/g, '\\.')))).toBeVisible();
    expect(within(results).getByRole('link', { name: 'facebook/react' }).getAttribute('href')).toBe(
      `#/repo/${encodeRouteId('facebook/react')}`,
    );
    // Only the failed line stays for another try; added, skipped and queued lines are done.
    expect((textarea() as HTMLTextAreaElement).value).toBe('bad line');
  });

  it('clears the inputs after a complete success', async () => {
    const stream = ndjsonStream();
    const { user } = await openAdd({ 'POST /repositories/batch': () => stream.response() });
    await user.type(textarea(), 'a/b{Enter}c/d');
    await user.click(screen.getByRole('button', { name: 'Add Repositories' }));
    await act(async () => {
      stream.push(
        { index: 0, input: 'a/b', ...added('a/b') },
        { index: 1, input: 'c/d', ...added('c/d') },
        { done: true, succeeded: 2, failed: 0, skipped: 0, queued: 0 },
      );
      stream.end();
    });
    expect(await screen.findByText('✅ Successfully added 2 repositories!')).toBeVisible();
    expect((textarea() as HTMLTextAreaElement).value).toBe('');
  });

  it("says '❌ Batch add failed: {message}' when the call fails", async () => {
    const { user } = await openAdd({
      'POST /repositories/batch': () => errorResponse(429, 'Too many requests'),
    });
    await user.type(textarea(), 'a/b');
    await user.click(screen.getByRole('button', { name: 'Add Repositories' }));
    expect(await screen.findByText('❌ Batch add failed: Too many requests')).toBeVisible();
    expect(progressRow('a/b').dataset.status).toBe('error');
  });

  it('reports a stream that ends before every item', async () => {
    const stream = ndjsonStream();
    const { user } = await openAdd({ 'POST /repositories/batch': () => stream.response() });
    await user.type(textarea(), 'a/b{Enter}c/d');
    await user.click(screen.getByRole('button', { name: 'Add Repositories' }));
    await act(async () => {
      stream.push({ index: 0, input: 'a/b', ...added('a/b') });
      stream.end();
    });
    expect(
      await screen.findByText(
        '❌ Batch add failed: The connection closed before every repository was processed.',
      ),
    ).toBeVisible();
    expect(progressRow('a/b').dataset.status).toBe('success');
    expect(progressRow('c/d').dataset.status).toBe('error');
  });

  it('keeps up with a 500-line paste, rendering only the visible rows', async () => {
    const stream = ndjsonStream();
    const { user } = await openAdd({ 'POST /repositories/batch': () => stream.response() });
    const lines = Array.from({ length: 500 }, (_, i) => `owner/repo-${i}`);
    await user.click(textarea());
    await user.paste(lines.join('\n'));
    await user.click(screen.getByRole('button', { name: 'Add Repositories' }));
    const list = await screen.findByRole('list', { name: 'Repositories being added' });
    expect(within(list).getAllByRole('listitem').length).toBeLessThan(40);
    for (let start = 0; start < 500; start += 100) {
      await act(async () => {
        for (let i = start; i < start + 100; i += 1) {
          stream.push({ index: i, input: lines[i], ...added(lines[i] as string) });
        }
      });
      // Progress shows while the stream is still open.
      await waitFor(() => expect(screen.getByText(`Processing ${start + 100} of 500...`)).toBeVisible());
    }
    await act(async () => {
      stream.push({ done: true, succeeded: 500, failed: 0, skipped: 0, queued: 0 });
      stream.end();
    });
    expect(await screen.findByText('✅ Successfully added 500 repositories!')).toBeVisible();
    expect(screen.getByText('Processed 500 of 500')).toBeVisible();
    expect(within(list).getAllByRole('listitem').length).toBeLessThan(40);
  });
});

describe('notify checkbox', () => {
  it('is on by default with a webhook, and says how to add silently', async () => {
    const stream = ndjsonStream();
    const { user, fetchMock } = await openAdd({ 'POST /repositories/batch': () => stream.response() });
    const box = (await screen.findByRole('checkbox', {
      name: 'Send a Slack notification',
    })) as HTMLInputElement;
    await waitFor(() => expect(box.disabled).toBe(false));
    expect(box.checked).toBe(true);
    expect(
      screen.getByText('Uncheck if you want to add repositories silently without notifying Slack.'),
    ).toBeVisible();
    await user.click(box);
    await user.type(textarea(), 'a/b');
    await user.click(screen.getByRole('button', { name: 'Add Repositories' }));
    const [request] = requests(fetchMock, '/repositories/batch');
    expect(await request?.json()).toMatchObject({ notify_slack: false });
    await act(async () => stream.end());
  });

  it('is disabled and off without a webhook', async () => {
    await openAdd({}, false);
    const box = (await screen.findByRole('checkbox', {
      name: 'Send a Slack notification',
    })) as HTMLInputElement;
    await waitFor(() => expect(box.disabled).toBe(true));
    expect(box.checked).toBe(false);
    expect(screen.getByText(/Slack notifications require configuring a webhook in Settings\./)).toBeVisible();
  });
});

describe('suggested tags', () => {
  it('shows the member’s most-used tags and appends one when clicked', async () => {
    const { user } = await openAdd();
    const group = await screen.findByRole('group', { name: 'Suggested tags' });
    expect(
      within(group)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['frontend', 'ui']);
    await user.click(within(group).getByRole('button', { name: 'Add tag frontend' }));
    expect(within(group).getByRole('button', { name: 'frontend (added)' })).toBeDisabled();
    const tags = screen.getByRole('combobox', { name: 'Tags for every repository' });
    expect(tags.closest('.mantine-TagsInput-root')?.textContent).toContain('frontend');
  });

  it("says 'Loading suggested tags…', then offers Retry when they fail", async () => {
    let calls = 0;
    let fail: (response: Response) => void = () => {};
    const { user } = await openAdd({
      'GET /tags': (request) => {
        calls += 1;
        return calls === 1
          ? new Promise<Response>((resolve) => (fail = resolve))
          : (
              catalogueDouble([buildSummary({ user_id: 1, tags: 'back' })]).handlers[
                'GET /tags'
              ] as FetchHandler
            )(request);
      },
    });
    expect(await screen.findByText('Loading suggested tags…')).toBeVisible();
    await act(async () => fail(errorResponse(500, 'down')));
    expect(await screen.findByText('Unable to load suggested tags right now.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    const group = await screen.findByRole('group', { name: 'Suggested tags' });
    expect(within(group).getByRole('button', { name: 'Add tag back' })).toBeEnabled();
  });
});

describe('Clear', () => {
  it('resets the inputs, notify to on, the messages and the progress', async () => {
    const { user } = await openAdd();
    const box = (await screen.findByRole('checkbox', {
      name: 'Send a Slack notification',
    })) as HTMLInputElement;
    await waitFor(() => expect(box.disabled).toBe(false));
    await user.click(box);
    await user.type(textarea(), 'bad line');
    await user.click(screen.getByRole('button', { name: 'Add Repositories' }));
    expect(await screen.findByText('❌ Failed to add all 1 repositories.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect((textarea() as HTMLTextAreaElement).value).toBe('');
    expect(box.checked).toBe(true);
    expect(screen.queryByText('❌ Failed to add all 1 repositories.')).toBeNull();
    expect(screen.queryByRole('list', { name: 'Repositories being added' })).toBeNull();
  });

  describe('import from GitHub', () => {
    it('imports a user’s stars with the shared tags, showing each repository as it arrives', async () => {
      const stream = ndjsonStream();
      const { user, fetchMock } = await openAdd({ 'POST /repositories/import': () => stream.response() });
      await user.click(screen.getByRole('radio', { name: 'Import from GitHub' }));
      await user.type(screen.getByRole('textbox', { name: 'GitHub user or organisation' }), 'torvalds');
      await user.click(screen.getByRole('button', { name: 'Import' }));
      await act(async () => {
        stream.push(
          { index: 0, input: 'a/b', ...added('a/b') },
          {
            index: 1,
            input: 'c/d',
            ok: false,
            status: 'skipped',
            repository: buildSummary({ id: 'c/d' }),
            error: 'c/d is already in the catalogue.',
          },
          { index: 2, input: 'e/f', ok: false, status: 'failed', error: 'GitHub has no repository e/f.' },
          { done: true, succeeded: 1, failed: 1, skipped: 1, queued: 0 },
        );
        stream.end();
      });
      expect(
        await screen.findByText('⚠️ Added 1 repository, 1 already in the catalogue, 1 failed.'),
      ).toBeVisible();
      expect(within(progressRow('c/d')).getByText('Already in the catalogue')).toBeVisible();
      expect(within(progressRow('e/f')).getByText('Failed: GitHub has no repository e/f.')).toBeVisible();
      const [request] = requests(fetchMock, '/repositories/import');
      expect(await request?.json()).toEqual({ source: 'starred', login: 'torvalds', notify_slack: true });
    });

    it('checks the name before calling, and shows the server’s answer for an unknown one', async () => {
      const { user, fetchMock } = await openAdd({
        'POST /repositories/import': () =>
          errorResponse(404, 'GitHub has no user or organisation named ghost-org.'),
      });
      await user.click(screen.getByRole('radio', { name: 'Import from GitHub' }));
      await user.click(screen.getByRole('radio', { name: 'Repositories of an owner' }));
      const login = screen.getByRole('textbox', { name: 'GitHub user or organisation' });
      await user.type(login, 'not a name');
      await user.click(screen.getByRole('button', { name: 'Import' }));
      expect(await screen.findByText('Enter a GitHub user or organisation name.')).toBeVisible();
      expect(requests(fetchMock, '/repositories/import')).toHaveLength(0);
      await user.clear(login);
      await user.type(login, 'ghost-org');
      await user.click(screen.getByRole('button', { name: 'Import' }));
      expect(
        await screen.findByText('❌ Batch add failed: GitHub has no user or organisation named ghost-org.'),
      ).toBeVisible();
    });
  });
});
