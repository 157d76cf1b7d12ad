import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TITLE, ErrorBoundary, isChunkLoadError } from './error-boundary.tsx';

let shouldThrow = true;
let thrown: Error = new Error('Boom: the widget broke');

function Fragile() {
  if (shouldThrow) throw thrown;
  return <p>Widget is fine</p>;
}

function renderBoundary(level: 'app' | 'nested', onReload?: () => void) {
  // React logs caught render errors too; keep the output readable and assert on our own log.
  const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  shouldThrow = true;
  render(
    <MantineProvider env="test">
      <ErrorBoundary level={level} onReload={onReload}>
        <Fragile />
      </ErrorBoundary>
    </MantineProvider>,
  );
  return { consoleError, user: userEvent.setup() };
}

describe('ErrorBoundary', () => {
  it("says a screen's code couldn't be downloaded, and offers Reload, instead of 'Something went wrong'", async () => {
    thrown = new TypeError('Failed to fetch dynamically imported module: http://x/assets/stats-1a2b.js');
    try {
      const reload = vi.fn();
      const { user } = renderBoundary('nested', reload);
      expect(screen.getByRole('heading', { name: CHUNK_LOAD_TITLE })).toBeVisible();
      expect(screen.queryByText('Something went wrong')).toBeNull();
      expect(screen.getByText(/You may be offline, or the app was updated/)).toBeVisible();
      expect(screen.getByRole('button', { name: 'Reload' })).toBeVisible();
      void user;
    } finally {
      thrown = new Error('Boom: the widget broke');
    }
  });

  it.each([
    ['Failed to fetch dynamically imported module: https://a/b.js', true],
    ['Importing a module script failed.', true],
    ['error loading dynamically imported module', true],
    ['Unable to preload CSS for /assets/x.css', true],
    ['Cannot read properties of undefined', false],
  ])('isChunkLoadError(%j) → %s', (message, expected) => {
    expect(isChunkLoadError(new TypeError(message))).toBe(expected);
  });

  it('shows the fallback with an error id that is also logged', () => {
    const { consoleError } = renderBoundary('nested');

    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    const errorId = screen.getByTestId('error-id').textContent ?? '';
    expect(errorId).toMatch(/^ERR-[0-9A-F]{8}$/);
    const ourLog = consoleError.mock.calls.find(([first]) => String(first).includes(errorId));
    expect(ourLog?.[1]).toBeInstanceOf(Error);
    // The help tips tell the user which id to quote.
    expect(
      screen.getByText(new RegExp(`contact your administrator and quote the error ID ${errorId}`)),
    ).toBeVisible();
    expect(screen.getByText('Refresh the page.')).toBeVisible();
    expect(screen.getByText(/Clear your browser cache/)).toBeVisible();
  });

  it('toggles the technical details', async () => {
    const { user } = renderBoundary('nested');
    expect(screen.queryByText(/Boom: the widget broke/)).toBeNull();

    const toggle = screen.getByRole('button', { name: 'Show Details' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    expect(screen.getByTestId('error-details').textContent).toContain('Boom: the widget broke');

    await user.click(screen.getByRole('button', { name: 'Hide Details' }));
    expect(screen.queryByText(/Boom: the widget broke/)).toBeNull();
  });

  it('nested: Try Again renders the children again', async () => {
    const { user } = renderBoundary('nested');
    shouldThrow = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByText('Widget is fine')).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull();
  });

  it('app level: Try Again reloads the page', async () => {
    const reload = vi.fn();
    const { user } = renderBoundary('app', reload);
    shouldThrow = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(reload).toHaveBeenCalledOnce();
    // No in-place reset at app level: the fallback stays until the page reloads.
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
  });

  it('renders the children again when its reset key changes (the layout: a new address)', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    shouldThrow = true;
    const view = (resetKey: string) => (
      <MantineProvider env="test">
        <ErrorBoundary level="app" resetKey={resetKey}>
          <Fragile />
        </ErrorBoundary>
      </MantineProvider>
    );
    const { rerender } = render(view('first'));
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    shouldThrow = false;
    rerender(view('first'));
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    rerender(view('second'));
    expect(screen.getByText('Widget is fine')).toBeVisible();
  });
});
