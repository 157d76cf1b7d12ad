import { Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck, IconX } from '@tabler/icons-react';
import { MESSAGE_CLEAR_MS } from '#shared/constants.ts';
import { formatDateTime } from '#shared/format.ts';
import {
  healthOverrideBodySchema,
  OVERRIDE_REASON_MAX_LENGTH,
  type RepositoryHealth,
} from '#shared/schemas/health.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeError, fieldErrors } from '#web/lib/api-errors.ts';
import { zodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useClearHealthOverride, useSetHealthOverride } from '../../../api/health-override.ts';
import tones from '../../tones.module.css';

export const OVERRIDE_SET_MESSAGE = '✅ Marked as finished.';
export const OVERRIDE_CLEARED_MESSAGE = '✅ The mark is cleared: activity counts again.';

/**
 * "Finished — stable, no activity expected" (docs/health.md): the activity signals then count as
 * met. Who set it, when and why; a reason to set it, a button to clear it. Whoever may change the
 * repository's tags may do both — every member who can see it, as the tags editor on Overview.
 */
export function OverrideCard({
  fullName,
  override,
}: {
  fullName: string;
  override: RepositoryHealth['override'];
}) {
  const set = useSetHealthOverride(fullName);
  const clearOverride = useClearHealthOverride(fullName);
  const { message, show, clear } = useMessage();
  const form = useForm({
    initialValues: { reason: '' },
    validate: zodResolver(healthOverrideBodySchema),
    transformValues: (values) => healthOverrideBodySchema.parse(values),
  });

  const onSubmit = form.onSubmit((body) => {
    clear();
    set.mutate(body, {
      onSuccess: () => {
        form.reset();
        show('success', OVERRIDE_SET_MESSAGE, MESSAGE_CLEAR_MS.saved);
      },
      onError: (failure) => {
        form.setErrors(fieldErrors(failure));
        show('error', `❌ Failed to mark as finished: ${describeError(failure, 'Request failed')}`);
      },
    });
  }, clear);

  const onClear = () => {
    clear();
    clearOverride.mutate(undefined, {
      onSuccess: () => show('success', OVERRIDE_CLEARED_MESSAGE, MESSAGE_CLEAR_MS.saved),
      onError: (failure) =>
        show('error', `❌ Failed to clear the mark: ${describeError(failure, 'Request failed')}`),
    });
  };

  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="health-override"
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="health-override">
          Finished software
        </Title>
        {override ? (
          <>
            <Text size="sm">
              <IconCircleCheck size={16} aria-hidden style={{ verticalAlign: 'text-bottom' }} />{' '}
              <strong>Finished — stable, no activity expected.</strong> The activity signals count as met;
              licence, security policy and advisories are still judged.
            </Text>
            <Text size="sm">
              {`Marked by ${override.set_by ?? 'a former member'} on ${formatDateTime(override.set_at)}.`}
            </Text>
            <Text
              size="sm"
              component="blockquote"
              m={0}
              pl="sm"
              style={{
                borderInlineStart: '3px solid var(--mantine-color-default-border)',
                overflowWrap: 'anywhere',
                whiteSpace: 'pre-wrap',
              }}
            >
              {override.reason}
            </Text>
            <Group>
              <Button
                variant="default"
                className={tones.dangerButton}
                leftSection={<IconX size={16} aria-hidden />}
                onClick={onClear}
                disabled={clearOverride.isPending}
              >
                {clearOverride.isPending ? 'Clearing...' : 'Clear the mark'}
              </Button>
            </Group>
          </>
        ) : (
          <form onSubmit={onSubmit} noValidate>
            <Stack gap="sm">
              <Text size="sm" c="dimmed">
                A finished library needs no commits or releases. Marked as finished, its activity signals
                count as met; licence, security policy and advisories are still judged.
              </Text>
              <Textarea
                label="Why no activity is expected"
                placeholder="Finished: the API is stable"
                autosize
                minRows={2}
                maxLength={OVERRIDE_REASON_MAX_LENGTH}
                {...form.getInputProps('reason')}
              />
              <Group>
                <Button type="submit" variant="light" disabled={set.isPending}>
                  {set.isPending ? 'Saving...' : 'Mark as finished'}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
        {message && (
          <InlineMessage kind={message.kind} onClose={message.kind === 'error' ? clear : undefined}>
            {message.text}
          </InlineMessage>
        )}
      </Stack>
    </Paper>
  );
}
