import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../../test/web/render.tsx';
import LandingRoute from './landing.tsx';

describe('landing page', () => {
  it('leads to registration and sign-in', () => {
    renderWithProviders(<LandingRoute />);

    const hrefs = (name: string) =>
      screen.getAllByRole('link', { name }).map((link) => link.getAttribute('href'));
    expect(hrefs('Get Started')).toEqual(['#/register']);
    // Call to action and footer.
    expect(hrefs('Create Account')).toEqual(['#/register', '#/register']);
    // Hero, call to action and footer.
    expect(hrefs('Sign In')).toEqual(['#/login', '#/login', '#/login']);
  });

  it('says it is free, needs no credit card and is self-hosted', () => {
    renderWithProviders(<LandingRoute />);
    const hero = screen.getByRole('heading', { level: 1 }).closest('section');
    expect(hero).not.toBeNull();
    const text = hero?.textContent ?? '';
    expect(text).toMatch(/free/i);
    expect(text).toMatch(/no credit card/i);
    expect(text).toMatch(/self-hosted|your own server/i);
  });

  it("lists the product's capabilities", () => {
    renderWithProviders(<LandingRoute />);
    const features = screen.getByRole('region', { name: 'Everything you need to keep track' });
    const titles = within(features)
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(titles).toEqual([
      'Repository tracking',
      'Analytics and statistics',
      'Tags and notes',
      'Version snapshots',
      'Comments',
      'Batch import',
      'CSV export',
      'Slack notifications',
      'Your own GitHub token',
    ]);
    expect(within(features).getByText(/Stars, forks, commits, open issues and contributors/)).toBeVisible();
  });

  it('has benefits, a call to action and a footer', () => {
    renderWithProviders(<LandingRoute />);
    expect(screen.getByRole('region', { name: 'Why teams choose it' })).toBeVisible();
    expect(screen.getByRole('region', { name: 'Start your catalogue today' })).toBeVisible();
    expect(screen.getByRole('navigation', { name: 'Account' })).toBeVisible();
  });
});
