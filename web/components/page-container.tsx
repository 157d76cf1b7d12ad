import { Container } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * Every screen's width and padding (docs/product.md#app-shell): screens of data (the list, a
 * repository, tags, statistics, administration, activity) use the wide measure, screens that are
 * one form or a few cards (add, profile, settings) the narrow one. Before, five screens had four
 * widths and three paddings, and the content jumped sideways between them.
 */
export function PageContainer({
  width = 'wide',
  children,
}: {
  width?: 'wide' | 'narrow';
  children: ReactNode;
}) {
  return (
    <Container size={width === 'wide' ? 'xl' : 'md'} py="md" px={{ base: 'sm', sm: 'md' }}>
      {children}
    </Container>
  );
}
