import { Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { type FormEvent, type RefObject, useEffect, useState } from 'react';
import type { RadarQuery } from '#shared/schemas/radar.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { saveBlob } from '#web/lib/downloads.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useDownloadRadarFile, useQuadrants, useSaveQuadrants } from '../api/radar.ts';
import { exportSvg } from '../lib/radar-palette.ts';

/** Labels wrap on a phone instead of running out of the button. */
const WRAPPING = {
  root: { height: 'auto', minHeight: 36 },
  label: { whiteSpace: 'normal', paddingBlock: 6 },
} as const;

/** Downloads: the drawing as SVG, build-your-own-radar's CSV and the JSON answer, for what is shown. */
export function RadarDownloads({
  svg,
  query,
  title,
}: {
  svg: RefObject<SVGSVGElement | null>;
  query: RadarQuery;
  title: string;
}) {
  const download = useDownloadRadarFile();
  const { message, showError, clear } = useMessage();
  const file = (kind: 'csv' | 'json') =>
    download.mutate(
      { kind, query },
      { onError: (error) => showError(describeError(error, 'Failed to download the radar')) },
    );
  const saveSvg = () => {
    if (!svg.current) return;
    saveBlob(new Blob([exportSvg(svg.current, title)], { type: 'image/svg+xml' }), 'radar.svg');
  };
  const pending = download.isPending ? download.variables?.kind : null;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="radar-downloads">
      <Title order={2} size="h4" id="radar-downloads" mb="xs">
        Downloads
      </Title>
      <Stack gap="xs">
        <Group gap="sm" wrap="wrap">
          <Button
            variant="default"
            styles={WRAPPING}
            leftSection={<IconDownload size={16} aria-hidden />}
            onClick={saveSvg}
          >
            Download SVG
          </Button>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            styles={WRAPPING}
            onClick={() => file('csv')}
            loading={pending === 'csv'}
          >
            Download CSV (build-your-own-radar)
          </Button>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            styles={WRAPPING}
            onClick={() => file('json')}
            loading={pending === 'json'}
          >
            Download JSON
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          build-your-own-radar's hosted version accepts only its own quadrant names and four rings; Retired is
          left out of this file.
        </Text>
        {message && (
          <InlineMessage kind={message.kind} onClose={clear}>
            {message.text}
          </InlineMessage>
        )}
      </Stack>
    </Paper>
  );
}

/** Quadrants (admins): the four names, saved with PUT /radar/quadrants; keys stay as they are. */
export function QuadrantsEditor() {
  const quadrants = useQuadrants(true);
  const save = useSaveQuadrants();
  const { message, show, clear } = useMessage(3000);
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    if (quadrants.data) setNames(quadrants.data.quadrants.map((quadrant) => quadrant.name));
  }, [quadrants.data]);
  if (!quadrants.data) return null;
  const current = quadrants.data.quadrants;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      {
        quadrants: current.map((quadrant, index) => ({
          key: quadrant.key,
          name: names[index]?.trim() ?? '',
        })),
      },
      {
        onSuccess: () => show('success', '✅ Quadrants saved.'),
        onError: (error) => show('error', describeError(error, 'Failed to save the quadrants'), null),
      },
    );
  };
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="radar-quadrants">
      <Title order={2} size="h4" id="radar-quadrants" mb="xs">
        Quadrants
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {current.map((quadrant, index) => (
              <TextInput
                key={quadrant.key}
                label={`Quadrant ${index + 1} (${quadrant.key})`}
                value={names[index] ?? ''}
                maxLength={60}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setNames((list) => list.map((name, at) => (at === index ? value : name)));
                }}
              />
            ))}
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save quadrants
            </Button>
          </Group>
          {message && (
            <InlineMessage kind={message.kind} onClose={clear}>
              {message.text}
            </InlineMessage>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
