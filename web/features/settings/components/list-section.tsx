import { Button, Group, Paper, type PaperProps, Stack, Text, Title } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { SectionError, SectionLoader } from '#web/components/load-states.tsx';
import { describeError } from '#web/lib/api-errors.ts';

/**
 * A settings section that lists what one query loads (channels, rules, deliveries): the titled
 * card with its header action and description, then loading, the failure with Retry, the empty
 * text, or the list.
 */
export function ListSection<Item>({
  title,
  action,
  description,
  message,
  query,
  items,
  loadingLabel,
  failure,
  empty,
  listLabel,
  listGap = 'sm',
  renderItem,
  children,
}: {
  title: string;
  action?: ReactNode;
  description?: ReactNode;
  /** An outcome shown above the list (saved, removed, failed). */
  message?: ReactNode;
  query: Pick<UseQueryResult, 'isPending' | 'isError' | 'isSuccess' | 'error' | 'refetch'>;
  items: Item[] | undefined;
  loadingLabel: string;
  /** The failure's title, and its text when the error has none. */
  failure: string;
  empty: ReactNode;
  listLabel: string;
  listGap?: 'xs' | 'sm';
  renderItem: (item: Item) => ReactNode;
  /** Dialogs and forms that belong to the section. */
  children?: ReactNode;
}) {
  const titleId = useId();
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={titleId}>
      <Stack gap="md">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4" id={titleId}>
            {title}
          </Title>
          {action}
        </Group>
        {description && (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        )}
        {message}
        {query.isPending && <SectionLoader label={loadingLabel} />}
        {query.isError && (
          <SectionError
            title={failure}
            message={describeError(query.error, failure)}
            onRetry={() => void query.refetch()}
          />
        )}
        {query.isSuccess && items?.length === 0 && empty}
        {query.isSuccess && items && items.length > 0 && (
          <Stack
            gap={listGap}
            component="ul"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
            aria-label={listLabel}
          >
            {items.map(renderItem)}
          </Stack>
        )}
      </Stack>
      {children}
    </Paper>
  );
}

/** One entry of a ListSection's list. */
export function ListItemCard({
  children,
  ...props
}: PaperProps & { children: ReactNode; 'aria-label'?: string }) {
  return (
    <Paper component="li" withBorder radius="md" p="sm" {...props}>
      {children}
    </Paper>
  );
}

/** An entry's Edit and Remove buttons, named after it ('Edit {name}', 'Remove {name}'). */
export function EditRemoveButtons({
  name,
  onEdit,
  onRemove,
}: {
  name: string;
  onEdit: () => void;
  onRemove: () => void;
}) {
  return (
    <>
      <Button
        size="xs"
        variant="default"
        leftSection={<IconPencil size={14} aria-hidden />}
        onClick={onEdit}
        aria-label={`Edit ${name}`}
      >
        Edit
      </Button>
      <Button
        size="xs"
        variant="outline"
        color="red"
        leftSection={<IconTrash size={14} aria-hidden />}
        onClick={onRemove}
        aria-label={`Remove ${name}`}
      >
        Remove
      </Button>
    </>
  );
}
