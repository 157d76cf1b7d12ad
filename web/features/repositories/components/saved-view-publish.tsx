import { Anchor, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconExternalLink } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import {
  DEFAULT_PUBLIC_PAGE_FIELDS,
  PUBLIC_PAGE_FIELDS,
  PUBLISH_PRIVATE_VIEW_MESSAGE,
  type Publication,
  type PublicPageField,
} from '#shared/schemas/public-pages.ts';
import type { SavedView } from '#shared/schemas/views.ts';
import { CopyField } from '#web/components/copy-field.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { SectionError, SectionLoader } from '#web/components/load-states.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { usePublishView, useUnpublishView, useViewPublication } from '../api/publish-view.ts';

const FIELD_LABELS: Record<PublicPageField, string> = {
  description: 'Description',
  stars: 'Stars',
  growth: 'Growth (stars in the last 30 days)',
  health: 'Health (grade and score)',
  status: 'Status (the team’s decision)',
  release: 'Release (the latest tracked version)',
  tags: 'Tags',
  notes: 'Notes — the team’s private notes, shown to anyone with the address',
};

/**
 * Publishing a shared view (docs/product.md#public-pages): the fields to show, then its address
 * with Copy and Open; when published, Publish again (a new address) and Unpublish. Loaded when
 * first opened, like the view's form.
 */
export default function PublishViewDialog({
  opened,
  view,
  onClose,
}: {
  opened: boolean;
  view: SavedView;
  onClose: () => void;
}) {
  const publication = useViewPublication(view.id, opened && view.shared);
  const publish = usePublishView(view.id);
  const unpublish = useUnpublishView(view.id);
  // Choosing the fields again for a new address; the first publishing always chooses.
  const [again, setAgain] = useState(false);
  const [fields, setFields] = useState<PublicPageField[]>([...DEFAULT_PUBLIC_PAGE_FIELDS]);

  const close = () => {
    setAgain(false);
    publish.reset();
    unpublish.reset();
    onClose();
  };

  let body: ReactNode;
  if (!view.shared) {
    body = (
      <Stack gap="md">
        <InlineMessage kind="info">{PUBLISH_PRIVATE_VIEW_MESSAGE}</InlineMessage>
        <Text size="sm">
          A private view can't have a public page: choose “Share with the team” in its menu first.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Close
          </Button>
        </Group>
      </Stack>
    );
  } else if (publication.isPending) {
    body = <SectionLoader label="Loading the publication..." />;
  } else if (publication.isError) {
    body = (
      <SectionError
        message={describeError(publication.error, 'Failed to load the publication')}
        onRetry={() => void publication.refetch()}
        retrying={publication.isRefetching}
      />
    );
  } else if (publication.data && !again) {
    body = (
      <Published
        publication={publication.data}
        busy={unpublish.isPending}
        error={unpublish.isError ? describeError(unpublish.error, 'Failed to unpublish') : null}
        onAgain={() => {
          setFields([...(publication.data?.fields ?? DEFAULT_PUBLIC_PAGE_FIELDS)]);
          publish.reset();
          setAgain(true);
        }}
        onUnpublish={() =>
          unpublish.mutate(undefined, {
            onSuccess: () => {
              notifications.show({ message: `“${view.name}” is no longer public; its address answers 404.` });
              close();
            },
          })
        }
      />
    );
  } else {
    body = (
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          publish.mutate(
            PUBLIC_PAGE_FIELDS.filter((field) => fields.includes(field)),
            { onSuccess: () => setAgain(false) },
          );
        }}
      >
        <Stack gap="md">
          <Text size="sm">
            Anyone with the address can read the view's repositories (public ones only) with the fields ticked
            below, without an account.
            {again && ' Publishing again gives a new address; the current one stops working.'}
          </Text>
          <Checkbox.Group
            label="Fields to show"
            value={fields}
            onChange={(value) => setFields(value as PublicPageField[])}
          >
            <Stack gap={6} mt="xs">
              {PUBLIC_PAGE_FIELDS.map((field) => (
                <Checkbox key={field} value={field} label={FIELD_LABELS[field]} />
              ))}
            </Stack>
          </Checkbox.Group>
          {publish.isError && (
            <InlineMessage kind="error">
              {describeError(publish.error, 'Failed to publish the view')}
            </InlineMessage>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={again ? () => setAgain(false) : close}>
              Cancel
            </Button>
            <Button type="submit" loading={publish.isPending}>
              {again ? 'Publish at a new address' : 'Publish'}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }

  return (
    <Modal opened={opened} onClose={close} title={`Publish “${view.name}”`} centered>
      {body}
    </Modal>
  );
}

function Published({
  publication,
  busy,
  error,
  onAgain,
  onUnpublish,
}: {
  publication: Publication;
  busy: boolean;
  error: string | null;
  onAgain: () => void;
  onUnpublish: () => void;
}) {
  return (
    <Stack gap="md">
      <CopyField label="Public address" value={publication.url} copyName="Copy the address" />
      <Text size="sm">
        Shows: {publication.fields.length === 0 ? 'names and links only' : publication.fields.join(', ')}.{' '}
        <Anchor href={publication.url} target="_blank" rel="noopener noreferrer" inline underline="always">
          Open
          <IconExternalLink size={14} aria-hidden style={{ marginLeft: 4, verticalAlign: 'middle' }} />
        </Anchor>
      </Text>
      {error && <InlineMessage kind="error">{error}</InlineMessage>}
      <Group justify="flex-end" gap="sm" wrap="wrap">
        <Button variant="default" onClick={onAgain}>
          Publish again (new address)
        </Button>
        <Button color="red" variant="light" loading={busy} onClick={onUnpublish}>
          Unpublish
        </Button>
      </Group>
    </Stack>
  );
}
