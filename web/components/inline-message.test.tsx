import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { InlineMessage } from './inline-message.tsx';

function show(text: string) {
  render(
    <MantineProvider env="test">
      <InlineMessage kind="success">{text}</InlineMessage>
    </MantineProvider>,
  );
  return screen.getByRole('status');
}

describe('InlineMessage', () => {
  it("shows no icon beside a text that carries its own sign ('✅ Saved!')", () => {
    expect(show('✅ Saved!').querySelector('svg')).toBeNull();
  });

  it('shows the kind’s icon beside a plain text', () => {
    expect(show('Saved').querySelector('svg')).not.toBeNull();
  });
});
