import { Anchor, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import type { RadarEdition } from '#shared/schemas/radar.ts';
import { CopyField } from '#web/components/copy-field.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { SectionError, SectionLoader } from '#web/components/load-states.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import {
  useEditionPublication,
  usePublishEditionPage,
  useUnpublishEditionPage,
} from '../api/publish-edition-page.ts';

/**
 * Publish publicly (admins, PUBLIC_PAGES on): the shown edition at /p/radar/{slug}, with its
 * rationales when ticked; then its address with Copy, and Unpublish.
 */
export function PublishEditionPageButton({ edition }: { edition: RadarEdition }) {
  const [opened, setOpened] = useState(false);
  const [rationales, setRationales] = useState(false);
  const publication = useEditionPublication(edition.id, opened);
  const publish = usePublishEditionPage(edition.id);
  const unpublish = useUnpublishEditionPage(edition.id);
  const close = () => {
    setOpened(false);
    publish.reset();
    unpublish.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    publish.mutate(rationales);
  };
  const page = publication.data;
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)}>
        Publish publicly
      </Button>
      <Modal opened={opened} onClose={close} title={`Publish “${edition.name}” publicly`} centered>
        {publication.isPending ? (
          <SectionLoader label="Loading the publication..." />
        ) : publication.isError ? (
          <SectionError
            message={describeError(publication.error, 'Failed to load the publication')}
            onRetry={() => void publication.refetch()}
            retrying={publication.isRefetching}
          />
        ) : page ? (
          <Stack gap="md">
            <CopyField label="Public address" value={page.url} copyName="Copy the address" />
            <Text size="sm">
              {page.include_rationales ? 'With rationales.' : 'Without rationales.'}{' '}
              <Anchor href={page.url} target="_blank" rel="noopener noreferrer" inline underline="always">
                Open
              </Anchor>
            </Text>
            {unpublish.isError && (
              <InlineMessage kind="error">
                {describeError(unpublish.error, 'Failed to unpublish')}
              </InlineMessage>
            )}
            <Group justify="flex-end">
              <Button
                color="red"
                variant="light"
                loading={unpublish.isPending}
                onClick={() =>
                  unpublish.mutate(undefined, {
                    onSuccess: () => {
                      notifications.show({ message: `“${edition.name}” is no longer public.` });
                      close();
                    },
                  })
                }
              >
                Unpublish
              </Button>
            </Group>
          </Stack>
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack gap="md">
              <Text size="sm">
                Anyone with the address can read this edition's public repositories by quadrant and ring,
                without an account.
              </Text>
              <Checkbox
                label="Include rationales"
                checked={rationales}
                onChange={(event) => setRationales(event.currentTarget.checked)}
              />
              {publish.isError && (
                <InlineMessage kind="error">
                  {describeError(publish.error, 'Failed to publish')}
                </InlineMessage>
              )}
              <Group justify="flex-end">
                <Button variant="default" onClick={close}>
                  Cancel
                </Button>
                <Button type="submit" loading={publish.isPending}>
                  Publish
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Modal>
    </>
  );
}
